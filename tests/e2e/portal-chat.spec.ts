// The client in the project's chat (issues 14 and 15): a member turns it on in the portal's
// settings; the client reads the team's message in the portal and answers; the member's open chat
// shows the answer live, under the client's name; the member's reply reaches the portal's page.
// Offline, the portal shows the chat and the invoices it saved, and a message written offline is
// sent once the network is back.
import type { Page } from '@playwright/test';
import { expect, test } from './console-guard.ts';
import { openNewProject, waitForOfflineShell } from './app-locators.ts';
import { createConfirmedUser, e2eOrigin, newEmail, signInAt } from './e2e-accounts.ts';
import { expectAccessible, shoot } from './screen-checks.ts';
import { upgradeToPro, useFakeStripe } from './team-setup.ts';

test.use({
  baseURL: e2eOrigin,
  // The offline reload's calls fail: the browser logs them.
  allowedConsoleErrors: [/Failed to fetch|ERR_INTERNET_DISCONNECTED/],
});

useFakeStripe();

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

test('portal offline: the saved chat and invoices show; a message typed offline goes once back online', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const email = newEmail('portal-offline');
  await createConfirmedUser(request, email);
  await signInAt(page, email);
  // The client pays by card on a paid plan (Free shows the payment instructions instead).
  await upgradeToPro(page);
  await page.goto('/projects');
  await expect(page.getByRole('heading', { name: 'No projects yet' })).toBeVisible();
  await openNewProject(page, 'Shop front', 'Acme Bakery');
  const projectPath = new URL(page.url()).pathname;
  await page.getByRole('tab', { name: 'Milestones' }).click();
  await page.getByRole('textbox', { name: 'Milestone title' }).fill('Sketches');
  await page.getByRole('textbox', { name: 'Amount' }).fill('1200');
  await page.getByRole('button', { name: 'Add milestone' }).click();
  await expect(page.getByRole('heading', { level: 3, name: 'Sketches' })).toBeVisible();

  // The portal on, with the client's chat.
  await page.getByRole('button', { name: 'Client portal…' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Password', { exact: true }).fill('blue lagoon 42');
  await dialog.getByRole('button', { name: 'Set password and turn on' }).click();
  await expect(dialog.getByRole('switch', { name: 'Portal on' })).toBeChecked();
  const chatSwitch = dialog.getByRole('switch', { name: 'Chat with your client' });
  await chatSwitch.focus();
  await page.keyboard.press('Space');
  await expect(chatSwitch).toBeChecked();
  const link = await dialog.getByRole('textbox', { name: 'Portal link' }).inputValue();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await page.getByRole('tab', { name: 'Chat' }).click();
  const composer = page.getByRole('textbox', { name: /^Message to / });
  await composer.fill('The sketches are in Files.');
  await composer.press('Enter');
  await expect(memberLog(page).getByText('The sketches are in Files.')).toBeVisible();

  // An invoice for the milestone, sent.
  await page
    .getByRole('navigation', { name: 'App' })
    .getByRole('link', { name: 'Invoices' })
    .click();
  await page.getByRole('button', { name: 'New invoice' }).first().click();
  const sheet = page.getByRole('dialog', { name: 'New invoice' });
  await sheet.getByRole('button', { name: /Project/ }).click();
  await page.getByRole('option', { name: 'Shop front' }).click();
  await sheet.getByRole('button', { name: 'Create draft' }).click();
  await page.getByRole('button', { name: 'Add milestones' }).click();
  const milestones = page.getByRole('dialog', { name: 'Add milestones' });
  await milestones.locator('label', { hasText: 'Sketches' }).click();
  await milestones.getByRole('button', { name: 'Add 1 line' }).click();
  await page.getByRole('button', { name: 'Send invoice' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'INV-0001' })).toBeVisible({
    timeout: 20_000,
  });

  // The client opens the portal online once: the page keeps its copy.
  const clientContext = await browser.newContext({ baseURL: e2eOrigin });
  const client = await clientContext.newPage();
  await client.goto(new URL(link).pathname);
  await client.getByLabel('Password', { exact: true }).fill('blue lagoon 42');
  await client.keyboard.press('Enter');
  await expect(client.getByRole('heading', { level: 1, name: 'Shop front' })).toBeFocused();
  const invoices = client.getByRole('region', { name: 'Invoices' });
  const thread = client.getByRole('list', { name: 'Messages with the team' });
  await expect(invoices.getByRole('heading', { name: 'INV-0001 · Shop front' })).toBeVisible();
  await expect(thread.getByText('The sketches are in Files.')).toBeVisible();

  // Back to the member's open chat, to see the client's message arrive live.
  await page.goto(projectPath);
  await page.getByRole('tab', { name: 'Chat' }).click();
  await expect(memberLog(page).getByText('The sketches are in Files.')).toBeVisible();

  // Offline, the page opened again: invoices and messages from the device.
  await waitForOfflineShell(client);
  await clientContext.setOffline(true);
  await client.reload();
  await expect(client.getByRole('heading', { level: 1, name: 'Shop front' })).toBeVisible();
  await expect(invoices.getByRole('heading', { name: 'INV-0001 · Shop front' })).toBeVisible();
  await expect(
    invoices.getByText(/You are offline: paying needs a connection, and so does the PDF/),
  ).toBeVisible();
  await expect(invoices.getByRole('button', { name: 'Pay $1,200.00 by card' })).toBeDisabled();
  await expect(invoices.getByRole('button', { name: 'Download PDF' })).toBeDisabled();
  const messages = client.getByRole('region', { name: 'Messages' });
  await expect(thread.getByText('The sketches are in Files.')).toBeVisible();
  await expect(messages.getByText(/the messages saved on this device, as of/)).toBeVisible();

  const field = client.getByRole('textbox', { name: /^Message to / });
  await field.fill('Writing from the train: looks great!');
  await field.press('Enter');
  const waiting = thread.getByRole('listitem').filter({ hasText: 'Writing from the train' });
  await expect(waiting.getByText('Waiting for a connection')).toBeVisible();
  await expect(field).toHaveValue('');
  await invoices.getByRole('heading', { name: 'INV-0001 · Shop front' }).scrollIntoViewIfNeeded();
  await shoot(client, 'portal-offline-invoices-chat');
  await expectAccessible(client, 'portal offline with invoices and chat');

  // Back online: the message is sent, once, and the member's open chat shows it.
  await clientContext.setOffline(false);
  await expect(waiting.getByText(/Waiting for a connection|Sending…/)).toHaveCount(0, {
    timeout: 20_000,
  });
  await expect(memberLog(page).getByText('Writing from the train: looks great!')).toHaveCount(1, {
    timeout: 20_000,
  });
  await expect(invoices.getByRole('button', { name: 'Pay $1,200.00 by card' })).toBeEnabled();

  // Offline with the session ended: the gate's saved copy has the invoices and the messages too.
  await clientContext.setOffline(true);
  await client.evaluate(() => {
    const session = JSON.parse(localStorage.getItem('client_access_session') ?? '{}') as object;
    localStorage.setItem(
      'client_access_session',
      JSON.stringify({ ...session, lastActivity: Date.now() - 31 * 60_000 }),
    );
  });
  await client.reload();
  await client.getByRole('button', { name: 'Read the saved copy' }).click();
  await expect(client.getByRole('heading', { level: 1, name: 'Shop front' })).toBeFocused();
  await expect(invoices.getByRole('heading', { name: 'INV-0001 · Shop front' })).toBeVisible();
  await expect(invoices.getByRole('button', { name: 'Pay $1,200.00 by card' })).toBeDisabled();
  await expect(thread.getByText('Writing from the train: looks great!')).toBeVisible();
  await expect(thread.getByText('Waiting for a connection')).toHaveCount(0);
  await expect(client.getByRole('textbox', { name: /^Message to / })).toHaveCount(0);
  await shoot(client, 'portal-saved-copy-invoices-chat');
  await expectAccessible(client, 'portal saved copy with invoices and chat');
  await clientContext.close();
});
