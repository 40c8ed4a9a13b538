import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './console-guard.ts';
import { createConfirmedUser, e2eOrigin, newEmail, signInAt } from './e2e-accounts.ts';

test.use({ baseURL: e2eOrigin });

// SCREENSHOT_DIR=<dir> also saves the screens at desktop and phone width, light and dark.
const shotDir = process.env.SCREENSHOT_DIR;

async function shoot(page: Page, name: string): Promise<void> {
  if (!shotDir) return;
  for (const theme of ['light', 'dark'] as const) {
    await page.evaluate((t) => {
      document.documentElement.classList.remove('light', 'dark');
      document.documentElement.classList.add(t);
    }, theme);
    for (const [label, width] of [
      ['desktop', 1280],
      ['phone', 360],
    ] as const) {
      await page.setViewportSize({ width, height: label === 'phone' ? 780 : 860 });
      await page.screenshot({ path: `${shotDir}/${name}-${label}-${theme}.png`, fullPage: true });
    }
  }
  await page.setViewportSize({ width: 1280, height: 860 });
  await page.evaluate(() => document.documentElement.classList.remove('dark'));
}

/** axe over the page's main content (the shell is checked elsewhere), in both themes. */
async function expectAccessible(page: Page, label: string, scope = 'main'): Promise<void> {
  const violations: string[] = [];
  for (const theme of ['light', 'dark'] as const) {
    await page.evaluate((t) => {
      document.documentElement.classList.remove('light', 'dark');
      document.documentElement.classList.add(t);
    }, theme);
    // Let colour transitions finish before contrast is measured.
    await page.waitForTimeout(250);
    const { violations: found } = await new AxeBuilder({ page })
      .include(scope)
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
      .analyze();
    violations.push(
      ...found.flatMap((v) =>
        v.nodes.map((n) => `${label} ${theme} ${v.id} ${n.target.join(' ')}: ${n.failureSummary}`),
      ),
    );
  }
  await page.evaluate(() => document.documentElement.classList.remove('dark'));
  expect(violations).toEqual([]);
}

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
  await page.keyboard.press('n');
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('textbox', { name: 'Project name' }).fill('Website relaunch');
  await dialog.getByRole('combobox', { name: 'Client' }).fill('Acme Studio');
  await page.getByRole('option', { name: 'Create new client “Acme Studio”', exact: true }).click();
  await dialog.getByRole('button', { name: 'Create project' }).click();
  await expect(dialog).toBeHidden();
  await page.getByRole('link', { name: 'Website relaunch' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Website relaunch' })).toBeVisible();

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
