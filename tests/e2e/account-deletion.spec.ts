/**
 * Deleting the account in the real app (issue 18): Settings > Profile's danger zone, the dialog
 * (what happens to the workspace, the password, the typed word), all by keyboard; the app ends
 * signed out on the farewell page, and the address no longer signs in. axe on the dialog and the
 * page; screenshots at 1280 and 360 px when SCREENSHOT_DIR is set.
 */
import { createConfirmedUser, e2eOrigin, e2ePassword, newEmail, signInAt } from './e2e-accounts.ts';
import { expect, test } from './console-guard.ts';
import { expectAccessible, shoot } from './screen-checks.ts';
import { createInviteLink, upgradeToPro, useFakeStripe } from './team-setup.ts';

// Refusals the test provokes: the wrong password, the sign-out of a session the deletion already
// ended (supabase-js drops it here anyway), and the sign-in of the deleted address.
test.use({
  // The origin the server calls PUBLIC_URL (team-setup's steps use paths).
  baseURL: e2eOrigin,
  allowedConsoleErrors: [
    /status of (422 .* at .*\/api\/account\?endpoint=delete-account|403 .* at .*\/auth\/v1\/logout|400 .* at .*\/auth\/v1\/token\?grant_type=password)/,
  ],
});

useFakeStripe();

test('a user deletes their account and can no longer sign in', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const email = newEmail('leaving');
  await createConfirmedUser(request, email, 'Lea');
  await signInAt(page, email);

  // Their other device, open with live updates on: it is told when the account goes.
  const laptopContext = await browser.newContext({ baseURL: e2eOrigin });
  const laptop = await laptopContext.newPage();
  await signInAt(laptop, email);
  await laptop.goto(`${e2eOrigin}/notifications`);
  await expect(laptop.getByRole('heading', { level: 1, name: 'Notifications' })).toBeVisible();
  await expect(laptop.getByText(/Live updates are off|Connecting for live updates/)).toHaveCount(
    0,
    {
      timeout: 20_000,
    },
  );

  await page.goto(`${e2eOrigin}/settings`);
  const zone = page.getByRole('region', { name: 'Delete account' });
  await expect(zone).toBeVisible();
  const opener = zone.getByRole('button', { name: 'Delete account…' });
  await opener.focus();
  await page.keyboard.press('Enter');

  const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
  const fates = dialog.getByRole('list', { name: 'What happens to your workspaces' });
  await expect(fates).toContainText('Only you are in it: it is deleted with nothing in it yet.');
  await expect(dialog.getByLabel('Your password')).toBeFocused();
  await expectAccessible(page, 'delete account dialog', '[role="dialog"]');
  await shoot(page, 'account-delete-dialog');

  // Escape cancels and gives the focus back; nothing happened.
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(opener).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(dialog.getByLabel('Your password')).toBeFocused();

  await page.keyboard.type('not-my-password');
  await page.keyboard.press('Tab');
  await expect(dialog.getByRole('textbox', { name: 'Type DELETE to confirm' })).toBeFocused();
  await page.keyboard.type('DELETE');
  await page.keyboard.press('Enter');
  await expect(
    dialog.getByText('That is not the right password. Nothing was deleted.'),
  ).toBeVisible();
  await expect(dialog.getByLabel('Your password')).toBeFocused();

  // The account's copy on this device (one IndexedDB database per user) goes with it.
  const userDatabases = () =>
    page.evaluate(async () =>
      (await indexedDB.databases())
        .map((database) => database.name ?? '')
        .filter((name) => /^satchel-[0-9a-f-]{36}$/.test(name)),
    );
  expect(await userDatabases()).toHaveLength(1);

  await dialog.getByLabel('Your password').fill(e2ePassword);
  await page.keyboard.press('Enter');

  // A full page load (nothing of the account stays in memory): on a busy machine it can take
  // longer than the default wait.
  await expect(page).toHaveURL((url) => url.pathname === '/account-deleted', { timeout: 20_000 });
  const heading = page.getByRole('heading', { level: 1, name: 'Your account is deleted' });
  await expect(heading).toBeFocused();
  await expect.poll(userDatabases).toEqual([]);
  await expectAccessible(page, 'account deleted page');
  await shoot(page, 'account-deleted');

  // The other device signed out and dropped its copy too (the hub's accountDeleted).
  await expect(laptop).toHaveURL((url) => url.pathname === '/account-deleted', {
    timeout: 20_000,
  });
  await expect
    .poll(() =>
      laptop.evaluate(async () =>
        (await indexedDB.databases())
          .map((database) => database.name ?? '')
          .filter((name) => /^satchel-[0-9a-f-]{36}$/.test(name)),
      ),
    )
    .toEqual([]);
  await laptopContext.close();

  // Signed out for good: the dashboard asks for a sign-in, and the address is refused.
  await page.goto(`${e2eOrigin}/dashboard`);
  await expect(page).toHaveURL((url) => url.pathname === '/login');
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(e2ePassword);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('alert')).toContainText(/email or password|invalid/i);
  await expect(page).toHaveURL((url) => url.pathname === '/login');
});

test('a shared workspace passes to the member the owner chooses', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const ownerEmail = newEmail('olive');
  const memberEmail = newEmail('gus');
  await createConfirmedUser(request, ownerEmail, 'Olive');
  await createConfirmedUser(request, memberEmail, 'Gus');
  await signInAt(page, ownerEmail);
  await upgradeToPro(page);
  const link = await createInviteLink(page);

  const other = await browser.newContext({ baseURL: e2eOrigin });
  const member = await other.newPage();
  await signInAt(member, memberEmail);
  await member.goto(link);
  await member.getByRole('button', { name: /^Accept and open / }).click();
  await expect(member).toHaveURL((url) => url.pathname === '/dashboard');

  await page.goto(`${e2eOrigin}/settings`);
  await page.getByRole('button', { name: 'Delete account…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
  const chooser = dialog.getByRole('button', { name: /New owner of Olive's workspace/ });
  await expect(chooser).toContainText('Gus Test (member)');
  await expectAccessible(page, 'delete account dialog, shared', '[role="dialog"]');
  await shoot(page, 'account-delete-dialog-shared');
  await dialog.getByLabel('Your password').fill(e2ePassword);
  await dialog.getByRole('textbox', { name: 'Type DELETE to confirm' }).fill('DELETE');
  await dialog.getByRole('button', { name: 'Delete my account' }).click();
  await expect(page).toHaveURL((url) => url.pathname === '/account-deleted');

  // Gus owns Olive's old workspace now, alone in it (his device heard of it and pulled).
  await expect(async () => {
    await member.goto('/settings?tab=members');
    await expect(member.getByRole('button', { name: "Workspace: Olive's workspace" })).toBeVisible({
      timeout: 5_000,
    });
    const members = member.getByRole('list', { name: 'Members' });
    await expect(members.getByRole('listitem')).toHaveCount(1, { timeout: 5_000 });
    await expect(members).toContainText('Gus Test');
    await expect(members).toContainText(/owner/i);
  }).toPass({ timeout: 30_000 });
  await other.close();
});
