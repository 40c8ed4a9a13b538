import { createHash } from 'node:crypto';
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './console-guard.ts';
import { createConfirmedUser, e2eOrigin, newEmail, signInAt } from './e2e-accounts.ts';
import { openNewProject, waitForOfflineShell } from './app-locators.ts';
import { expectAccessible, shoot } from './screen-checks.ts';

test.use({
  baseURL: e2eOrigin,
  // Requests cut on purpose by going offline are logged by the browser as failed loads.
  allowedConsoleErrors: [/ERR_INTERNET_DISCONNECTED|net::ERR_FAILED/],
});

// --- A few PDFs written by hand (no PDF library in the tests) --------------------------------

/** RC4, for the standard security handler's 40-bit encryption (PDF 1.7, 7.6.2). */
function rc4(key: Buffer, data: Buffer): Buffer {
  const s = Array.from({ length: 256 }, (_, i) => i);
  let j = 0;
  for (let i = 0; i < 256; i++) {
    j = (j + s[i]! + key[i % key.length]!) & 255;
    [s[i], s[j]] = [s[j]!, s[i]!];
  }
  const out = Buffer.alloc(data.length);
  let i = 0;
  j = 0;
  for (let n = 0; n < data.length; n++) {
    i = (i + 1) & 255;
    j = (j + s[i]!) & 255;
    [s[i], s[j]] = [s[j]!, s[i]!];
    out[n] = data[n]! ^ s[(s[i]! + s[j]!) & 255]!;
  }
  return out;
}

const md5 = (...parts: Buffer[]) => createHash('md5').update(Buffer.concat(parts)).digest();
const PAD = Buffer.from('28bf4e5e4e758a4164004e56fffa01082e2e00b6d0683e802f0ca9fe6453697a', 'hex');
const padded = (password: string) =>
  Buffer.concat([Buffer.from(password, 'latin1'), PAD]).subarray(0, 32);

/**
 * A PDF of `pages` pages (a coloured band and a title on each), optionally encrypted with a user
 * password (RC4 40-bit, revision 2: every reader asks for the password to open it).
 */
function makePdf(pages: string[], userPassword?: string): Buffer {
  const id = Buffer.from('5a1c4e7f00112233445566778899aabb', 'hex');
  const permissions = -4;
  let fileKey: Buffer | null = null;
  let encrypt = '';
  if (userPassword !== undefined) {
    const ownerKey = md5(padded('owner')).subarray(0, 5);
    const o = rc4(ownerKey, padded(userPassword));
    const p = Buffer.alloc(4);
    p.writeInt32LE(permissions);
    fileKey = md5(padded(userPassword), o, p, id).subarray(0, 5);
    const u = rc4(fileKey, PAD);
    encrypt = `<< /Filter /Standard /V 1 /R 2 /O <${o.toString('hex')}> /U <${u.toString('hex')}> /P ${permissions} >>`;
  }
  const objects: string[] = [];
  const streams = new Map<number, Buffer>();
  const fontId = 3;
  objects[1] = '<< /Type /Catalog /Pages 2 0 R >>';
  const kids: string[] = [];
  pages.forEach((title, index) => {
    const pageId = 4 + index * 2;
    const contentId = pageId + 1;
    kids.push(`${pageId} 0 R`);
    objects[pageId] =
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 ${fontId} 0 R >> >> /Contents ${contentId} 0 R >>`;
    const hue = [0.6, 0.29, 0.09][index % 3];
    streams.set(
      contentId,
      Buffer.from(
        `${hue} 0.45 0.75 rg 0 742 595 100 re f 0 0 0 rg BT /F1 36 Tf 56 680 Td (${title}) Tj ET ` +
          `BT /F1 14 Tf 56 640 Td (Page ${index + 1} of ${pages.length}) Tj ET`,
        'latin1',
      ),
    );
  });
  objects[2] = `<< /Type /Pages /Kids [${kids.join(' ')}] /Count ${pages.length} >>`;
  objects[fontId] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>';
  const encryptId = objects.length + 1;
  if (fileKey) objects[encryptId] = encrypt;

  const chunks: Buffer[] = [Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let length = chunks[0]!.length;
  const offsets: number[] = [];
  const push = (buffer: Buffer) => {
    chunks.push(buffer);
    length += buffer.length;
  };
  const count = Math.max(objects.length, ...[...streams.keys()].map((key) => key + 1));
  for (let n = 1; n < count; n++) {
    offsets[n] = length;
    const stream = streams.get(n);
    if (stream) {
      const objectKey = fileKey
        ? md5(fileKey, Buffer.from([n & 255, (n >> 8) & 255, (n >> 16) & 255, 0, 0])).subarray(
            0,
            10,
          )
        : null;
      const body = objectKey ? rc4(objectKey, stream) : stream;
      push(Buffer.from(`${n} 0 obj\n<< /Length ${body.length} >>\nstream\n`, 'latin1'));
      push(body);
      push(Buffer.from('\nendstream\nendobj\n', 'latin1'));
    } else {
      push(Buffer.from(`${n} 0 obj\n${objects[n] ?? 'null'}\nendobj\n`, 'latin1'));
    }
  }
  const xref = length;
  const rows = offsets.slice(1).map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`);
  push(
    Buffer.from(
      `xref\n0 ${count}\n0000000000 65535 f \n${rows.join('')}trailer\n` +
        `<< /Size ${count} /Root 1 0 R${fileKey ? ` /Encrypt ${encryptId} 0 R` : ''} /ID [<${id.toString('hex')}> <${id.toString('hex')}>] >>\n` +
        `startxref\n${xref}\n%%EOF\n`,
      'latin1',
    ),
  );
  return Buffer.concat(chunks);
}

const pdf = (name: string, buffer: Buffer) => ({ name, mimeType: 'application/pdf', buffer });

/** How many of a canvas's pixels are neither white nor transparent: proof pdf.js drew on it. */
const inkOf = (canvas: Locator) =>
  canvas.evaluate((element: HTMLCanvasElement) => {
    const context = element.getContext('2d');
    if (!context || element.width < 2) return 0;
    const { data } = context.getImageData(0, 0, element.width, element.height);
    let ink = 0;
    for (let i = 0; i < data.length; i += 4) {
      if (data[i + 3]! > 0 && (data[i]! < 200 || data[i + 1]! < 200 || data[i + 2]! < 200)) ink++;
    }
    return ink;
  });

async function openPreview(page: Page, name: string): Promise<Locator> {
  await page
    .getByRole('list', { name: /^Files in / })
    .getByRole('button', { name, exact: true })
    .click();
  const dialog = page.getByRole('dialog', { name });
  await expect(dialog).toBeVisible();
  return dialog;
}

test('files: a PDF previews its first pages, offline too once kept; a locked or broken one says so', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const email = newEmail('pdf');
  await createConfirmedUser(request, email);
  await signInAt(page, email);
  await page.goto('/projects');
  await expect(page.getByRole('heading', { name: 'No projects yet' })).toBeVisible();
  await openNewProject(page, 'Office fit-out', 'Contoso');
  await waitForOfflineShell(page);
  // A first install takes the page it was registered from (src/sw/sw.ts).
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);

  // pdf.js is not part of what the service worker installs.
  const sw = await (await request.get('/sw.js')).text();
  expect(sw).toContain('"url":"index.html"');
  expect(sw).not.toMatch(/pdfjs-|pdf\.worker/);

  await page.getByRole('tab', { name: 'Files' }).click();
  await page
    .locator('input[type="file"]')
    .setInputFiles([
      pdf('plan.pdf', makePdf(['Floor plan', 'Lighting', 'Furniture', 'Budget'])),
      pdf('locked.pdf', makePdf(['Contract'], 'secret')),
      pdf('broken.pdf', Buffer.from('%PDF-1.7\nthis is not really a PDF at all\n')),
    ]);
  const files = page.getByRole('list', { name: /^Files in / });
  for (const name of ['plan.pdf', 'locked.pdf', 'broken.pdf']) {
    await expect(files.getByRole('button', { name, exact: true })).toBeVisible({
      timeout: 20_000,
    });
  }

  // The first three of four pages, drawn, each named for assistive technology.
  const pdfJsLoads: string[] = [];
  page.on('request', (sent) => {
    if (/\/assets\/(pdfjs-|pdf\.worker)/.test(sent.url())) pdfJsLoads.push(sent.url());
  });
  let preview = await openPreview(page, 'plan.pdf');
  const pages = preview.getByRole('img', { name: /^Page \d of 4 of plan\.pdf$/ });
  await expect(pages).toHaveCount(3, { timeout: 20_000 });
  await expect(preview.getByRole('img', { name: 'Page 1 of 4 of plan.pdf' })).toBeVisible();
  await expect(preview.getByText('The first 3 of 4 pages.', { exact: false })).toBeVisible();
  for (const index of [0, 1, 2]) {
    await expect(pages.nth(index)).toHaveAttribute('aria-busy', 'false');
    await expect.poll(() => inkOf(pages.nth(index))).toBeGreaterThan(500);
  }
  expect(pdfJsLoads.some((url) => url.includes('/assets/pdfjs-'))).toBe(true);
  expect(pdfJsLoads.some((url) => url.includes('/assets/pdf.worker'))).toBe(true);
  await shoot(page, 'files-pdf-preview');
  // The dialog only: react-aria's live announcer still holds, for its 7 s, entries labelled by an
  // element of the create-project dialog that is gone (role-img-alt), unrelated to the preview.
  await expectAccessible(page, 'pdf preview', '[role="dialog"]');
  await preview.getByRole('button', { name: 'Close' }).click();

  // The service worker kept pdf.js when it first loaded.
  await expect
    .poll(() =>
      page.evaluate(async () => {
        const cache = await caches.open('satchel-lazy-assets-v1');
        return (await cache.keys()).map((key) => new URL(key.url).pathname);
      }),
    )
    .toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^\/assets\/pdfjs-/),
        expect.stringMatching(/^\/assets\/pdf\.worker/),
      ]),
    );

  // A password-protected PDF and a damaged one: the error state with the ways out.
  preview = await openPreview(page, 'locked.pdf');
  await expect(preview.getByRole('alert')).toContainText('This PDF could not be shown.', {
    timeout: 20_000,
  });
  await expect(preview.getByRole('alert')).toContainText('protected by a password');
  await expect(preview.getByRole('button', { name: 'Open in browser' })).toBeVisible();
  await expect(preview.getByRole('img')).toHaveCount(0);
  await shoot(page, 'files-pdf-locked');
  await expectAccessible(page, 'pdf locked', '[role="dialog"]');
  await preview.getByRole('button', { name: 'Close' }).click();

  preview = await openPreview(page, 'broken.pdf');
  await expect(preview.getByRole('alert')).toContainText('damaged or is not a PDF', {
    timeout: 20_000,
  });
  await preview.getByRole('button', { name: 'Close' }).click();

  // Kept offline, the plan previews with no network after a reload: pdf.js and its worker come
  // from the service worker's cache.
  await page.getByRole('button', { name: 'Actions for plan.pdf' }).click();
  await page.getByRole('menuitem', { name: 'Keep offline' }).click();
  const planRow = page.locator('li', { has: page.getByRole('button', { name: 'plan.pdf' }) });
  await expect(planRow.getByText('Kept offline')).toBeVisible();
  await page.context().setOffline(true);
  await page.reload();
  await page.getByRole('tab', { name: 'Files' }).click();
  preview = await openPreview(page, 'plan.pdf');
  await expect(preview.getByText('Kept offline')).toBeVisible();
  await expect(preview.getByRole('img', { name: /of 4 of plan\.pdf$/ })).toHaveCount(3, {
    timeout: 20_000,
  });
  await expect
    .poll(() => inkOf(preview.getByRole('img', { name: 'Page 1 of 4 of plan.pdf' })))
    .toBeGreaterThan(500);
  await preview.getByRole('button', { name: 'Close' }).click();
  await page.context().setOffline(false);
});
