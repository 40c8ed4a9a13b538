import { expect, test } from './console-guard.ts';
import { createConfirmedUser, e2eOrigin, newEmail, signInAt } from './e2e-accounts.ts';
import { openNewProject } from './app-locators.ts';
import { expectAccessible, shoot } from './screen-checks.ts';

test.use({ baseURL: e2eOrigin });

test('notes: write a project note that survives a reload, and a client note', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const email = newEmail('notes');
  await createConfirmedUser(request, email);
  await signInAt(page, email);

  // A project (and its new client).
  await page.goto('/projects');
  await expect(page.getByRole('heading', { name: 'No projects yet' })).toBeVisible();
  await openNewProject(page, 'Website relaunch', 'Acme Studio');

  // The Notes tab: the empty state teaches, "n" starts a note with its title focused.
  await page.getByRole('tab', { name: 'Notes' }).click();
  await expect(page).toHaveURL(/tab=notes/);
  await expect(page.getByText('No notes for Website relaunch yet')).toBeVisible();
  await shoot(page, 'notes-empty');
  await expectAccessible(page, 'empty');

  await page.keyboard.press('n');
  const title = page.getByRole('textbox', { name: 'Title' });
  await expect(title).toBeFocused();
  await title.fill('Kick-off call');
  const body = page.getByRole('textbox', { name: 'Note' });
  await body.click();
  await page.keyboard.type('## Decisions\n');
  await page.getByRole('button', { name: 'Checklist' }).click();
  await page.keyboard.type('Send the sitemap\n- Launch in **March**\n');
  await page.keyboard.press('Control+k');
  await page.keyboard.type('the brief');
  await expect(page.getByText('Saved on this device')).toBeVisible();
  await shoot(page, 'notes-editor');
  await expectAccessible(page, 'editor');

  await page.getByRole('button', { name: 'Preview' }).click();
  const preview = page.getByRole('region', { name: 'Preview' });
  await expect(preview.getByRole('heading', { name: 'Decisions' })).toBeVisible();
  await expect(preview.getByRole('checkbox', { name: 'Not done' })).toBeVisible();
  await expect(preview.locator('strong')).toHaveText('March');
  await shoot(page, 'notes-preview');
  await expectAccessible(page, 'preview');

  // Saved on the device: it is still there after a reload.
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Website relaunch' })).toBeVisible();
  const list = page.getByRole('list', { name: 'Notes for Website relaunch' });
  await expect(list.getByRole('button', { name: /Kick-off call/ })).toBeVisible();
  await expect(list).toContainText('Decisions');
  await list.getByRole('button', { name: /Kick-off call/ }).click();
  await expect(page.getByRole('textbox', { name: 'Note' })).toHaveValue(/Send the sitemap/);
  await shoot(page, 'notes-list');

  // A note on the client, on the client's page.
  await page.getByRole('link', { name: 'Acme Studio' }).first().click();
  await expect(page.getByRole('heading', { level: 1, name: 'Acme Studio' })).toBeVisible();
  const clientNotes = page.getByRole('region', { name: 'Notes' });
  await expect(clientNotes.getByText('No notes for Acme Studio yet')).toBeVisible();
  await clientNotes.getByRole('button', { name: 'New note' }).click();
  await expect(clientNotes.getByRole('textbox', { name: 'Title' })).toBeFocused();
  await clientNotes.getByRole('textbox', { name: 'Title' }).fill('Billing contact');
  await clientNotes.getByRole('textbox', { name: 'Note' }).fill('Invoices go to **Ana**.');
  await expect(clientNotes.getByText('Saved on this device')).toBeVisible();
  await shoot(page, 'notes-client');
  await expectAccessible(page, 'client');
  await clientNotes.getByRole('button', { name: 'All notes' }).click();
  await expect(
    clientNotes
      .getByRole('list', { name: 'Notes for Acme Studio' })
      .getByText('Invoices go to Ana.'),
  ).toBeVisible();
  await page.reload();
  await expect(
    page.getByRole('list', { name: 'Notes for Acme Studio' }).getByRole('button', {
      name: /Billing contact/,
    }),
  ).toBeVisible();
  await shoot(page, 'notes-client-list');
  await expectAccessible(page, 'client list');
});
