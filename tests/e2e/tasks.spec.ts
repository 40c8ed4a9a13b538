import { expect, test } from './console-guard.ts';
import { createConfirmedUser, e2eOrigin, newEmail, signInAt } from './e2e-accounts.ts';
import { openNewProject, titlesIn } from './app-locators.ts';
import { expectAccessible, shoot } from './screen-checks.ts';

test.use({ baseURL: e2eOrigin });

test('tasks: add on the board, move a card with the keyboard, the order survives a reload', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const email = newEmail('tasks');
  await createConfirmedUser(request, email);
  await signInAt(page, email);
  await page.setViewportSize({ width: 1280, height: 860 });
  await page.goto('/projects');
  await expect(page.getByRole('heading', { name: 'No projects yet' })).toBeVisible();
  await openNewProject(page, 'Website relaunch', 'Acme Studio');
  await page.getByRole('tab', { name: 'Tasks' }).click();
  await expect(page).toHaveURL(/tab=tasks/);

  // A new project has its default columns.
  const firstColumn = page.getByRole('grid', { name: 'To do' });
  await expect(firstColumn).toBeVisible();
  await expect(page.getByRole('grid', { name: 'Done' })).toBeVisible();
  await shoot(page, 'tasks-empty');
  await expectAccessible(page, 'empty board');

  // Quick add: "n", a title, Enter; the field stays open for the next.
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('n');
  const quickAdd = page.getByRole('textbox', { name: 'Add a task to To do' });
  await expect(quickAdd).toBeFocused();
  for (const title of ['Wireframes', 'Copy deck', 'Photo shoot']) {
    await page.keyboard.type(title);
    await page.keyboard.press('Enter');
    await expect(firstColumn.getByText(title)).toBeVisible();
  }
  await expect(quickAdd).toBeFocused();
  expect(await titlesIn(page, 'To do')).toEqual(['Wireframes', 'Copy deck', 'Photo shoot']);

  // Keyboard move: to the card, Tab to "Move to…", Enter, arrows to the place, Enter.
  const move = page.getByRole('button', { name: 'Move Copy deck to…' });
  await firstColumn.getByRole('row', { name: /Copy deck/ }).focus();
  for (let i = 0; i < 4 && !(await move.evaluate((el) => el === document.activeElement)); i++) {
    await page.keyboard.press('Tab');
  }
  await expect(move).toBeFocused();
  await page.keyboard.press('Enter');
  const target = page.getByRole('menuitem', { name: 'Top of In progress' });
  await expect(page.getByRole('menu')).toBeVisible();
  for (let i = 0; i < 10 && !(await target.evaluate((el) => el === document.activeElement)); i++) {
    await page.keyboard.press('ArrowDown');
  }
  await expect(target).toBeFocused();
  await page.keyboard.press('Enter');
  const doing = page.getByRole('grid', { name: 'In progress' });
  await expect(doing.getByText('Copy deck')).toBeVisible();
  // The moved card keeps focus.
  await expect(doing.getByRole('row', { name: /Copy deck/ })).toBeFocused();
  expect(await titlesIn(page, 'To do')).toEqual(['Wireframes', 'Photo shoot']);

  // And one to the top of its own column.
  await firstColumn.getByRole('button', { name: 'Move Photo shoot to…' }).click();
  await page.getByRole('menuitem', { name: 'Top of To do' }).click();
  await expect.poll(() => titlesIn(page, 'To do')).toEqual(['Photo shoot', 'Wireframes']);

  // The details sheet: a due date, a checklist item.
  await firstColumn.getByRole('row', { name: /Wireframes/ }).click();
  const sheet = page.getByRole('dialog', { name: 'Task details' });
  await expect(sheet).toBeVisible();
  await sheet.getByRole('textbox', { name: 'New checklist item' }).fill('Home page');
  await sheet.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(sheet.getByRole('checkbox', { name: 'Home page' })).toBeVisible();
  await shoot(page, 'tasks-detail');
  await expectAccessible(page, 'detail sheet', '[role="dialog"]');
  await sheet.getByRole('button', { name: 'Close task details' }).click();
  await expect(sheet).toBeHidden();
  await expect(firstColumn.getByText('0/1')).toBeVisible();

  await shoot(page, 'tasks-board');
  await expectAccessible(page, 'board');
  await page.getByRole('radio', { name: 'List' }).click();
  await shoot(page, 'tasks-list');
  await expectAccessible(page, 'list');

  // Reload: the order and the columns are kept (local database, then the server's copy).
  await page.reload();
  await expect(page.getByRole('grid', { name: 'To do' })).toBeVisible();
  await expect.poll(() => titlesIn(page, 'To do')).toEqual(['Photo shoot', 'Wireframes']);
  expect(await titlesIn(page, 'In progress')).toEqual(['Copy deck']);
});
