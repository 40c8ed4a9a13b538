import type { Page } from '@playwright/test';
import { expect, test } from './console-guard.ts';
import { createConfirmedUser, e2eOrigin, newEmail, signInAt } from './e2e-accounts.ts';
import { expectAccessible, shoot } from './screen-checks.ts';

test.use({ baseURL: e2eOrigin });

async function createProject(page: Page, name: string, client: string, isNew: boolean) {
  await page.keyboard.press('n');
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('textbox', { name: 'Project name' }).fill(name);
  await dialog.getByRole('combobox', { name: 'Client' }).fill(client);
  await page
    .getByRole('option', { name: isNew ? `Create new client “${client}”` : client, exact: true })
    .click();
  return dialog;
}

test('projects: create with a new client, filter, move on the board, edit in the workspace', async ({
  page,
  request,
}) => {
  // One long flow with five axe scans: on a shared 2-core machine it needs more than 30 s.
  test.setTimeout(90_000);
  const email = newEmail('projects');
  await createConfirmedUser(request, email);
  await signInAt(page, email);
  await page.goto('/projects');
  await expect(page.getByRole('heading', { name: 'No projects yet' })).toBeVisible();
  await shoot(page, 'projects-empty');
  await expectAccessible(page, 'empty');

  const dialog = await createProject(page, 'Website relaunch', 'Acme Studio', true);
  await dialog.getByRole('textbox', { name: 'Budget' }).fill('4800');
  await dialog.getByRole('textbox', { name: 'Due date' }).fill('2026-12-15');
  await dialog.getByRole('radio', { name: 'Teal' }).check({ force: true });
  await shoot(page, 'projects-create-dialog');
  await expectAccessible(page, 'create dialog', '[role="dialog"]');
  await dialog.getByRole('button', { name: 'Create project' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('link', { name: 'Website relaunch' })).toBeVisible();

  const second = await createProject(page, 'Brand book', 'Acme Studio', false);
  await second.getByRole('button', { name: /Status/ }).click();
  await page.getByRole('option', { name: 'Active' }).click();
  await second.getByRole('button', { name: 'Create project' }).click();
  await expect(second).toBeHidden();
  // The Free plan's two active projects are taken: the dialog says so and offers the upgrade.
  const third = await createProject(page, 'Mobile app', 'Globex', true);
  await third.getByRole('button', { name: 'Create project' }).click();
  await expect(third.getByRole('alert')).toContainText('Free plan includes 2 active projects');
  await expect(third.getByRole('link', { name: 'See plans and upgrade' })).toBeVisible();
  await shoot(page, 'projects-plan-limit');
  await expectAccessible(page, 'plan limit', '[role="dialog"]');
  // A finished project takes no place.
  await third.getByRole('button', { name: /Status/ }).click();
  await page.getByRole('option', { name: 'Completed' }).click();
  await third.getByRole('button', { name: 'Create project' }).click();
  await expect(third).toBeHidden();
  await expect(page.getByRole('link', { name: 'Mobile app' })).toBeVisible();
  await shoot(page, 'projects-list');
  await expectAccessible(page, 'list');

  // The search shortcut, and the search in the URL.
  await page.keyboard.press('/');
  await page.keyboard.type('brand');
  await expect(page).toHaveURL(/q=brand/);
  await expect(page.getByRole('list', { name: 'Projects' }).getByRole('link')).toHaveCount(1);
  await page.getByRole('searchbox', { name: 'Search projects' }).fill('');

  await page.getByRole('radio', { name: 'Board' }).click();
  await expect(page).toHaveURL(/view=board/);
  const planned = page.getByRole('region', { name: 'Planned' });
  await planned.getByRole('button', { name: 'Change status of Website relaunch' }).click();
  await page.getByRole('menuitem', { name: 'On hold' }).click();
  await expect(
    page.getByRole('region', { name: 'On hold' }).getByRole('link', { name: 'Website relaunch' }),
  ).toBeVisible();
  await shoot(page, 'projects-board');
  await expectAccessible(page, 'board');

  // The view is remembered on this device.
  await page.goto('/projects');
  await expect(page.getByRole('region', { name: 'Active' })).toBeVisible();

  await page.getByRole('link', { name: 'Website relaunch' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Website relaunch' })).toBeVisible();
  const name = page.getByRole('textbox', { name: 'Name' });
  await name.fill('Website relaunch 2027');
  await name.press('Enter');
  await expect(
    page.getByRole('heading', { level: 1, name: 'Website relaunch 2027' }),
  ).toBeVisible();
  await page.getByRole('textbox', { name: 'Start date' }).fill('2026-12-20');
  await page.getByRole('textbox', { name: 'Start date' }).blur();
  await expect(page.getByText('The due date must not be before the start date')).toBeVisible();
  await shoot(page, 'project-workspace');
  await expectAccessible(page, 'workspace');

  // A link with the wrong client id lands on the right URL.
  const [, , projectId, clientId] = new URL(page.url()).pathname.split('/');
  await page.goto(`/projects/${projectId}/wrong-client`);
  await expect(page).toHaveURL(`${e2eOrigin}/projects/${projectId}/${clientId}`);
  await page.goto('/projects/0190a000-0000-7000-8000-00000000dead/x');
  await expect(page.getByRole('heading', { level: 1, name: 'Project not found' })).toBeVisible();
  await shoot(page, 'project-not-found');
});

test('the board shows all five columns at 1440 px; on a phone it scrolls sideways', async ({
  page,
  request,
}) => {
  const email = newEmail('board');
  await createConfirmedUser(request, email);
  await signInAt(page, email);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/projects?view=board');
  await expect(page.getByRole('heading', { name: 'No projects yet' })).toBeVisible();
  const dialog = await createProject(page, 'Website relaunch', 'Acme Studio', true);
  await dialog.getByRole('button', { name: 'Create project' }).click();
  await expect(dialog).toBeHidden();

  const board = page.getByRole('group', { name: 'Project board' });
  const columns = ['Planned', 'Active', 'On hold', 'Completed', 'Cancelled'];
  await expect(board.getByRole('region')).toHaveCount(5);
  for (const name of columns) {
    const box = await board.getByRole('region', { name }).boundingBox();
    expect(box, name).not.toBeNull();
    expect(box!.x, name).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width, name).toBeLessThanOrEqual(1440);
  }
  expect(await board.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  await expectAccessible(page, 'board 1440');

  // A phone: one column at a time, the board scrolls sideways, the page itself does not.
  await page.setViewportSize({ width: 360, height: 780 });
  expect(await board.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  const first = await board.getByRole('region', { name: 'Planned' }).boundingBox();
  expect(first!.width).toBeLessThanOrEqual(360);
  // Keyboard: focusing the last column's button brings that column into view.
  await page.getByRole('button', { name: 'New cancelled project' }).focus();
  await expect(page.getByRole('button', { name: 'New cancelled project' })).toBeInViewport();
});
