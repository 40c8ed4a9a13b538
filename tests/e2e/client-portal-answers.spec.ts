import { readFile } from 'node:fs/promises';
import { expect, test } from './console-guard.ts';
import { createConfirmedUser, e2eOrigin, newEmail, signInAt } from './e2e-accounts.ts';
import { waitForOfflineShell } from './app-locators.ts';
import { projectWithMilestoneAndFile } from './portal-setup.ts';
import { expectAccessible, shoot } from './screen-checks.ts';

test.use({
  baseURL: e2eOrigin,
  // The offline reload's calls fail, and the browser logs them.
  allowedConsoleErrors: [/Failed to fetch|ERR_INTERNET_DISCONNECTED/],
});

test('client portal answers: the client signs off a milestone and asks for a change, the member is told live and quotes, the client accepts; offline the opened file still opens and a new request waits, then goes', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const email = newEmail('portal-answers');
  await createConfirmedUser(request, email);
  await signInAt(page, email);
  const content = 'Print-ready shop front, final.\n';
  await projectWithMilestoneAndFile(page, { name: 'handover.txt', content });
  const projectUrl = page.url();

  await page.getByRole('button', { name: 'Client portal…' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Password', { exact: true }).fill('blue lagoon 42');
  await dialog.getByRole('button', { name: 'Set password and turn on' }).click();
  await expect(dialog.getByRole('switch', { name: 'Portal on' })).toBeChecked();
  const link = await dialog.getByRole('textbox', { name: 'Portal link' }).inputValue();
  await page.keyboard.press('Escape');

  // The member waits on the notifications page, live (no reload from here on).
  await page.goto('/notifications');
  await expect(page.getByText(/Connecting for live updates|Reconnecting/)).toHaveCount(0);
  const toasts = page.getByRole('region', { name: 'Notifications' }).getByRole('status');

  // The client enters.
  const clientContext = await browser.newContext({ acceptDownloads: true });
  const client = await clientContext.newPage();
  const portalPath = new URL(link).pathname;
  await client.goto(portalPath);
  await client.getByLabel('Password', { exact: true }).fill('blue lagoon 42');
  await client.keyboard.press('Enter');
  await expect(client.getByRole('heading', { level: 1, name: 'Shop front' })).toBeFocused();

  // Sign-off: approve the milestone, with the confirm step.
  const milestones = client.getByRole('region', { name: 'Milestones' });
  await milestones.getByRole('button', { name: /^Approve / }).click();
  await milestones.getByRole('button', { name: 'Yes, approve' }).click();
  await expect(milestones.getByText(/Approved by Acme Bakery/)).toBeVisible();
  await expect(toasts.filter({ hasText: 'Acme Bakery approved “Sketches”' })).toBeVisible();

  // A change request.
  const requests = client.getByRole('region', { name: 'Change requests' });
  await requests.getByRole('button', { name: 'Ask for a change' }).click();
  await requests.getByLabel('What would you like to change?').fill('Add a gift card page');
  await requests.getByLabel('Details (optional)').fill('For the holidays, with three amounts.');
  // A sketch attached: uploaded with tus on the portal cookie while the form is open.
  await requests.locator('input[type="file"]').setInputFiles({
    name: 'gift-card-sketch.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('three amounts: 25, 50, 100\n'),
  });
  await expect(
    requests.getByRole('list', { name: 'Attached files' }).getByText(/uploaded$/),
  ).toBeVisible();
  await shoot(client, 'portal-change-request-form');
  await requests.getByRole('button', { name: 'Send request' }).click();
  await expect(requests.getByRole('heading', { name: 'Add a gift card page' })).toBeVisible();
  await expect(
    requests
      .getByRole('list', { name: 'Attachments' })
      .getByRole('button', { name: 'Download gift-card-sketch.txt' }),
  ).toBeVisible();
  await expect(
    toasts.filter({ hasText: 'Acme Bakery asked for a change in Shop front' }),
  ).toBeVisible();
  await expectAccessible(client, 'portal with answers');

  // The member answers with a quote in the change request center.
  await page.goto('/change-requests');
  await expect(page.getByRole('heading', { level: 1, name: 'Change requests' })).toBeFocused();
  const row = page.getByRole('listitem', { name: 'Add a gift card page' });
  await row.getByRole('button', { name: /Add a gift card page/ }).click();
  const sheet = page.getByRole('dialog');
  await expect(
    sheet.getByRole('list', { name: 'Attached files' }).getByText('gift-card-sketch.txt'),
  ).toBeVisible();
  await sheet.getByLabel(/Cost impact/).fill('500');
  await sheet.getByLabel('Timeline impact (days)').fill('3');
  await sheet.getByLabel('Answer to the client').fill('One page, three gift card amounts.');
  await shoot(page, 'change-request-answer');
  await expectAccessible(page, 'change request answer', '[role="dialog"]');
  await sheet.getByRole('button', { name: 'Send quote to client' }).click();
  await expect(row).toContainText('Quote sent');
  await expect(page.getByText('All changes saved')).toBeVisible();
  await shoot(page, 'change-requests-center');

  // The client sees the quote (on the next load) and accepts it.
  await expect(async () => {
    await client.reload();
    await expect(requests.getByText('Quote sent')).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  await requests.getByRole('button', { name: 'Accept quote' }).click();
  await requests.getByRole('button', { name: 'Accept quote' }).click();
  await expect(requests.getByText('Accepted', { exact: false }).first()).toBeVisible();
  await expect(
    toasts.filter({ hasText: 'Acme Bakery accepted the quote for “Add a gift card page”' }),
  ).toBeVisible();
  // No longer open: it shows among all the requests, accepted by the client.
  await page.goto('/change-requests?status=all');
  await expect(row).toContainText('Accepted by client', { timeout: 15_000 });

  // The client opens the file: it is kept on the device.
  const files = client.getByRole('region', { name: 'Files' });
  const first = client.waitForEvent('download');
  await files.getByRole('button', { name: 'Download handover.txt' }).click();
  expect(await readFile(await (await first).path(), 'utf8')).toBe(content);
  await expect(files.getByText('On this device')).toBeVisible();

  // Installable on its own: Chromium finds the project's portal manifest and nothing missing.
  await waitForOfflineShell(client);
  const cdp = await clientContext.newCDPSession(client);
  const manifest = (await cdp.send('Page.getAppManifest')) as { url: string; errors: unknown[] };
  expect(new URL(manifest.url).pathname).toBe(`${portalPath}/manifest.webmanifest`);
  expect(manifest.errors).toEqual([]);
  // Playwright's contexts are incognito ones, which never install: every other check must pass.
  await expect
    .poll(async () =>
      (await cdp.send('Page.getInstallabilityErrors')).installabilityErrors
        .map((error) => error.errorId)
        .filter((id) => id !== 'in-incognito'),
    )
    .toEqual([]);
  await cdp.detach();

  // Offline: the page, the opened file and a queued request.
  await clientContext.setOffline(true);
  await client.reload();
  await expect(client.getByRole('heading', { level: 1, name: 'Shop front' })).toBeVisible();
  await expect(client.getByText(/You’re offline\. Showing your project as of/)).toBeVisible();
  await expect(requests.getByRole('heading', { name: 'Add a gift card page' })).toBeVisible();
  const offlineCopy = client.waitForEvent('download');
  await files.getByRole('button', { name: 'Download handover.txt' }).click();
  expect(await readFile(await (await offlineCopy).path(), 'utf8')).toBe(content);

  await requests.getByRole('button', { name: 'Ask for a change' }).click();
  await requests.getByLabel('What would you like to change?').fill('Print the menu too');
  // A photo attached offline: kept on the device, uploaded when the request goes.
  await requests.locator('input[type="file"]').setInputFiles({
    name: 'menu-photo.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('the menu as it is printed today\n'),
  });
  await expect(
    requests
      .getByRole('list', { name: 'Attached files' })
      .getByText(/kept on this device, sent with your request$/),
  ).toBeVisible();
  await shoot(client, 'portal-offline-attachment');
  await expectAccessible(client, 'portal form with a file kept offline');
  await requests.getByRole('button', { name: 'Send request' }).click();
  const waiting = requests.getByRole('listitem').filter({ hasText: 'Print the menu too' });
  await expect(waiting).toContainText('Waiting to send');
  await expect(waiting).toContainText('1 file attached');
  await shoot(client, 'portal-offline-queued');

  await clientContext.setOffline(false);
  await expect(waiting).not.toContainText('Waiting to send', { timeout: 20_000 });
  await expect(toasts.filter({ hasText: '“Print the menu too”' })).toBeVisible();
  await expect(
    waiting
      .getByRole('list', { name: 'Attachments' })
      .getByRole('button', { name: 'Download menu-photo.txt' }),
  ).toBeVisible();

  // The member's project activity names the client for each step.
  await page.goto(projectUrl);
  await page.getByRole('tab', { name: 'Activity' }).click();
  await expect(page.getByText(/approved milestone “Sketches” in the client portal/)).toBeVisible();
  await clientContext.close();
});
