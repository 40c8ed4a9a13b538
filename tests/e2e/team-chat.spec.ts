/**
 * Two people, not two devices of one (issue 17): the owner invites by link; the second person has
 * no account yet, so they sign up from the invitation, confirm by mail and come back to it,
 * accept, and open the project's chat. Their message reaches the owner's open chat live under
 * their name; the owner's open chat learns of the new member without a reload (the membership
 * change re-reads the member list), so the owner mentions them, and the mention notifies them.
 * Then the new member writes offline while the owner writes online: both end in the server's order.
 */
import type { Page } from '@playwright/test';
import { openNewProject, syncButton } from './app-locators.ts';
import { expect, test } from './console-guard.ts';
import {
  confirmationLink,
  createConfirmedUser,
  e2eOrigin,
  e2ePassword,
  newEmail,
  signInAt,
} from './e2e-accounts.ts';
import { expectAccessible, shoot } from './screen-checks.ts';
import { createInviteLink, upgradeToPro, useFakeStripe } from './team-setup.ts';
import { composer, log, send, texts } from './chat-steps.ts';

test.use({ baseURL: e2eOrigin });

useFakeStripe();

const bell = (page: Page) => page.getByRole('link', { name: /^Notifications, / });

test('a new person signs up from an invitation, joins, and chats live with the owner', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const ownerEmail = newEmail('olive');
  const guestEmail = newEmail('gus');
  await createConfirmedUser(request, ownerEmail, 'Olive');
  await signInAt(page, ownerEmail);
  await upgradeToPro(page);
  const link = await createInviteLink(page);

  await page.goto('/projects');
  await expect(page.getByRole('heading', { name: 'No projects yet' })).toBeVisible();
  await openNewProject(page, 'Brand refresh', 'Chat Co');
  await page.getByRole('tab', { name: 'Chat' }).click();
  await expect(page.getByText('No messages yet')).toBeVisible();
  const projectPath = new URL(page.url()).pathname;

  // The second person has no account: Create an account, from the invitation.
  const other = await browser.newContext({ baseURL: e2eOrigin });
  const guest = await other.newPage();
  await guest.goto(link);
  await expect(guest.getByRole('heading', { level: 1, name: /^Join / })).toBeFocused();
  await guest.getByRole('link', { name: 'Create an account' }).click();
  await expect(guest).toHaveURL(/\/signup\?returnTo=/);
  await guest.getByRole('textbox', { name: 'First name' }).fill('Gus');
  await guest.getByRole('textbox', { name: 'Last name' }).fill('Test');
  await guest.getByRole('textbox', { name: 'Email' }).fill(guestEmail);
  await guest.getByLabel('Password', { exact: true }).fill(e2ePassword);
  await guest.getByRole('button', { name: 'Create account' }).click();
  await expect(guest.getByRole('heading', { level: 1 })).toHaveText('Check your email');
  // The mailed link confirms the address, registers them and returns to the invitation.
  await guest.goto(await confirmationLink(guestEmail));
  await expect(guest).toHaveURL((url) => url.pathname === new URL(link).pathname, {
    timeout: 20_000,
  });
  const accept = guest.getByRole('button', { name: /^Accept and open / });
  await expect(accept).toBeVisible();
  await shoot(guest, 'invite-after-signup');
  await expectAccessible(guest, 'invite after sign-up');
  await accept.click();
  await expect(guest).toHaveURL((url) => url.pathname === '/dashboard');

  // Their own workspace was made at registration; the invitation opened the owner's.
  await guest.goto(projectPath);
  await expect(guest.getByRole('heading', { level: 1, name: 'Brand refresh' })).toBeVisible({
    timeout: 20_000,
  });
  await guest.getByRole('tab', { name: 'Chat' }).click();
  await composer(guest).fill('Hello from Gus');
  await composer(guest).press('Enter');

  // Live on the owner's open chat, under the new member's name.
  const fromGus = log(page).locator('li[id^="message-"]', { hasText: 'Hello from Gus' });
  await expect(fromGus).toBeVisible({ timeout: 20_000 });
  await expect(fromGus).toContainText('Gus Test');

  // The owner's open chat knows the new member without a reload: mention them.
  await composer(page).fill('Welcome @Gu');
  const mentions = page.getByRole('listbox', { name: 'Members to mention' });
  await expect(mentions.getByRole('option', { name: 'Gus Test' })).toBeVisible({
    timeout: 20_000,
  });
  await composer(page).press('Enter');
  await expect(composer(page)).toHaveValue(/^Welcome @Gus Test\s?$/);
  await composer(page).press('Enter');
  await expect(log(guest).getByText(/Welcome @Gus Test/)).toBeVisible({ timeout: 20_000 });
  // The mention notifies Gus.
  await expect(bell(guest)).toHaveAccessibleName(/^Notifications, 1 unread/, { timeout: 20_000 });
  await shoot(guest, 'team-chat-guest');
  await expectAccessible(guest, 'team chat guest');

  // Gus goes offline and writes; Olive writes meanwhile and hers reaches the server first. Back
  // online, Gus's message goes out, and both people see the server's order.
  await other.setOffline(true);
  await expect(guest.getByText(/You are offline: messages wait on this device/)).toBeVisible();
  await send(guest, 'Written offline by Gus');
  await send(page, 'Olive meanwhile');
  await other.setOffline(false);
  await expect(log(page).getByText('Written offline by Gus')).toBeVisible({ timeout: 20_000 });
  await expect(log(guest).getByText('Olive meanwhile')).toBeVisible({ timeout: 20_000 });
  await expect(syncButton(guest)).toHaveAccessibleName('Sync: All changes saved', {
    timeout: 20_000,
  });
  const expected = [
    'Hello from Gus',
    'Welcome @Gus Test',
    'Olive meanwhile',
    'Written offline by Gus',
  ];
  await expect.poll(() => texts(page), { timeout: 20_000 }).toEqual(expected);
  await expect.poll(() => texts(guest), { timeout: 20_000 }).toEqual(expected);
  await other.close();
});
