import type { Page } from '@playwright/test';
import { expect, test } from './console-guard.ts';
import { createConfirmedUser, e2eOrigin, newEmail, signInAt } from './e2e-accounts.ts';

test.use({ baseURL: e2eOrigin });

const bell = (page: Page) => page.getByRole('link', { name: /^Notifications, / });

// Two devices of one user: adding members to a workspace is not built yet (no invite flow), so
// the live path is shown across devices; the hub's workspace group is the same either way.
test('a change on one device appears on the other without reload; a test notification raises the badge with one toast', async ({
  page,
  browser,
  request,
}) => {
  const email = newEmail('live');
  await createConfirmedUser(request, email);
  await signInAt(page, email);
  await page.goto('/clients');
  await expect(page.getByRole('heading', { name: 'Add your first client' })).toBeVisible();
  await expect(bell(page)).toHaveAccessibleName('Notifications, none unread');
  await page.evaluate(() => {
    (window as unknown as { noReload: boolean }).noReload = true;
  });

  const other = await browser.newContext({ baseURL: e2eOrigin });
  const laptop = await other.newPage();
  await signInAt(laptop, email);
  await laptop.goto('/clients');
  await laptop.getByRole('button', { name: 'New client' }).first().click();
  const dialog = laptop.getByRole('dialog');
  await dialog.getByRole('textbox', { name: 'Name' }).fill('Live Co');
  await dialog.getByRole('button', { name: 'Add client' }).click();
  await expect(laptop.getByRole('button', { name: 'Sync: All changes saved' })).toBeVisible();

  // The first device learns of it through the hub's tablesInvalidated and pulls.
  await expect(page.getByRole('link', { name: /Live Co/ })).toBeVisible();

  // Settings > Send test notification: the badge on both devices, one toast on each.
  await laptop.goto('/settings');
  await laptop.getByRole('button', { name: 'Send test notification' }).click();
  await expect(bell(page)).toHaveAccessibleName('Notifications, 1 unread');
  await expect(bell(laptop)).toHaveAccessibleName('Notifications, 1 unread');
  const toasts = page.getByRole('region', { name: 'Notifications' }).getByRole('status');
  await expect(toasts).toContainText('Test notification');
  await expect(toasts).toHaveCount(1);
  expect(await page.evaluate(() => (window as unknown as { noReload?: boolean }).noReload)).toBe(
    true,
  );
  await other.close();
});
