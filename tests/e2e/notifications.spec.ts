import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './console-guard.ts';
import { createConfirmedUser, e2eOrigin, e2ePassword, newEmail, signInAt } from './e2e-accounts.ts';

// Pages run on http://localhost:<port>, the server's PUBLIC_URL origin: the hub checks the
// WebSocket's Origin against it (and auth.spec.ts explains the rest).
const origin = e2eOrigin;
const password = e2ePassword;

test.use({ baseURL: origin });

async function anonKey(request: APIRequestContext): Promise<string> {
  const config = (await (await request.get('/api/config?endpoint=get-public-config')).json()) as {
    supabaseAnonKey: string;
  };
  return config.supabaseAnonKey;
}

/** The user's API token from a password sign-in: their "other device". */
async function accessTokenOf(request: APIRequestContext, email: string): Promise<string> {
  const key = await anonKey(request);
  const response = await request.post('/auth/v1/token?grant_type=password', {
    headers: { apikey: key, Authorization: `Bearer ${key}` },
    data: { email, password },
  });
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { access_token: string }).access_token;
}

async function sendTestNotification(request: APIRequestContext, token: string): Promise<void> {
  const response = await request.post('/api/notifications?endpoint=send-test-notification', {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(response.status()).toBe(201);
}

async function signIn(page: Page, email: string): Promise<void> {
  await signInAt(page, email);
  const welcome = page.getByRole('dialog', { name: /^Welcome to Satchel/ });
  await welcome.getByRole('button', { name: 'Get started' }).click();
  await expect(welcome).toBeHidden();
}

const bell = (page: Page) => page.getByRole('link', { name: /^Notifications, / });

test('a notification for one user arrives live in their bell, toast and list, and nowhere else', async ({
  page,
  browser,
  playwright,
}) => {
  const request = await playwright.request.newContext({ baseURL: origin });
  const emailA = newEmail('alice');
  const emailB = newEmail('bruno');
  await createConfirmedUser(request, emailA, 'Alice');
  await createConfirmedUser(request, emailB, 'Bruno');

  // A in a second browser context, with its own console check.
  const contextA = await browser.newContext({ baseURL: origin });
  const pageA = await contextA.newPage();
  const errorsA: string[] = [];
  pageA.on('console', (message) => {
    if (message.type() === 'error') errorsA.push(message.text());
  });
  pageA.on('pageerror', (error) => errorsA.push(error.message));
  await signIn(pageA, emailA);
  await signIn(page, emailB);

  // B opens /notifications from the bell; once live (no connection notice), B is in the hub.
  await bell(page).click();
  await expect(page).toHaveURL((url) => url.pathname === '/notifications');
  await expect(page.getByText('You’re all caught up')).toBeVisible();
  await expect(page.getByText(/Connecting for live updates|Reconnecting/)).toHaveCount(0);
  await expect(bell(page)).toHaveAccessibleName('Notifications, none unread');
  // Anything that reloads the page would lose this.
  await page.evaluate(() => {
    (window as unknown as { noReload: boolean }).noReload = true;
  });

  const tokenB = await accessTokenOf(request, emailB);
  await sendTestNotification(request, tokenB);

  await expect(bell(page)).toHaveAccessibleName('Notifications, 1 unread');
  await expect(page.getByTestId('notification-badge')).toHaveText('1');
  const toast = page.getByRole('region', { name: 'Notifications' }).getByRole('status');
  await expect(toast).toContainText('Test notification');
  const item = page.getByRole('listitem').filter({ hasText: 'Test notification' });
  await expect(item).toHaveCount(1);
  await expect(item).toHaveAttribute('data-unread', 'true');
  await expect(page.getByText('1 unread', { exact: true })).toBeVisible();

  // Away from the page, the bell still counts live.
  await page
    .getByRole('navigation', { name: 'App' })
    .first()
    .getByRole('link', { name: 'Dashboard' })
    .click();
  await expect(page).toHaveURL((url) => url.pathname === '/dashboard');
  await sendTestNotification(request, tokenB);
  await expect(bell(page)).toHaveAccessibleName('Notifications, 2 unread');

  // Back on the list: both are there; marking all read clears the badge.
  await bell(page).click();
  await expect(page.getByRole('listitem').filter({ hasText: 'Test notification' })).toHaveCount(2);
  await page.getByRole('button', { name: 'Mark all as read' }).click();
  await expect(bell(page)).toHaveAccessibleName('Notifications, none unread');
  await expect(page.getByTestId('notification-badge')).toHaveCount(0);
  await expect(page.locator('li[data-unread]')).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { noReload?: boolean }).noReload)).toBe(
    true,
  );

  // A, signed in all along, got nothing.
  await expect(bell(pageA)).toHaveAccessibleName('Notifications, none unread');
  await pageA.getByRole('link', { name: /^Notifications, / }).click();
  await expect(pageA.getByText('You’re all caught up')).toBeVisible();
  expect(errorsA, 'console errors of A').toEqual([]);

  await contextA.close();
  await request.dispose();
});
