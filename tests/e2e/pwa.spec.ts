import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { expect, test } from './console-guard.ts';

test('the manifest makes the app installable', async ({ page }, testInfo) => {
  await page.goto('/');
  const manifestHref = await page.locator('link[rel="manifest"]').getAttribute('href');
  expect(manifestHref).toBeTruthy();
  const manifest = (await (await page.request.get(manifestHref!)).json()) as Record<
    string,
    unknown
  >;
  expect(manifest).toMatchObject({
    name: 'Satchel',
    short_name: 'Satchel',
    start_url: '/dashboard',
    display: 'standalone',
  });
  const icons = manifest.icons as { sizes: string; purpose?: string }[];
  expect(icons.map((i) => i.sizes)).toEqual(expect.arrayContaining(['192x192', '512x512']));
  expect(icons.some((i) => i.purpose?.includes('maskable'))).toBe(true);

  // Playwright's contexts are incognito, where Chromium never offers installation; a persistent
  // profile is what a real user has.
  const userDataDir = await mkdtemp(path.join(tmpdir(), 'satchel-install-'));
  const { launchOptions, baseURL } = testInfo.project.use;
  const context = await chromium.launchPersistentContext(userDataDir, {
    ...launchOptions,
    baseURL: baseURL ?? '',
  });
  try {
    const installPage = context.pages()[0] ?? (await context.newPage());
    await installPage.goto('/');
    await installPage.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
    const cdp = await context.newCDPSession(installPage);
    const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as {
      installabilityErrors: { errorId: string }[];
    };
    expect(installabilityErrors).toEqual([]);
  } finally {
    await context.close();
    await rm(userDataDir, { recursive: true, force: true });
  }
});

test('a visited route reloads offline from the service worker', async ({
  page,
  context,
  consoleErrors,
}) => {
  // A reader who never engages: the app does not start, yet the page keeps the public config
  // that the app needs to start offline later.
  await page.goto('/pricing');
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await expect
    .poll(() => page.evaluate(() => localStorage.getItem('satchel.public-config')))
    .toContain('supabaseAnonKey');
  await expect(page.locator('#prerendered')).toBeVisible();
  // The first load is not yet controlled; a reload puts the page under the service worker.
  await page.reload();
  await expect
    .poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null))
    .toBe(true);

  await context.setOffline(true);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.goto('/features');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page).toHaveTitle(/Satchel/);
  await context.setOffline(false);
  // Requests that failed because we were offline are expected here, nothing else.
  consoleErrors.splice(
    0,
    consoleErrors.length,
    ...consoleErrors.filter((e) => !/net::ERR_INTERNET_DISCONNECTED|Failed to fetch/.test(e)),
  );
});

test('the server never falls back to the app for API paths', async ({ request }) => {
  const response = await request.get('/api/nothing', { headers: { Accept: 'text/html' } });
  expect(response.status()).toBe(404);
  expect(((await response.json()) as { error: { code: string } }).error.code).toBe(
    'UNKNOWN_ENDPOINT',
  );
});
