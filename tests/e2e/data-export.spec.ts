/**
 * Settings > Data in the real app, signed in: the export downloads a zip made on the device whose
 * workspace.json holds a client made in this test (and whose CSV escapes its formula-looking
 * company), and a 3-row CSV with one bad row imports the 2 good clients and names the bad row.
 * Screens at 1280 and 360 px in light and dark when SCREENSHOT_DIR is set.
 */
import { readFile } from 'node:fs/promises';
import { strFromU8, unzipSync } from 'fflate';
import { expect, test } from './console-guard.ts';
import { createConfirmedUser, e2eOrigin, newEmail, signInAt } from './e2e-accounts.ts';
import { expectAccessible, shoot } from './screen-checks.ts';

test.use({ baseURL: e2eOrigin });

test('export downloads the workspace as a zip; a CSV import adds the good rows and names the bad one', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const email = newEmail('data');
  await createConfirmedUser(request, email);
  await signInAt(page, email);

  await page.goto('/clients');
  await page.getByRole('button', { name: 'New client' }).first().click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('textbox', { name: 'Name' }).fill('Export Probe Co');
  await dialog.getByRole('textbox', { name: 'Company' }).fill('=HYPERLINK("http://evil")');
  await dialog.getByRole('button', { name: 'Add client' }).click();
  await expect(dialog).toBeHidden();

  await page.goto('/settings?tab=data');
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Export your data' })).toBeVisible();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export workspace' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^satchel-[a-z0-9-]+-\d{4}-\d{2}-\d{2}\.zip$/);
  await expect(page.getByText(/Exported \d+ records?/)).toBeVisible();
  const zip = unzipSync(new Uint8Array(await readFile(await download.path())));
  const json = JSON.parse(strFromU8(zip['workspace.json']!)) as {
    entities: Record<string, { name: string; company: string | null }[]>;
  };
  expect(json.entities.client?.map((client) => client.name)).toContain('Export Probe Co');
  expect(strFromU8(zip['csv/clients.csv']!)).toContain(`'=HYPERLINK(""http://evil"")`);
  await expectAccessible(page, 'settings data after export');

  await page.locator('input[type="file"]').setInputFiles({
    name: 'clients.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(
      'Name,Email,Status\nImported Ada,ada@example.com,lead\nBroken Row,not-an-email,active\nImported Grace,,\n',
    ),
  });
  await expect(page.getByRole('region', { name: /Preview of the first 3 rows/ })).toBeVisible();
  const problems = page.getByRole('table', { name: 'Problems by row' });
  await expect(problems.getByRole('row').nth(1)).toContainText('3EmailEnter a valid email address');
  await expectAccessible(page, 'settings data import preview');
  await shoot(page, 'settings-data-import-preview');

  await page.getByRole('button', { name: 'Import 2 clients' }).click();
  await expect(page.getByText('Imported 2 clients from clients.csv')).toBeVisible();
  await expect(page.getByText(/Skipped row 3/)).toBeVisible();
  await shoot(page, 'settings-data-import-done');

  await page.goto('/clients');
  await expect(page.getByRole('link', { name: /Imported Ada/ })).toBeVisible();
  await expect(page.getByRole('link', { name: /Imported Grace/ })).toBeVisible();
  await expect(page.getByRole('link', { name: /Broken Row/ })).toHaveCount(0);
});
