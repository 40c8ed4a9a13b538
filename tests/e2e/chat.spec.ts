import { expect, test } from './console-guard.ts';
import { openNewProject, syncButton } from './app-locators.ts';
import { createConfirmedUser, e2eOrigin, newEmail, signInAt } from './e2e-accounts.ts';
import { expectAccessible, shoot } from './screen-checks.ts';
import { composer, log, send, texts } from './chat-steps.ts';

test.use({ baseURL: e2eOrigin });

// Two devices of one member: adding members to a workspace is the team issue's work (no invites
// yet), so the live path is shown across devices; the hub's workspace group is the same either way.
test('chat: messages reach the other device live, one written offline goes out on return, and both show the same order', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(150_000);
  const email = newEmail('chat');
  await createConfirmedUser(request, email);
  await signInAt(page, email);
  await page.goto('/projects');
  await expect(page.getByRole('heading', { name: 'No projects yet' })).toBeVisible();
  await openNewProject(page, 'Brand refresh', 'Chat Co');
  await page.getByRole('tab', { name: 'Chat' }).click();
  await expect(page.getByText('No messages yet')).toBeVisible();
  await expect(syncButton(page)).toHaveAccessibleName('Sync: All changes saved');
  const projectUrl = page.url();

  const other = await browser.newContext({ baseURL: e2eOrigin });
  const laptop = await other.newPage();
  await signInAt(laptop, email);
  await laptop.goto(projectUrl);
  await expect(laptop.getByText('No messages yet')).toBeVisible({ timeout: 20_000 });

  // Live: the laptop's open chat shows the phone's message without a reload or a pull.
  await send(
    page,
    'Kick-off notes are in **Files**, see https://example.com/brief',
    'Kick-off notes are in Files, see https://example.com/brief',
  );
  await expect(log(laptop).getByText('Files', { exact: true })).toBeVisible();
  await expect(
    log(laptop).getByRole('link', { name: 'https://example.com/brief' }),
  ).toHaveAttribute('href', 'https://example.com/brief');
  await send(laptop, 'Thanks, reading now');
  await expect(log(page).getByText('Thanks, reading now')).toBeVisible();

  // Offline on the phone: the message waits and says so; the laptop writes meanwhile.
  await page.context().setOffline(true);
  await expect(page.getByText(/You are offline: messages wait on this device/)).toBeVisible();
  await send(page, 'Written on the train');
  await expect(
    log(page).getByText('Waiting for the network: it goes out when you are back online'),
  ).toBeVisible();
  await send(laptop, 'Sent while you were away');
  await page.context().setOffline(false);
  await expect(
    log(page).getByText('Waiting for the network: it goes out when you are back online'),
  ).toBeHidden({ timeout: 20_000 });
  await expect(log(laptop).getByText('Written on the train')).toBeVisible({ timeout: 20_000 });
  await expect(log(page).getByText('Sent while you were away')).toBeVisible({ timeout: 20_000 });

  // The server's order on both: the laptop's message was first to reach it.
  await expect(syncButton(page)).toHaveAccessibleName('Sync: All changes saved', {
    timeout: 20_000,
  });
  const expected = [
    'Kick-off notes are in Files, see https://example.com/brief',
    'Thanks, reading now',
    'Sent while you were away',
    'Written on the train',
  ];
  await expect.poll(() => texts(page), { timeout: 20_000 }).toEqual(expected);
  await expect.poll(() => texts(laptop), { timeout: 20_000 }).toEqual(expected);

  // React, reply and edit on the phone; the laptop sees each.
  await page.getByRole('button', { name: 'Actions for the message from You' }).first().click();
  await page.getByRole('menuitem', { name: 'React with 🎉' }).click();
  await expect(log(laptop).getByRole('button', { name: /^🎉 1/ })).toBeVisible({ timeout: 20_000 });
  const last = page.getByRole('button', { name: 'Actions for the message from You' }).last();
  await last.click();
  await page.getByRole('menuitem', { name: 'Edit' }).click();
  await expect(composer(page)).toHaveValue('Written on the train');
  await composer(page).fill('Written on the train, edited');
  await composer(page).press('Enter');
  await expect(log(laptop).getByText('Written on the train, edited')).toBeVisible({
    timeout: 20_000,
  });
  await expect(log(laptop).getByText('(edited)')).toBeVisible();

  await shoot(page, 'chat-tab');
  await expectAccessible(page, 'chat tab');
  // No change was refused on either device (two devices start the same read marker).
  await expect(syncButton(page)).toHaveAccessibleName('Sync: All changes saved');
  await expect(syncButton(laptop)).toHaveAccessibleName('Sync: All changes saved');
  await other.close();
});
