// Issue 12's offline flow: with no network, add tasks and move a card across columns, add a
// milestone and a note, reload offline, reconnect; a second device shows the same board order,
// the milestone and the note.
import { expect, test } from './console-guard.ts';
import { createConfirmedUser, e2eOrigin, newEmail, signInAt } from './e2e-accounts.ts';
import { openNewProject, syncButton, titlesIn, waitForOfflineShell } from './app-locators.ts';

test.use({ baseURL: e2eOrigin });
// Offline is the point: requests the app tries while the network is off fail in the console.
test.use({ allowedConsoleErrors: [/ERR_INTERNET_DISCONNECTED/] });

test('project work offline: board, milestone and note reach a second device in the same order', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(150_000);
  const email = newEmail('work-offline');
  await createConfirmedUser(request, email);
  await signInAt(page, email);
  await page.setViewportSize({ width: 1280, height: 860 });
  await page.goto('/projects');
  await expect(page.getByRole('heading', { name: 'No projects yet' })).toBeVisible();
  await openNewProject(page, 'Train project', 'Acme Rail');
  await page.getByRole('tab', { name: 'Tasks' }).click();
  await expect(page.getByRole('grid', { name: 'To do' })).toBeVisible();
  await expect(syncButton(page)).toHaveAccessibleName('Sync: All changes saved');
  const projectUrl = page.url();
  await waitForOfflineShell(page);

  // The train leaves the station.
  await page.context().setOffline(true);
  await expect(syncButton(page)).toHaveAccessibleName(/Offline/);
  const quickAdd = page.getByRole('textbox', { name: 'Add a task to To do' });
  await quickAdd.click();
  for (const title of ['Survey', 'Sketches', 'Estimate']) {
    await page.keyboard.type(title);
    await page.keyboard.press('Enter');
    await expect(page.getByRole('grid', { name: 'To do' }).getByText(title)).toBeVisible();
  }
  await page.getByRole('button', { name: 'Move Sketches to…' }).click();
  await page.getByRole('menuitem', { name: 'Top of In progress' }).click();
  await expect.poll(() => titlesIn(page, 'In progress')).toEqual(['Sketches']);

  await page.getByRole('tab', { name: 'Milestones' }).click();
  await page.getByRole('textbox', { name: 'Milestone title' }).fill('Concept');
  await page.getByRole('textbox', { name: 'Amount' }).fill('2400');
  await page.getByRole('button', { name: 'Add milestone' }).click();
  await expect(page.getByRole('heading', { level: 3, name: 'Concept' })).toBeVisible();

  await page.getByRole('tab', { name: 'Notes' }).click();
  await page.keyboard.press('n');
  const title = page.getByRole('textbox', { name: 'Title' });
  await expect(title).toBeFocused();
  await title.fill('Site visit');
  await page.getByRole('textbox', { name: 'Note' }).click();
  await page.keyboard.type('Platform 4 needs a ramp');
  await expect(page.getByText('Saved on this device')).toBeVisible();
  await expect(syncButton(page)).toHaveAccessibleName(/Offline — \d+ changes waiting/);

  // A reload with no network: everything is still here, from the device.
  await page.goto(projectUrl);
  await expect(page.getByRole('grid', { name: 'To do' })).toBeVisible();
  await expect.poll(() => titlesIn(page, 'To do')).toEqual(['Survey', 'Estimate']);
  expect(await titlesIn(page, 'In progress')).toEqual(['Sketches']);

  // Back online: the queue drains.
  await page.context().setOffline(false);
  await expect(syncButton(page)).toHaveAccessibleName('Sync: All changes saved', {
    timeout: 30_000,
  });

  // Another device of the same user.
  const other = await browser.newContext({ baseURL: e2eOrigin });
  const second = await other.newPage();
  await signInAt(second, email);
  await second.goto(projectUrl.replace(/^https?:\/\/[^/]+/, ''));
  await expect(second.getByRole('grid', { name: 'To do' })).toBeVisible();
  await expect.poll(() => titlesIn(second, 'To do')).toEqual(['Survey', 'Estimate']);
  expect(await titlesIn(second, 'In progress')).toEqual(['Sketches']);
  await second.getByRole('tab', { name: 'Milestones' }).click();
  await expect(second.getByRole('heading', { level: 3, name: 'Concept' })).toBeVisible();
  await second.getByRole('tab', { name: 'Notes' }).click();
  await expect(second.getByRole('button', { name: /Site visit/ })).toBeVisible();
  await other.close();
});
