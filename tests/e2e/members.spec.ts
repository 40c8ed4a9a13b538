/**
 * Two people in one workspace (issue 17): the owner upgrades to Pro (two members; Free has room
 * for the owner alone), makes an invitation link in Settings > Members, the second person opens
 * it signed out, signs in, comes back to the invitation, accepts and sees the owner's project;
 * the owner removes them and their device drops the workspace's data.
 */
import { expect, test } from './console-guard.ts';
import { createConfirmedUser, e2eOrigin, e2ePassword, newEmail, signInAt } from './e2e-accounts.ts';
import { expectAccessible, shoot } from './screen-checks.ts';
import { createFirstProject, createInviteLink, upgradeToPro, useFakeStripe } from './team-setup.ts';

test.use({
  baseURL: e2eOrigin,
  // The unknown link's preview is a 404, which the browser reports on the console.
  allowedConsoleErrors: [/status of 404/],
});

useFakeStripe();

test('the owner invites by link, the second person joins and sees the project, removal drops it', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const ownerEmail = newEmail('owner');
  const guestEmail = newEmail('guest');
  await createConfirmedUser(request, ownerEmail, 'Olive');
  await createConfirmedUser(request, guestEmail, 'Gus');
  await signInAt(page, ownerEmail);
  await createFirstProject(page, 'Website relaunch', 'Acme Studio');

  // Pro: room for a second member.
  await upgradeToPro(page);

  // Settings > Members: the owner alone, then a link invitation.
  await page.goto('/settings?tab=members');
  const members = page.getByRole('list', { name: 'Members' });
  await expect(members.getByRole('listitem')).toHaveCount(1);
  await expect(members).toContainText('Olive Test');
  await expect(page.getByText('No invitations yet.')).toBeVisible();
  const link = await createInviteLink(page);
  await expect(page.getByRole('list', { name: 'Invitations' })).toContainText('Active');
  await shoot(page, 'members-owner');
  await expectAccessible(page, 'members owner');

  // The second person, on their own device, signed out.
  const other = await browser.newContext({ baseURL: e2eOrigin });
  const guest = await other.newPage();
  await guest.goto(link);
  const heading = guest.getByRole('heading', { level: 1, name: /^Join / });
  await expect(heading).toBeFocused();
  await expect(guest.getByText(/Olive Test invited you to work in/)).toContainText('as a member');
  await shoot(guest, 'invite-signed-out');
  await expectAccessible(guest, 'invite signed out');
  await guest.getByRole('link', { name: 'Sign in' }).click();
  await expect(guest).toHaveURL(/\/login\?returnTo=/);
  await guest.getByRole('textbox', { name: 'Email' }).fill(guestEmail);
  await guest.getByLabel('Password', { exact: true }).fill(e2ePassword);
  await guest.getByRole('button', { name: 'Sign in', exact: true }).click();
  // Back on the invitation, signed in.
  await expect(guest).toHaveURL((url) => url.pathname === new URL(link).pathname);
  const accept = guest.getByRole('button', { name: /^Accept and open / });
  await expect(accept).toBeVisible();
  await shoot(guest, 'invite-signed-in');
  await expectAccessible(guest, 'invite signed in');
  await accept.click();
  await expect(guest).toHaveURL((url) => url.pathname === '/dashboard');
  await guest.goto('/projects');
  await expect(guest.getByRole('link', { name: /Website relaunch/ })).toBeVisible();

  // The owner sees them, and removes them.
  await page.reload();
  await expect(members.getByRole('listitem')).toHaveCount(2);
  await expect(page.getByRole('list', { name: 'Invitations' })).toContainText('Used');
  await page.getByRole('button', { name: 'Remove Gus Test' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Remove Gus Test?' });
  await confirm.getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByText('Gus Test was removed from the workspace.')).toBeVisible();
  await expect(members.getByRole('listitem')).toHaveCount(1);

  // Their device drops the workspace at its next pull (the hub tells it; a reload pulls too).
  await expect(async () => {
    await guest.reload();
    await expect(guest.getByRole('heading', { name: 'No projects yet' })).toBeVisible({
      timeout: 5_000,
    });
  }).toPass({ timeout: 30_000 });
  await expect(guest.getByRole('link', { name: /Website relaunch/ })).toHaveCount(0);
  await other.close();
});

test('an unknown invitation link says so', async ({ page }) => {
  await page.goto(`/invite/${'A'.repeat(43)}`);
  await expect(
    page.getByRole('heading', { level: 1, name: 'This invitation can’t be opened' }),
  ).toBeFocused();
  await expect(page.getByRole('alert')).toContainText('not valid');
  await shoot(page, 'invite-unknown');
  await expectAccessible(page, 'invite unknown');
});
