import type { Page } from '@playwright/test';
import { expect, test } from './console-guard.ts';
import { createConfirmedUser, e2eOrigin, newEmail, signInAt } from './e2e-accounts.ts';
import { openNewProject, waitForOfflineShell } from './app-locators.ts';
import { expectAccessible, shoot } from './screen-checks.ts';

test.use({
  baseURL: e2eOrigin,
  // Requests cut on purpose by going offline are logged by the browser as failed loads.
  allowedConsoleErrors: [/ERR_INTERNET_DISCONNECTED|net::ERR_FAILED/],
});

const pickFiles = (page: Page, files: { name: string; mimeType: string; buffer: Buffer }[]) =>
  page.locator('input[type="file"]').setInputFiles(files);

const BIG = 4 * 1024 * 1024;

/** At phone width the page never scrolls sideways. */
async function expectNoSidewaysScroll(page: Page): Promise<void> {
  await page.setViewportSize({ width: 360, height: 780 });
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth))
    .toBeLessThanOrEqual(360);
  await page.setViewportSize({ width: 1280, height: 860 });
}

test('files: upload with progress, survive going offline mid-way, keep a file and open it offline', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const email = newEmail('files');
  await createConfirmedUser(request, email);
  await signInAt(page, email);
  await page.goto('/projects');
  await expect(page.getByRole('heading', { name: 'No projects yet' })).toBeVisible();
  await openNewProject(page, 'Brand refresh', 'Northwind');
  await waitForOfflineShell(page);

  await page.getByRole('tab', { name: 'Files' }).click();
  await expect(page).toHaveURL(/tab=files/);
  await expect(page.getByText('No files in Brand refresh yet')).toBeVisible();
  await shoot(page, 'files-empty');
  await expectAccessible(page, 'empty');

  // A small file: its progress bar, then its row once the server wrote it and sync pulled it.
  await pickFiles(page, [
    {
      name: 'brief.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('Kick-off on Monday.\nDeliver the logo in three sizes.\n'),
    },
  ]);
  const files = page.getByRole('list', { name: 'Files in All files' });
  await expect(files.getByRole('button', { name: 'brief.txt', exact: true })).toBeVisible({
    timeout: 20_000,
  });
  await expect(page.getByRole('progressbar', { name: 'Upload of brief.txt' })).toHaveCount(0);

  // A few MiB on a slow uplink, so the connection drops part way through.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 20,
    downloadThroughput: 10 * 1024 * 1024,
    uploadThroughput: 512 * 1024,
  });
  const offsets: number[] = [];
  page.on('response', (response) => {
    if (response.request().method() === 'HEAD' && response.url().includes('/files/uploads/')) {
      offsets.push(Number(response.headers()['upload-offset']));
    }
  });
  await pickFiles(page, [
    { name: 'site-photos.zip', mimeType: 'application/zip', buffer: Buffer.alloc(BIG, 7) },
  ]);
  const bar = page.getByRole('progressbar', { name: 'Upload of site-photos.zip' });
  await expect(bar).toHaveAttribute('aria-valuetext', /Uploading \d+ %/);
  await expect
    .poll(async () => Number(await bar.getAttribute('aria-valuenow')), { timeout: 20_000 })
    .toBeGreaterThanOrEqual(15);
  await shoot(page, 'files-uploading');

  await page.context().setOffline(true);
  await expect(bar).toHaveAttribute('aria-valuetext', /Waiting for the network/);
  await expect(page.getByText(/You're offline/)).toBeVisible();
  await shoot(page, 'files-offline-upload');
  await expectAccessible(page, 'offline upload');

  await page.context().setOffline(false);
  await expect(files.getByRole('button', { name: 'site-photos.zip', exact: true })).toBeVisible({
    timeout: 30_000,
  });
  await expect(bar).toHaveCount(0);
  // It resumed where the server had got to, not from the first byte.
  expect(offsets.some((offset) => offset > 0 && offset < BIG)).toBe(true);
  await cdp.detach();

  // An image gets a thumbnail (through an inline signed link) in the grid.
  await pickFiles(page, [
    {
      name: 'swatch.png',
      mimeType: 'image/png',
      buffer: Buffer.from(
        'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
        'base64',
      ),
    },
  ]);
  await expect(files.getByRole('button', { name: 'swatch.png', exact: true })).toBeVisible({
    timeout: 20_000,
  });
  await page.getByRole('radio', { name: 'Grid' }).click();
  const thumbnail = page
    .locator('li', { has: page.getByRole('button', { name: 'swatch.png' }) })
    .locator('img');
  await expect
    .poll(() => thumbnail.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
    .toBe(1);
  await shoot(page, 'files-grid');
  await expectAccessible(page, 'grid');
  await page.getByRole('radio', { name: 'List' }).click();

  // Keep the brief offline, then open it with no network.
  await page.getByRole('button', { name: 'Actions for brief.txt' }).click();
  await page.getByRole('menuitem', { name: 'Keep offline' }).click();
  const briefRow = page.locator('li', { has: page.getByRole('button', { name: 'brief.txt' }) });
  await expect(briefRow.getByText('Kept offline')).toBeVisible();
  await expectNoSidewaysScroll(page);
  await shoot(page, 'files-list');
  await expectAccessible(page, 'list');

  await page.context().setOffline(true);
  await files.getByRole('button', { name: 'brief.txt', exact: true }).click();
  const preview = page.getByRole('dialog', { name: 'brief.txt' });
  await expect(preview.getByLabel('Beginning of brief.txt')).toContainText('Kick-off on Monday.');
  await expect(preview.getByText('Kept offline')).toBeVisible();
  await shoot(page, 'files-preview-offline');
  await expectAccessible(page, 'preview', 'body');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    preview.getByRole('button', { name: 'Download' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('brief.txt');
  const saved = await download.path();
  expect(saved).toBeTruthy();
  await preview.getByRole('button', { name: 'Close' }).click();
  // The zip is not kept: offline it cannot be downloaded, and the button says so by being off.
  await expect(page.getByRole('button', { name: 'Download site-photos.zip' })).toBeDisabled();
  await page.context().setOffline(false);

  // Online, a file not kept downloads through a signed link.
  const [online] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download site-photos.zip' }).click(),
  ]);
  expect(online.suggestedFilename()).toBe('site-photos.zip');

  // The client's page lists the project's files.
  await page.getByRole('link', { name: 'Northwind' }).first().click();
  await expect(page.getByRole('heading', { level: 1, name: 'Northwind' })).toBeVisible();
  const clientFiles = page.getByRole('list', { name: 'Files of Northwind' });
  await expect(clientFiles.getByText('site-photos.zip')).toBeVisible();
  await expect(clientFiles.getByText('brief.txt')).toBeVisible();
  await expectNoSidewaysScroll(page);
  await shoot(page, 'files-client');
  await expectAccessible(page, 'client');

  // Settings > Storage: the workspace's use and the kept copy, which can be freed.
  await page.goto('/settings?tab=storage');
  await expect(page.getByRole('meter', { name: 'File storage used' })).toBeVisible();
  await expect(page.getByText(/1 file kept,/)).toBeVisible();
  await expectNoSidewaysScroll(page);
  await shoot(page, 'files-settings-storage');
  await expectAccessible(page, 'settings');
  await page.getByRole('button', { name: 'Free space of Brand refresh' }).click();
  await expect(page.getByText(/No file is kept on this device/)).toBeVisible();
});

test('files: a file picked offline is sent after a reload, from the dashboard, with no files screen open', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const email = newEmail('files-resume');
  await createConfirmedUser(request, email);
  await signInAt(page, email);
  await page.goto('/projects');
  await expect(page.getByRole('heading', { name: 'No projects yet' })).toBeVisible();
  await openNewProject(page, 'Launch kit', 'Contoso');
  await waitForOfflineShell(page);
  await page.getByRole('tab', { name: 'Files' }).click();
  await expect(page.getByText('No files in Launch kit yet')).toBeVisible();
  const projectUrl = page.url();

  await page.context().setOffline(true);
  await pickFiles(page, [
    { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('Picked on the train.\n') },
  ]);
  await expect(page.getByRole('progressbar', { name: 'Upload of notes.txt' })).toHaveAttribute(
    'aria-valuetext',
    /Waiting for the network/,
  );

  // A reload that lands on the dashboard, still offline: the upload waits on the device.
  await page.goto('/dashboard');
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();

  // Back online, the dashboard sends it: the app shell resumes the device's upload queue.
  const sent = page.waitForResponse(
    (response) =>
      response.url().includes('/files/uploads/') &&
      response.request().method() === 'PATCH' &&
      response.status() === 204,
    { timeout: 30_000 },
  );
  await page.context().setOffline(false);
  await sent;
  await expect(page).toHaveURL(/\/dashboard/);
  // The runner records the finished upload on the device just after the PATCH's answer. Leaving
  // the page before that write lands makes the next page resume an upload the server has already
  // finished and forgotten: its HEAD is a 404 (logged by the browser), then the runner starts over.
  await expect.poll(() => everyUploadDone(page), { timeout: 20_000 }).toBe(true);

  await page.goto(projectUrl);
  const files = page.getByRole('list', { name: 'Files in All files' });
  await expect(files.getByRole('button', { name: 'notes.txt', exact: true })).toBeVisible({
    timeout: 20_000,
  });
  await expect(page.getByRole('progressbar', { name: 'Upload of notes.txt' })).toHaveCount(0);
});

/** Every entry of the device's upload queue has the server's file id (or the queue is empty). */
function everyUploadDone(page: Page): Promise<boolean> {
  return page.evaluate(async () => {
    const name = (await indexedDB.databases())
      .map((db) => db.name ?? '')
      .find((candidate) => candidate.startsWith('satchel-'));
    if (!name) return false;
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open(name);
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(new Error(request.error?.message ?? 'IndexedDB error'));
    });
    try {
      const rows = await new Promise<unknown[]>((resolve, reject) => {
        const request = db.transaction('uploads').objectStore('uploads').getAll();
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(new Error(request.error?.message ?? 'IndexedDB error'));
      });
      return rows.every((row) => (row as { fileId: string | null }).fileId !== null);
    } finally {
      db.close();
    }
  });
}
