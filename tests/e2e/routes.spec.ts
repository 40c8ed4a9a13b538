import { expect, test } from './console-guard.ts';
import { createConfirmedUser, newEmail, signInAt } from './e2e-accounts.ts';

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
  '/calendar',
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

  test('app routes with dynamic segments answer 200, a path beside them 404', async ({
    request,
  }) => {
    for (const path of [
      '/projects/p-1/c-1',
      '/projects/p-1/activity',
      '/clients/c-1',
      '/pricing',
    ]) {
      const response = await request.get(path, { headers: { Accept: 'text/html' } });
      expect(response.status(), path).toBe(200);
    }
    for (const path of ['/projects/p-1', '/clients/c-1/edit', '/pricing/extra']) {
      const response = await request.get(path, { headers: { Accept: 'text/html' } });
      expect(response.status(), path).toBe(404);
      expect(await response.text(), path).toContain('Page not found');
    }
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

  test('after a navigation focus is on the new page heading, from a link or the keyboard', async ({
    page,
    request,
  }) => {
    const email = newEmail('focus');
    await createConfirmedUser(request, email);
    await signInAt(page, email);
    await page
      .getByRole('dialog', { name: 'Welcome to Satchel!' })
      .getByRole('button', { name: 'Get started' })
      .click();
    const nav = page.getByRole('navigation', { name: 'App' });
    await nav.getByRole('link', { name: 'Clients' }).focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { level: 1, name: 'Clients' })).toBeFocused();
    await nav.getByRole('link', { name: 'Settings' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeFocused();
    // A tab is a search change: focus stays with the tab the user chose.
    await page.getByRole('tab', { name: 'Data' }).click();
    await expect(page.getByRole('tab', { name: 'Data' })).toBeFocused();
    await nav.getByRole('link', { name: 'Dashboard' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeFocused();
  });
});

test.describe('not found', () => {
  // Chromium logs the 404 of the page itself as a console error; nothing else may fail.
  test.use({ allowedConsoleErrors: [/status of 404 .* at http:\/\/[^/]+\/no\/such\/page$/] });

  test('an unknown path answers 404 with the not-found page, and the app boots on it', async ({
    page,
  }) => {
    const response = await page.goto('/no/such/page');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 })).toContainText(/not found|can.t find/i);
    // The live app has taken over: its search answers and the path's suggestions are shown.
    await page.getByRole('searchbox', { name: 'Search the site' }).fill('pricing');
    await expect(page.getByRole('list', { name: 'Search results' })).toContainText('Pricing');
    await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1);
    await page.getByRole('main').getByRole('link', { name: /home/i }).first().click();
    await expect(page).toHaveURL((url) => url.pathname === '/');
  });
});
