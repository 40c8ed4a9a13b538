import type { Page } from '@playwright/test';
import { expect, test } from './console-guard.ts';
import { createConfirmedUser, e2eOrigin, newEmail, signInAt } from './e2e-accounts.ts';
import { openNewProject } from './app-locators.ts';
import { expectAccessible, shoot } from './screen-checks.ts';

test.use({ baseURL: e2eOrigin });

async function addMilestone(page: Page, title: string, due: string, amount: string) {
  await page.getByRole('textbox', { name: 'Milestone title' }).fill(title);
  await page.getByRole('textbox', { name: 'Due date' }).fill(due);
  await page.getByRole('textbox', { name: 'Amount' }).fill(amount);
  await page.getByRole('button', { name: 'Add milestone' }).click();
  await expect(page.getByRole('heading', { level: 3, name: title })).toBeVisible();
}

test('milestones: add, reorder, approve, see progress on the overview and the activity', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const email = newEmail('milestones');
  await createConfirmedUser(request, email);
  await signInAt(page, email);
  await page.goto('/projects');
  await expect(page.getByRole('heading', { name: 'No projects yet' })).toBeVisible();

  await openNewProject(page, 'Brand refresh', 'Acme Studio');

  await page.getByRole('tab', { name: 'Milestones' }).click();
  await expect(page).toHaveURL(/tab=milestones/);
  await expect(page.getByText(/Break the project into stages your client approves/)).toBeVisible();
  await shoot(page, 'milestones-empty');
  await expectAccessible(page, 'milestones empty');

  await addMilestone(page, 'Moodboard', '2020-03-01', '1500.50');
  await addMilestone(page, 'Final logo', '2999-05-01', '3200');
  const list = page.getByRole('list', { name: 'Milestones' });
  await expect(list.getByRole('heading')).toHaveText(['Moodboard', 'Final logo']);
  await expect(list.getByRole('listitem').first()).toContainText('1,500.50');

  // Reorder with the keyboard: focus stays on the moved milestone.
  await page.getByRole('button', { name: 'Move “Final logo” up' }).focus();
  await page.keyboard.press('Enter');
  await expect(list.getByRole('heading')).toHaveText(['Final logo', 'Moodboard']);
  await expect(page.getByRole('button', { name: 'Move “Final logo” down' })).toBeFocused();

  // Approve the moodboard in the edit dialog.
  await page.getByRole('button', { name: 'Edit “Moodboard”' }).click();
  const edit = page.getByRole('dialog');
  await edit.getByRole('button', { name: /Status/ }).click();
  await page.getByRole('option', { name: 'Approved' }).click();
  await shoot(page, 'milestones-edit');
  await expectAccessible(page, 'milestone edit', '[role="dialog"]');
  await edit.getByRole('button', { name: 'Save changes' }).click();
  await expect(edit).toBeHidden();
  await expect(page.getByText('1 of 2 milestones approved')).toBeVisible();
  await shoot(page, 'milestones-list');
  await expectAccessible(page, 'milestones list');

  await page.getByRole('tab', { name: 'Overview' }).click();
  const progress = page.getByRole('progressbar', { name: 'Milestones approved' });
  await expect(progress).toHaveAttribute('aria-valuetext', '1 of 2 milestones approved');
  await expect(page.getByRole('region', { name: 'Next due' })).toContainText('Final logo');
  await shoot(page, 'project-overview');
  await expectAccessible(page, 'overview');

  // The activity is on the server: wait for sync, then see the entries in the tab and full page.
  await page.getByRole('tab', { name: 'Activity' }).click();
  await expect(async () => {
    await page.getByRole('tab', { name: 'Overview' }).click();
    await page.getByRole('tab', { name: 'Activity' }).click();
    await expect(
      page.getByText(/changed status of milestone “Moodboard” from Planned to Approved/),
    ).toBeVisible({
      timeout: 2_000,
    });
  }).toPass({ timeout: 30_000 });
  await expect(page.getByText(/created milestone “Final logo”/)).toBeVisible();
  await expect(page.getByText(/created project “Brand refresh”/)).toBeVisible();
  await shoot(page, 'project-activity-tab');
  await expectAccessible(page, 'activity tab');

  await page.getByRole('link', { name: 'Open full page' }).click();
  await expect(
    page.getByRole('heading', { level: 1, name: 'Activity: Brand refresh' }),
  ).toBeVisible();
  await expect(page.getByText(/created milestone “Moodboard”/)).toBeVisible();
  await shoot(page, 'project-activity-page');
  await expectAccessible(page, 'activity page');

  // Hand the final logo over for approval: the dashboard lists it, linking to the milestones.
  await page.getByRole('link', { name: 'Brand refresh' }).click();
  await page.getByRole('tab', { name: 'Milestones' }).click();
  await page.getByRole('button', { name: 'Edit “Final logo”' }).click();
  await page
    .getByRole('dialog')
    .getByRole('button', { name: /Status/ })
    .click();
  await page.getByRole('option', { name: 'Awaiting approval' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByRole('dialog')).toBeHidden();
  await page.goto('/dashboard');
  const getStarted = page.getByRole('button', { name: 'Get started' });
  // A new account's first visit welcomes them first.
  await getStarted.click();
  await expect(getStarted).toBeHidden();
  const awaiting = page.getByRole('region', { name: 'Milestones awaiting approval' });
  await expect(awaiting.getByRole('link', { name: /Final logo/ })).toHaveAttribute(
    'href',
    /tab=milestones/,
  );
  await expect(page.getByRole('region', { name: 'Overdue tasks' })).toContainText(
    'No overdue tasks',
  );
  // Long rows truncate: the phone page never scrolls sideways.
  await page.setViewportSize({ width: 360, height: 780 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await page.setViewportSize({ width: 1280, height: 860 });
  await shoot(page, 'dashboard');
  await expectAccessible(page, 'dashboard');
});
