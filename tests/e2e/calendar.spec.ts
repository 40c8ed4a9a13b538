import type { Page } from '@playwright/test';
import { expect, test } from './console-guard.ts';
import { openNewProject, syncButton } from './app-locators.ts';
import { createConfirmedUser, e2eOrigin, newEmail, signInAt } from './e2e-accounts.ts';
import { expectAccessible, shoot } from './screen-checks.ts';

test.use({ baseURL: e2eOrigin });

/** Days of the current month (UTC, the new workspace's time zone): the calendar opens on it. */
const month = new Date().toISOString().slice(0, 7);
const FROM = `${month}-10`;
const TO = `${month}-17`;

const dayCell = (page: Page, day: string) => page.locator(`td[data-day="${day}"]`);

test('a milestone dragged on the calendar moves its due date, and the other device sees it, offline too', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(150_000);
  const email = newEmail('calendar');
  await createConfirmedUser(request, email);
  await signInAt(page, email);

  // The second device of the same member opens the calendar before anything is dated.
  const other = await browser.newContext({ baseURL: e2eOrigin });
  const laptop = await other.newPage();
  await signInAt(laptop, email);
  await laptop.goto('/calendar');
  await expect(laptop.getByRole('heading', { level: 1, name: 'Calendar' })).toBeFocused();
  await expect(laptop.getByText('Nothing on the calendar yet')).toBeVisible();

  await page.goto('/projects');
  await expect(page.getByRole('heading', { name: 'No projects yet' })).toBeVisible();
  await openNewProject(page, 'Launch site', 'Calendar Co');
  await page.getByRole('tab', { name: 'Milestones' }).click();
  await page.getByRole('textbox', { name: 'Milestone title' }).fill('Design review');
  await page.getByRole('textbox', { name: 'Due date' }).fill(FROM);
  await page.getByRole('button', { name: 'Add milestone' }).click();
  await expect(page.getByRole('heading', { level: 3, name: 'Design review' })).toBeVisible();

  // The project's own calendar tab shows it.
  await page.getByRole('tab', { name: 'Calendar' }).click();
  await expect(dayCell(page, FROM).getByRole('button', { name: /Design review/ })).toBeVisible();

  // The workspace calendar, from the nav.
  await page.getByRole('navigation').getByRole('link', { name: 'Calendar' }).first().click();
  await expect(page).toHaveURL(/\/calendar$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Calendar' })).toBeFocused();
  const chip = dayCell(page, FROM).getByRole('button', { name: /Design review/ });
  await expect(chip).toBeVisible();
  await expect(syncButton(page)).toHaveAccessibleName('Sync: All changes saved');
  await expect(dayCell(laptop, FROM).getByRole('button', { name: /Design review/ })).toBeVisible({
    timeout: 20_000,
  });
  await shoot(page, 'calendar-month');
  await expectAccessible(page, 'calendar month');

  // Drag it a week on.
  await chip.dragTo(dayCell(page, TO));
  await expect(dayCell(page, TO).getByRole('button', { name: /Design review/ })).toBeVisible();
  await expect(page.getByText(/“Design review” moved to/)).toBeVisible();
  await expect(syncButton(page)).toHaveAccessibleName('Sync: All changes saved');

  // The other device sees the new date, on the calendar and on the milestone itself.
  await expect(dayCell(laptop, TO).getByRole('button', { name: /Design review/ })).toBeVisible({
    timeout: 20_000,
  });
  await expect(dayCell(laptop, FROM).getByRole('button', { name: /Design review/ })).toHaveCount(0);
  await dayCell(laptop, TO)
    .getByRole('button', { name: /Design review/ })
    .click();
  const details = laptop.getByRole('dialog', { name: 'Design review' });
  await expect(details.getByRole('textbox', { name: 'Move to date' })).toHaveValue(TO);
  await details.getByRole('button', { name: 'Close' }).click();

  // An event, in the dialog; then the week and agenda views.
  await page.getByRole('button', { name: 'New event' }).click();
  const dialog = page.getByRole('dialog', { name: 'New event' });
  await dialog.getByRole('textbox', { name: 'Title' }).fill('Client call');
  await dialog.getByLabel('Starts').fill(TO);
  await dialog.getByLabel('Start time').fill('14:00');
  await dialog.getByLabel('End time').fill('13:00');
  await dialog.getByRole('button', { name: 'Add event' }).click();
  await expect(dialog.getByText('The event must not end before it starts')).toBeVisible();
  await shoot(page, 'calendar-event-dialog');
  await expectAccessible(page, 'calendar event dialog', '[role="dialog"]');
  await dialog.getByLabel('End time').fill('15:00');
  await dialog.getByRole('button', { name: 'Add event' }).click();
  await expect(dialog).toBeHidden();
  await expect(dayCell(page, TO).getByRole('button', { name: /Client call/ })).toBeVisible();

  await page.getByRole('radio', { name: 'Week' }).click();
  await expect(page).toHaveURL(/view=week/);
  await page.getByRole('button', { name: 'Next week' }).click();
  await page.getByRole('button', { name: 'Today' }).click();
  await page.goto(`/calendar?view=week&date=${TO}`);
  const week = page.getByRole('list', { name: /Week of/ });
  await expect(week.getByRole('button', { name: /Client call/ })).toBeVisible();
  await shoot(page, 'calendar-week');
  await expectAccessible(page, 'calendar week');

  await page.goto(`/calendar?view=agenda&date=${FROM}`);
  const agenda = page.getByRole('list', { name: 'Agenda' });
  await expect(agenda.getByRole('button', { name: /Design review/ })).toBeVisible();
  await expect(agenda.getByRole('button', { name: /Client call/ })).toBeVisible();
  await shoot(page, 'calendar-agenda');
  await expectAccessible(page, 'calendar agenda');
  await expect(laptop.getByRole('button', { name: /Client call/ }).first()).toBeVisible({
    timeout: 20_000,
  });

  // Offline on the laptop: a new tab opens the calendar from the device, Move to date (the
  // keyboard's way; the drag is above) reschedules, the change waits on the device, and it
  // reaches the other device once the network is back.
  const LATER = `${month}-24`;
  await other.setOffline(true);
  const offlineTab = await other.newPage();
  await offlineTab.goto('/calendar');
  await expect(offlineTab.getByRole('heading', { level: 1, name: 'Calendar' })).toBeFocused();
  await dayCell(offlineTab, TO)
    .getByRole('button', { name: /Design review/ })
    .click();
  const move = offlineTab.getByRole('dialog', { name: 'Design review' });
  await move.getByRole('textbox', { name: 'Move to date' }).fill(LATER);
  await move.getByRole('button', { name: 'Move', exact: true }).click();
  await expect(move).toBeHidden();
  await expect(
    dayCell(offlineTab, LATER).getByRole('button', { name: /Design review/ }),
  ).toBeVisible();
  await expect(syncButton(offlineTab)).toHaveAccessibleName('Sync: Offline — 1 change waiting');
  await expectAccessible(offlineTab, 'calendar offline');
  await other.setOffline(false);
  await expect(syncButton(offlineTab)).toHaveAccessibleName('Sync: All changes saved', {
    timeout: 20_000,
  });
  await page.goto('/calendar');
  await expect(dayCell(page, LATER).getByRole('button', { name: /Design review/ })).toBeVisible({
    timeout: 20_000,
  });
  await other.close();
});
