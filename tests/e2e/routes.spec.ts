import { expect, test } from './console-guard.ts';

const publicRoutes = [
  '/',
  '/features',
  '/pricing',
  '/faq',
  '/contact',
  '/demo',
  '/terms-of-service',
  '/privacy-policy',
  '/feedback',
  '/client-portal-demo',
  '/billing-success',
  '/billing-error',
  '/subscription/success',
  '/subscription/cancel',
  '/client-access?projectId=p1&clientId=c1',
];
const guestOnlyRoutes = [
  '/login',
  '/signup',
  '/forgot-password',
  '/reset-password',
  '/verify-email',
];
const signedInRoutes = [
  '/auth/confirm-registration',
  '/dashboard',
  '/notifications',
  '/projects',
  '/projects/p-1/c-1',
  '/projects/p-1/activity',
  '/change-requests',
  '/clients',
  '/clients/c-1',
  '/settings',
];

test.describe('every route renders', () => {
  for (const path of [...publicRoutes, ...guestOnlyRoutes]) {
    test(`${path} has a title and one main heading`, async ({ page }) => {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expect(page).toHaveTitle(/Satchel/);
    });
  }
});

test.describe('guards', () => {
  for (const path of signedInRoutes) {
    test(`${path} sends a signed-out visitor to /login with returnTo`, async ({ page }) => {
      await page.goto(`${path}?tab=files`);
      await expect(page).toHaveURL((url) => url.pathname === '/login');
      const returnTo = new URL(page.url()).searchParams.get('returnTo');
      expect(returnTo).toBe(`${path}?tab=files`);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    });
  }

  test('the portal without a session goes to the access gate with its ids', async ({ page }) => {
    await page.goto('/client/c-9/project/p-7');
    await expect(page).toHaveURL((url) => url.pathname === '/client-access');
    const search = new URL(page.url()).searchParams;
    expect(search.get('projectId')).toBe('p-7');
    expect(search.get('clientId')).toBe('c-9');
    expect(search.get('redirect')).toBe('/client/c-9/project/p-7');
  });

  test('the portal opens with a fresh session for both ids, not for another project', async ({
    page,
  }) => {
    await page.goto('/');
    await page.evaluate(() =>
      localStorage.setItem(
        'client_access_session',
        JSON.stringify({ projectId: 'p-7', clientId: 'c-9', lastActivity: Date.now() }),
      ),
    );
    await page.goto('/client/c-9/project/p-7');
    await expect(page).toHaveURL(/\/client\/c-9\/project\/p-7$/);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();

    await page.goto('/client/c-9/project/p-8');
    await expect(page).toHaveURL((url) => url.pathname === '/client-access');
  });

  test('a stale portal session (over 30 minutes) is not restored', async ({ page }) => {
    await page.goto('/');
    await page.evaluate(() =>
      localStorage.setItem(
        'client_access_session',
        JSON.stringify({
          projectId: 'p-7',
          clientId: 'c-9',
          lastActivity: Date.now() - 31 * 60_000,
        }),
      ),
    );
    await page.goto('/client/c-9/project/p-7');
    await expect(page).toHaveURL((url) => url.pathname === '/client-access');
  });

  test('an unknown path shows the not-found page with a way home', async ({ page }) => {
    const response = await page.goto('/no/such/page');
    expect(response?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1 })).toContainText(/not found|can.t find/i);
    await page.getByRole('main').getByRole('link', { name: /home/i }).first().click();
    await expect(page).toHaveURL((url) => url.pathname === '/');
  });

  test('navigating scrolls to the top', async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 640 });
    await page.goto('/');
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await page
      .getByRole('contentinfo')
      .getByRole('link', { name: /privacy/i })
      .click();
    await expect(page).toHaveURL(/privacy-policy/);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  });
});
