// The client in the project's chat (issues 14 and 15): a member turns it on in the portal's
// settings; the client reads the team's message in the portal and answers; the member's open chat
// shows the answer live, under the client's name; the member's reply reaches the portal's page.
import type { Page } from '@playwright/test';
import { expect, test } from './console-guard.ts';
import { openNewProject } from './app-locators.ts';
import { createConfirmedUser, e2eOrigin, newEmail, signInAt } from './e2e-accounts.ts';
import { expectAccessible, shoot } from './screen-checks.ts';

test.use({ baseURL: e2eOrigin });

const memberLog = (page: Page) => page.getByRole('log', { name: /^Messages about / });

test('portal chat: the client reads the team and answers; the member sees it live', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(150_000);
  const email = newEmail('portal-chat');
  await createConfirmedUser(request, email);
  await signInAt(page, email);
  await page.goto('/projects');
  await expect(page.getByRole('heading', { name: 'No projects yet' })).toBeVisible();
  await openNewProject(page, 'Shop front', 'Acme Bakery');

  // The member: the portal on with a password, and the client's chat on.
  await page.getByRole('button', { name: 'Client portal…' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Password', { exact: true }).fill('blue lagoon 42');
  await dialog.getByRole('button', { name: 'Set password and turn on' }).click();
  await expect(dialog.getByRole('switch', { name: 'Portal on' })).toBeChecked();
  const chatSwitch = dialog.getByRole('switch', { name: 'Chat with your client' });
  await expect(chatSwitch).not.toBeChecked();
  // By keyboard: react-aria's switch is a visually hidden input inside its label.
  await chatSwitch.focus();
  await page.keyboard.press('Space');
  await expect(chatSwitch).toBeChecked();
  // Saving keeps the focus where it was, so Escape still closes the dialog.
  await expect(chatSwitch).toBeFocused();
  await expect(dialog.getByText(/Your client reads this project’s chat/)).toBeVisible();
  await expectAccessible(page, 'portal access dialog with chat', '[role="dialog"]');
  const link = await dialog.getByRole('textbox', { name: 'Portal link' }).inputValue();
  await chatSwitch.focus();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  await page.getByRole('tab', { name: 'Chat' }).click();
  const composer = page.getByRole('textbox', { name: /^Message to / });
  await composer.fill('Welcome! Ask us anything here.');
  await composer.press('Enter');
  await expect(memberLog(page).getByText('Welcome! Ask us anything here.')).toBeVisible();

  // The client: another browser, no account.
  const clientContext = await browser.newContext({ baseURL: e2eOrigin });
  const client = await clientContext.newPage();
  await client.goto(new URL(link).pathname);
  await client.getByLabel('Password', { exact: true }).fill('blue lagoon 42');
  await client.keyboard.press('Enter');
  await expect(client.getByRole('heading', { level: 1, name: 'Shop front' })).toBeFocused();
  const thread = client.getByRole('list', { name: 'Messages with the team' });
  await expect(thread.getByText('Welcome! Ask us anything here.')).toBeVisible({
    timeout: 20_000,
  });
  const field = client.getByRole('textbox', { name: /^Message to / });
  await field.fill('Can the banner be blue?');
  await field.press('Enter');
  await expect(thread.getByText('Can the banner be blue?')).toBeVisible();
  await expect(field).toHaveValue('');
  await client.getByRole('heading', { name: 'Messages' }).scrollIntoViewIfNeeded();
  await shoot(client, 'portal-chat');
  await expectAccessible(client, 'portal chat');
  await client.setViewportSize({ width: 360, height: 780 });
  await client.getByRole('heading', { name: 'Messages' }).scrollIntoViewIfNeeded();
  await shoot(client, 'portal-chat-360');

  // The member's open chat shows it live, under the client's name.
  await expect(memberLog(page).getByText('Can the banner be blue?')).toBeVisible({
    timeout: 20_000,
  });
  await expect(memberLog(page).getByText('Acme Bakery').first()).toBeVisible();
  await composer.fill('Yes, a new draft is coming today.');
  await composer.press('Enter');

  // The portal's page reads the conversation again while shown (every 15 s).
  await expect(thread.getByText('Yes, a new draft is coming today.')).toBeVisible({
    timeout: 30_000,
  });
  await clientContext.close();
});
