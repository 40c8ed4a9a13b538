import type { Page } from '@playwright/test';
import { expect, test } from './console-guard.ts';
import { createConfirmedUser, e2eOrigin, newEmail, signInAt } from './e2e-accounts.ts';
import { syncButton, waitForOfflineShell } from './app-locators.ts';

test.use({ baseURL: e2eOrigin });

async function addClient(page: Page, name: string): Promise<void> {
  await page.getByRole('button', { name: 'New client' }).first().click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('textbox', { name: 'Name' }).fill(name);
  await dialog.getByRole('button', { name: 'Add client' }).click();
  await expect(dialog).toBeHidden();
}

/** On /projects: the create shortcut, naming an existing client. */
async function addProject(page: Page, name: string, client: string): Promise<void> {
  await page.keyboard.press('n');
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('textbox', { name: 'Project name' }).fill(name);
  await dialog.getByRole('combobox', { name: 'Client' }).fill(client);
  await page.getByRole('option', { name: client, exact: true }).click();
  await dialog.getByRole('button', { name: 'Create project' }).click();
  await expect(dialog).toBeHidden();
}

test('offline: a client created with no network survives a reload and syncs when back online', async ({
  page,
  browser,
  request,
  consoleErrors,
}) => {
  const email = newEmail('offline');
  await createConfirmedUser(request, email);
  await signInAt(page, email);
  await expect(syncButton(page)).toHaveAccessibleName('Sync: All changes saved');
  await page.goto('/clients');
  await expect(page.getByRole('heading', { name: 'Add your first client' })).toBeVisible();
  await waitForOfflineShell(page);

  await page.context().setOffline(true);
  await expect(syncButton(page)).toHaveAccessibleName(/Offline/);
  await addClient(page, 'Acme Offline');
  await expect(page.getByRole('link', { name: /Acme Offline/ })).toBeVisible();
  await expect(syncButton(page)).toHaveAccessibleName('Sync: Offline — 1 change waiting');
  await page.getByRole('link', { name: 'Projects', exact: true }).first().click();
  await expect(page.getByRole('heading', { name: 'No projects yet' })).toBeVisible();
  await addProject(page, 'Offline Site', 'Acme Offline');
  await expect(page.getByRole('link', { name: 'Offline Site' })).toBeVisible();
  // The client, the project and its board's four default columns.
  await expect(syncButton(page)).toHaveAccessibleName('Sync: Offline — 6 changes waiting');
  await syncButton(page).click();
  await expect(page.getByRole('dialog', { name: 'Sync' })).toContainText("You're offline");
  await expect(page.getByRole('button', { name: 'Sync now' })).toBeDisabled();
  await page.keyboard.press('Escape');

  await page.reload();
  await expect(page.getByRole('link', { name: 'Offline Site' })).toBeVisible();
  await page.goto('/clients');
  await expect(page.getByRole('link', { name: /Acme Offline/ })).toBeVisible();
  await expect(syncButton(page)).toHaveAccessibleName(/Offline/);

  await page.context().setOffline(false);
  await expect(syncButton(page)).toHaveAccessibleName('Sync: All changes saved');

  // The same user on another device (a fresh browser context) gets it from the server.
  const other = await browser.newContext({ baseURL: e2eOrigin });
  const second = await other.newPage();
  await signInAt(second, email);
  await second.goto('/clients');
  await expect(second.getByRole('link', { name: /Acme Offline/ })).toBeVisible();
  await second.goto('/projects');
  await expect(second.getByRole('link', { name: 'Offline Site' })).toBeVisible();
  await other.close();

  // Requests the browser made while offline fail by design.
  const offlineNoise = /ERR_INTERNET_DISCONNECTED|Failed to fetch|status of 503/;
  consoleErrors.splice(
    0,
    consoleErrors.length,
    ...consoleErrors.filter((e) => !offlineNoise.test(e)),
  );
});

test('the leader tab closes and another tab takes over and drains the queue', async ({
  page,
  browser,
  request,
  consoleErrors,
}) => {
  const email = newEmail('leader');
  await createConfirmedUser(request, email);
  await signInAt(page, email);
  await page.goto('/clients');
  await expect(page.getByRole('heading', { name: 'Add your first client' })).toBeVisible();

  // The first tab leads; the second follows.
  const follower = await page.context().newPage();
  await follower.goto('/clients');
  await expect(follower.getByRole('heading', { name: 'Add your first client' })).toBeVisible();

  await page.context().setOffline(true);
  await addClient(follower, 'Handed Over Ltd');
  await expect(syncButton(follower)).toHaveAccessibleName(/Offline/);
  await page.close();
  await page.context().setOffline(false);
  await expect(syncButton(follower)).toHaveAccessibleName('Sync: All changes saved');

  const other = await browser.newContext({ baseURL: e2eOrigin });
  const check = await other.newPage();
  await signInAt(check, email);
  await check.goto('/clients');
  await expect(check.getByRole('link', { name: /Handed Over Ltd/ })).toBeVisible();
  await other.close();
  const offlineNoise = /ERR_INTERNET_DISCONNECTED|Failed to fetch|status of 503/;
  consoleErrors.splice(
    0,
    consoleErrors.length,
    ...consoleErrors.filter((e) => !offlineNoise.test(e)),
  );
});

test('offline: a sign-out holds through a reload, and the server ends the session once back online', async ({
  page,
  request,
  consoleErrors,
}) => {
  const email = newEmail('signout-offline');
  await createConfirmedUser(request, email);
  await signInAt(page, email);
  await expect(syncButton(page)).toHaveAccessibleName('Sync: All changes saved');
  await page
    .getByRole('dialog', { name: 'Welcome to Satchel!' })
    .getByRole('button', { name: 'Get started' })
    .click();
  await waitForOfflineShell(page);
  const token = await page.evaluate(() => {
    const key = Object.keys(localStorage).find((name) => /^sb-.+-auth-token$/.test(name));
    return (JSON.parse(localStorage.getItem(key ?? '') ?? '{}') as { access_token?: string })
      .access_token;
  });
  expect(token).toBeTruthy();
  const sessionOnServer = async () =>
    (
      await request.get('/auth/v1/user', { headers: { Authorization: `Bearer ${token}` } })
    ).status();
  expect(await sessionOnServer()).toBe(200);

  await page.context().setOffline(true);
  await expect(syncButton(page)).toHaveAccessibleName(/Offline/);
  await page.getByRole('button', { name: /^Account:/ }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(page).toHaveURL((url) => url.pathname === '/login');
  // Before, supabase-js kept the session when the server could not be told: a reload signed in again.
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sign in');
  await page.goto('/dashboard');
  await expect(page).toHaveURL((url) => url.pathname === '/login');

  await page.context().setOffline(false);
  await expect.poll(sessionOnServer).toBe(403);
  await expect
    .poll(() => page.evaluate(() => localStorage.getItem('satchel.waiting-sign-outs')))
    .toBeNull();

  // Requests the browser made while offline fail by design. A sign-out sent again once online may
  // find the session already ended (403): the page's offline emulation does not hold back every
  // request, so an earlier try can have reached the server.
  const offlineNoise = /ERR_INTERNET_DISCONNECTED|Failed to fetch|status of 503|status of 403/;
  consoleErrors.splice(
    0,
    consoleErrors.length,
    ...consoleErrors.filter((e) => !offlineNoise.test(e)),
  );
});
