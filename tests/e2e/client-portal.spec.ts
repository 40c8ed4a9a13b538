import { readFile } from 'node:fs/promises';
import { expect, test } from './console-guard.ts';
import { createConfirmedUser, e2eOrigin, newEmail, signInAt } from './e2e-accounts.ts';
import { waitForOfflineShell } from './app-locators.ts';
import { projectWithMilestoneAndFile } from './portal-setup.ts';
import { expectAccessible, shoot } from './screen-checks.ts';

test.use({
  baseURL: e2eOrigin,
  // A wrong password is answered 401, and the offline reload's calls fail: the browser logs both.
  allowedConsoleErrors: [/status of 401/, /Failed to fetch|ERR_INTERNET_DISCONNECTED/],
});

test('client portal: a member turns it on with a password, the client enters, sees milestones and files, downloads one, and re-opens it offline', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(150_000);
  const email = newEmail('portal');
  await createConfirmedUser(request, email);
  await signInAt(page, email);
  const content = 'Print-ready shop front, final.\n';
  await projectWithMilestoneAndFile(
    page,
    { name: 'handover.txt', content },
    { title: 'Sketches', amount: '1200' },
  );

  // The member: turn the portal on with a password, and copy its link.
  await page.getByRole('button', { name: 'Client portal…' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('textbox', { name: 'Portal link' })).toBeVisible();
  await dialog.getByLabel('Password', { exact: true }).fill('blue lagoon 42');
  await dialog.getByRole('button', { name: 'Set password and turn on' }).click();
  await expect(dialog.getByRole('switch', { name: 'Portal on' })).toBeChecked();
  const link = await dialog.getByRole('textbox', { name: 'Portal link' }).inputValue();
  expect(link).toMatch(/\/client\/[0-9a-f-]{36}\/project\/[0-9a-f-]{36}$/);
  await shoot(page, 'portal-access-dialog');
  await expectAccessible(page, 'portal access dialog', '[role="dialog"]');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  // The client: another browser, no account.
  const clientContext = await browser.newContext({ acceptDownloads: true });
  const client = await clientContext.newPage();
  const portalPath = new URL(link).pathname;
  await client.goto(portalPath);
  await expect(client).toHaveURL((url) => url.pathname === '/client-access');
  await expect(client.getByRole('heading', { level: 1, name: 'Client access' })).toBeFocused();
  await shoot(client, 'portal-gate');
  await expectAccessible(client, 'portal gate');
  await client.getByLabel('Password', { exact: true }).fill('not it');
  await client.getByRole('button', { name: 'Open my project' }).click();
  await expect(client.getByText('Invalid password')).toBeVisible();
  await client.getByLabel('Password', { exact: true }).fill('blue lagoon 42');
  await client.keyboard.press('Enter');
  await expect(client).toHaveURL((url) => url.pathname === portalPath);
  const heading = client.getByRole('heading', { level: 1, name: 'Shop front' });
  await expect(heading).toBeFocused();
  await expect(client.getByText('Up to date')).toBeVisible();
  const milestones = client.getByRole('region', { name: 'Milestones' });
  await expect(milestones.getByRole('heading', { level: 3, name: 'Sketches' })).toBeVisible();
  await expect(client.getByText('Acme Bakery', { exact: false }).first()).toBeVisible();
  await shoot(client, 'portal-project');
  await expectAccessible(client, 'portal project');

  const downloading = client.waitForEvent('download');
  await client.getByRole('button', { name: 'Download handover.txt' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('handover.txt');
  expect(await readFile(await download.path(), 'utf8')).toBe(content);

  // The session kept but no copy of the project on the device: the page paints the project from
  // this load's answers and starts the live portal at the client's first engagement; a press on
  // the painted copy before that is pressed again on the live page.
  await client.evaluate(() => {
    for (const key of Object.keys(localStorage)) {
      if (key.startsWith('satchel-portal-snapshot:')) localStorage.removeItem(key);
    }
  });
  await client.reload();
  const painted = client.locator('[data-copy-painted]');
  await expect(painted.getByText('Up to date')).toBeVisible();
  // Nothing has engaged yet: the copy stays (the live portal took its place within a frame or two
  // before).
  await client.waitForTimeout(1_500);
  await expect(painted).toHaveCount(1);
  await shoot(client, 'portal-project-copy');
  await expectAccessible(client, 'portal project copy');
  await expect(painted).toHaveCount(1);
  await client.getByRole('button', { name: 'Ask for a change' }).click();
  await expect(client.getByLabel('What would you like to change?')).toBeFocused();
  await expect(painted).toHaveCount(0);

  // The member hears of the client's first visit of the day.
  await page.goto('/notifications');
  await expect(page.getByText('Your client opened the portal of Shop front')).toBeVisible();

  // Offline: the portal re-opens from the device, as of when it was last seen.
  await waitForOfflineShell(client);
  await clientContext.setOffline(true);
  await client.reload();
  await expect(client.getByRole('heading', { level: 1, name: 'Shop front' })).toBeVisible();
  await expect(client.getByText(/You’re offline\. Showing your project as of/)).toBeVisible();
  await expect(milestones.getByRole('heading', { level: 3, name: 'Sketches' })).toBeVisible();
  await shoot(client, 'portal-project-offline');

  // Offline with the session ended (30 minutes without activity): the gate cannot check the
  // password, so it offers the copy kept on the device, read-only, instead of a dead end.
  await client.evaluate(() => {
    const session = JSON.parse(localStorage.getItem('client_access_session') ?? '{}') as object;
    localStorage.setItem(
      'client_access_session',
      JSON.stringify({ ...session, lastActivity: Date.now() - 31 * 60_000 }),
    );
  });
  await client.reload();
  await expect(client).toHaveURL((url) => url.pathname === '/client-access');
  await expect(client.getByRole('region', { name: 'You’re offline' })).toContainText('Shop front');
  await shoot(client, 'portal-gate-offline');
  await expectAccessible(client, 'portal gate offline');
  await client.getByRole('button', { name: 'Read the saved copy' }).click();
  await expect(client.getByRole('heading', { level: 1, name: 'Shop front' })).toBeFocused();
  await expect(client.getByText(/You’re offline and signed out: reading the copy/)).toBeVisible();
  await expect(milestones.getByRole('heading', { level: 3, name: 'Sketches' })).toBeVisible();
  await expect(client.getByRole('button', { name: 'Ask for a change' })).toHaveCount(0);
  await shoot(client, 'portal-saved-copy-offline');
  await expectAccessible(client, 'portal saved copy offline');
  // Back online, the password is asked for again.
  await clientContext.setOffline(false);
  await expect(client.getByRole('heading', { level: 1, name: 'Client access' })).toBeVisible();

  // The member rotates the password: the client's next call sends them back to the gate.
  await page.goBack();
  await page.getByRole('button', { name: 'Client portal…' }).click();
  await dialog.getByLabel('New password', { exact: true }).fill('a brand new one');
  await dialog.getByRole('button', { name: 'Change password' }).click();
  await expect(dialog.getByText(/Password changed\./)).toBeVisible();
  await client.reload();
  await expect(client).toHaveURL((url) => url.pathname === '/client-access');

  // Leave portal from a fresh session forgets everything on the device.
  await client.getByLabel('Password', { exact: true }).fill('a brand new one');
  await client.keyboard.press('Enter');
  await expect(client.getByRole('heading', { level: 1, name: 'Shop front' })).toBeVisible();
  await client.getByRole('button', { name: 'Leave portal' }).click();
  await expect(client).toHaveURL((url) => url.pathname === '/client-access');
  expect(await client.evaluate(() => localStorage.getItem('client_access_session'))).toBeNull();
  await clientContext.close();
});
