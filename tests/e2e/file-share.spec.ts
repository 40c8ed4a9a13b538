import { readFile } from 'node:fs/promises';
import { expect, test } from './console-guard.ts';
import { createConfirmedUser, e2eOrigin, newEmail, signInAt } from './e2e-accounts.ts';
import { openNewProject, waitForOfflineShell } from './app-locators.ts';
import { expectAccessible, shoot } from './screen-checks.ts';
import { upgradeToPro, useFakeStripe } from './team-setup.ts';

test.use({
  baseURL: e2eOrigin,
  // A wrong password and a turned-off link are answered 401 and 403; the browser logs both.
  allowedConsoleErrors: [/status of 40[13]/],
});

useFakeStripe();

test('share links: on Free the dialog offers the portal and the upgrade; on Pro a member shares a file with a password and a cap, a stranger downloads it, the activity counts it, turning it off ends it', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const email = newEmail('share');
  await createConfirmedUser(request, email);
  await signInAt(page, email);
  await page.goto('/projects');
  await expect(page.getByRole('heading', { name: 'No projects yet' })).toBeVisible();
  await openNewProject(page, 'Logo hand-over', 'Northwind');
  await waitForOfflineShell(page);
  await page.getByRole('tab', { name: 'Files' }).click();
  const content = 'Final logo, all sizes.\n';
  await page
    .locator('input[type="file"]')
    .setInputFiles([
      { name: 'final-logo.txt', mimeType: 'text/plain', buffer: Buffer.from(content) },
    ]);
  const files = page.getByRole('list', { name: 'Files in All files' });
  await expect(files.getByRole('button', { name: 'final-logo.txt', exact: true })).toBeVisible({
    timeout: 20_000,
  });

  // Free: share links are Pro's (the pricing page says so); the dialog says what to do instead.
  await page.getByRole('button', { name: 'Actions for final-logo.txt' }).click();
  await page.getByRole('menuitem', { name: 'Share link…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Share “final-logo.txt”' });
  await expect(dialog.getByText(/The Free plan does not include share links/)).toBeVisible();
  await expect(dialog.getByRole('link', { name: 'See plans and upgrade' })).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Create link' })).toHaveCount(0);
  await shoot(page, 'files-share-dialog-free');
  await expectAccessible(page, 'share dialog on Free', '[role="dialog"]');
  await dialog.getByRole('button', { name: 'Done' }).click();

  await upgradeToPro(page);
  await page.goto('/projects');
  await page.getByRole('link', { name: /Logo hand-over/ }).click();
  await page.getByRole('tab', { name: 'Files' }).click();
  await page.getByRole('button', { name: 'Actions for final-logo.txt' }).click();
  await page.getByRole('menuitem', { name: 'Share link…' }).click();
  await expect(dialog.getByText(/No links yet/)).toBeVisible();
  await dialog.getByRole('textbox', { name: 'Download limit' }).fill('2');
  await dialog.getByLabel('Password (optional)').fill('blue whale');
  await dialog.getByRole('button', { name: 'Create link' }).click();
  const row = dialog.getByRole('listitem', { name: 'Active link, 0 downloads of 2' });
  await expect(row).toBeFocused();
  const url = await row.getByRole('textbox', { name: 'Link' }).inputValue();
  expect(url).toMatch(/\/shared\/[A-Za-z0-9_-]{43}$/);
  await shoot(page, 'files-share-dialog');
  // The dialog itself: the page's live announcer still holds the new-project combobox's
  // messages for a few seconds, which axe would read as part of the page.
  await expectAccessible(page, 'share dialog', '[role="dialog"]');
  await dialog.getByRole('button', { name: 'Done' }).click();

  // A stranger: another browser context, no account, no session.
  const stranger = await browser.newContext({ acceptDownloads: true });
  const visitor = await stranger.newPage();
  await visitor.goto(new URL(url).pathname);
  await expect(visitor.getByRole('heading', { level: 1, name: 'final-logo.txt' })).toBeVisible();
  await expect(visitor.getByText(/2 downloads left/)).toBeVisible();
  await shoot(visitor, 'shared-file');
  await expectAccessible(visitor, 'shared file');
  await visitor.getByLabel('Password').fill('red whale');
  await visitor.getByRole('button', { name: 'Download' }).click();
  await expect(visitor.getByText('Wrong password for this link.')).toBeVisible();
  await visitor.getByLabel('Password').fill('blue whale');
  const downloading = visitor.waitForEvent('download');
  await visitor.getByRole('button', { name: 'Download' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('final-logo.txt');
  expect(await readFile(await download.path(), 'utf8')).toBe(content);
  await expect(visitor.getByText(/1 download left/)).toBeVisible();

  // The member sees the download counted, in the dialog and in the project's activity.
  await page.getByRole('button', { name: 'Actions for final-logo.txt' }).click();
  await page.getByRole('menuitem', { name: 'Share link…' }).click();
  const counted = dialog.getByRole('listitem', { name: 'Active link, 1 download of 2' });
  await expect(counted).toBeVisible();
  await counted.getByRole('button', { name: 'Turn off…' }).click();
  await counted.getByRole('button', { name: 'Turn off', exact: true }).click();
  await expect(
    dialog.getByRole('listitem', { name: 'Turned off link, 1 download of 2' }),
  ).toBeFocused();
  await dialog.getByRole('button', { name: 'Done' }).click();
  await page.getByRole('tab', { name: 'Activity' }).click();
  await expect(
    page.getByText(/share link: file “final-logo\.txt” downloaded \(download 1 of 2\)/),
  ).toBeVisible();
  await expect(page.getByText(/turned off a share link to file “final-logo\.txt”/)).toBeVisible();

  await visitor.reload();
  await expect(
    visitor.getByRole('heading', { level: 1, name: 'This link doesn’t work' }),
  ).toBeVisible();
  await expect(
    visitor.getByText('This link was turned off by the person who shared it.'),
  ).toBeVisible();
  await shoot(visitor, 'shared-file-dead');
  await expectAccessible(visitor, 'dead link');
  await stranger.close();
});
