import { readFile } from 'node:fs/promises';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { expect, test } from './console-guard.ts';
import { openNewProject, syncButton } from './app-locators.ts';
import { createConfirmedUser, e2eOrigin, newEmail, signInAt } from './e2e-accounts.ts';
import { expectAccessible, shoot } from './screen-checks.ts';

test.use({ baseURL: e2eOrigin });

async function pdfText(path: string): Promise<string> {
  const data = new Uint8Array(await readFile(path));
  const pdf = await getDocument({ data, isEvalSupported: false }).promise;
  const parts: string[] = [];
  for (let page = 1; page <= pdf.numPages; page += 1) {
    const content = await (await pdf.getPage(page)).getTextContent();
    for (const item of content.items) if ('str' in item) parts.push(item.str);
  }
  await pdf.destroy();
  return parts.join(' ').replace(/\s+/g, ' ');
}

test('invoice PDF: the member downloads a sent invoice as Invoice-0001.pdf; offline it says it needs the network and Print stays', async ({
  page,
  request,
}) => {
  test.setTimeout(150_000);
  const email = newEmail('invoice-pdf');
  await createConfirmedUser(request, email);
  await signInAt(page, email);
  await page.goto('/projects');
  await expect(page.getByRole('heading', { name: 'No projects yet' })).toBeVisible();
  await openNewProject(page, 'Harbour site', 'Fjord Foods');

  await page.goto('/invoices');
  await page.getByRole('button', { name: 'New invoice' }).first().click();
  const sheet = page.getByRole('dialog', { name: 'New invoice' });
  await sheet.getByRole('button', { name: 'Create draft' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Draft invoice' })).toBeFocused();
  await page.getByRole('button', { name: 'Add line' }).click();
  // The line is written to the device first; focus reaches its field when the row is drawn.
  await expect(page.getByRole('textbox', { name: 'Description, line 1' })).toBeFocused();
  await page.keyboard.type('Landing page design');
  await page.getByRole('textbox', { name: 'Qty, line 1' }).fill('3');
  await page.getByRole('textbox', { name: 'Price (USD), line 1' }).fill('450');
  await page.getByRole('textbox', { name: 'Description, line 1' }).click();
  await expect(page.locator('dl').last()).toContainText('$1,350.00');
  await expect(syncButton(page)).toHaveAccessibleName('Sync: All changes saved', {
    timeout: 30_000,
  });

  // A draft's PDF says Draft.
  const draftDownload = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download PDF' }).click();
  const draft = await draftDownload;
  expect(draft.suggestedFilename()).toBe('Invoice-draft.pdf');
  expect(await pdfText(await draft.path())).toContain('Draft');

  await page.getByRole('button', { name: 'Send invoice' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'INV-0001' })).toBeVisible({
    timeout: 20_000,
  });
  await expect(page.getByRole('button', { name: 'Print' })).toBeVisible();
  await shoot(page, 'invoice-pdf-buttons');
  await expectAccessible(page, 'invoice with PDF and Print');

  const downloaded = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download PDF' }).click();
  const download = await downloaded;
  expect(download.suggestedFilename()).toBe('Invoice-0001.pdf');
  const path = await download.path();
  expect((await readFile(path)).subarray(0, 5).toString('latin1')).toBe('%PDF-');
  const text = await pdfText(path);
  for (const piece of ['INV-0001', 'Landing page design', '$450.00', '$1,350.00', 'Balance due']) {
    expect(text).toContain(piece);
  }

  // Offline: the PDF needs the server, Print does not.
  await page.context().setOffline(true);
  await expect(page.getByRole('button', { name: 'Download PDF' })).toBeDisabled();
  await expect(page.getByText('The PDF needs a connection; Print works offline.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Print' })).toBeEnabled();
  await page.emulateMedia({ media: 'print' });
  await expect(page.getByRole('button', { name: 'Print' })).toBeHidden();
  await expect(page.getByRole('navigation', { name: 'App' }).first()).toBeHidden();
  await expect(page.getByText('Landing page design').first()).toBeVisible();
  await shoot(page, 'invoice-print');
  await page.emulateMedia({ media: 'screen' });
  await page.context().setOffline(false);
});
