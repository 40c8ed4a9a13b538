import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './console-guard.ts';
import { createConfirmedUser, e2eOrigin, newEmail, signInAt } from './e2e-accounts.ts';

test.use({ baseURL: e2eOrigin });

// SCREENSHOT_DIR=<dir> also saves the screens at desktop and phone width, light and dark.
const shotDir = process.env.SCREENSHOT_DIR;

async function shoot(page: Page, name: string): Promise<void> {
  if (!shotDir) return;
  for (const theme of ['light', 'dark'] as const) {
    await page.evaluate((t) => {
      document.documentElement.classList.remove('light', 'dark');
      document.documentElement.classList.add(t);
    }, theme);
    for (const [label, width] of [
      ['desktop', 1280],
      ['phone', 360],
    ] as const) {
      await page.setViewportSize({ width, height: label === 'phone' ? 780 : 860 });
      await page.screenshot({ path: `${shotDir}/${name}-${label}-${theme}.png`, fullPage: true });
    }
  }
  await page.setViewportSize({ width: 1280, height: 860 });
  await page.evaluate(() => document.documentElement.classList.remove('dark'));
}

/** axe over the page's main content (the shell is checked elsewhere), in both themes. */
async function expectAccessible(page: Page, label: string, scope = 'main'): Promise<void> {
  const violations: string[] = [];
  for (const theme of ['light', 'dark'] as const) {
    await page.evaluate((t) => {
      document.documentElement.classList.remove('light', 'dark');
      document.documentElement.classList.add(t);
    }, theme);
    await page.waitForTimeout(250);
    const { violations: found } = await new AxeBuilder({ page })
      .include(scope)
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
      .analyze();
    violations.push(
      ...found.flatMap((v) =>
        v.nodes.map((n) => `${label} ${theme} ${v.id} ${n.target.join(' ')}: ${n.failureSummary}`),
      ),
    );
  }
  await page.evaluate(() => document.documentElement.classList.remove('dark'));
  expect(violations).toEqual([]);
}

const titlesIn = (page: Page, column: string) =>
  page
    .getByRole('grid', { name: column })
    .locator('[data-task-id] > div > span:first-child')
    .allTextContents();

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
  await page.keyboard.press('n');
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('textbox', { name: 'Project name' }).fill('Website relaunch');
  await dialog.getByRole('combobox', { name: 'Client' }).fill('Acme Studio');
  await page.getByRole('option', { name: 'Create new client “Acme Studio”' }).click();
  await dialog.getByRole('button', { name: 'Create project' }).click();
  await expect(dialog).toBeHidden();
  await page.getByRole('link', { name: 'Website relaunch' }).click();
  await page.getByRole('tab', { name: 'Tasks' }).click();
  await expect(page).toHaveURL(/tab=tasks/);

  // A new project has its default columns.
  const todo = page.getByRole('grid', { name: 'To do' });
  await expect(todo).toBeVisible();
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
    await expect(todo.getByText(title)).toBeVisible();
  }
  await expect(quickAdd).toBeFocused();
  expect(await titlesIn(page, 'To do')).toEqual(['Wireframes', 'Copy deck', 'Photo shoot']);

  // Keyboard move: to the card, Tab to "Move to…", Enter, arrows to the place, Enter.
  const move = page.getByRole('button', { name: 'Move Copy deck to…' });
  await todo.getByRole('row', { name: /Copy deck/ }).focus();
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
  await todo.getByRole('button', { name: 'Move Photo shoot to…' }).click();
  await page.getByRole('menuitem', { name: 'Top of To do' }).click();
  await expect.poll(() => titlesIn(page, 'To do')).toEqual(['Photo shoot', 'Wireframes']);

  // The details sheet: a due date, a checklist item.
  await todo.getByRole('row', { name: /Wireframes/ }).click();
  const sheet = page.getByRole('dialog', { name: 'Task details' });
  await expect(sheet).toBeVisible();
  await sheet.getByRole('textbox', { name: 'New checklist item' }).fill('Home page');
  await sheet.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(sheet.getByRole('checkbox', { name: 'Home page' })).toBeVisible();
  await shoot(page, 'tasks-detail');
  await expectAccessible(page, 'detail sheet', '[role="dialog"]');
  await sheet.getByRole('button', { name: 'Close task details' }).click();
  await expect(sheet).toBeHidden();
  await expect(todo.getByText('0/1')).toBeVisible();

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
