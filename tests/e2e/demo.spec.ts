import type { Page } from '@playwright/test';
import { expect, test } from './console-guard.ts';
import { e2eOrigin } from './e2e-accounts.ts';
import { syncButton } from './app-locators.ts';
import { expectAccessible, shoot } from './screen-checks.ts';

test.use({ baseURL: e2eOrigin });

/** Requests to the server's API, auth service or realtime hubs: the demo must make none. */
function watchServerCalls(page: Page): string[] {
  const calls: string[] = [];
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (/^\/(api|auth|hubs)\//.test(pathname)) calls.push(`${request.method()} ${pathname}`);
  });
  return calls;
}

const demoBar = (page: Page) => page.getByRole('region', { name: 'Demo' });

const demoFileNote = "This is a demo file: its contents aren't stored in the demo.";

/** What a server-backed panel says when its read fails: never seen in the demo. */
const problems = /could not be (loaded|read)|could not load|Try again|not available in the demo/i;

/**
 * Screens (and settings sections) of the demo, each with a text that shows once what it reads
 * from the server (the demo's answers) is on screen, so the check for problems runs after it.
 */
const walkedPaths: [path: string, loaded: string | RegExp][] = [
  ['/dashboard', 'My tasks due this week'],
  ['/clients', 'Maya Chen'],
  ['/projects', 'Bakery website redesign'],
  ['/calendar', /\d{4}/],
  ['/change-requests', 'Add a gift card page'],
  ['/invoices', '12 Harbour Street, Portland, ME'],
  ['/notifications', 'You’re all caught up'],
  ['/settings?tab=profile', 'demo@satchel.example'],
  ['/settings?tab=members', 'Demo Visitor'],
  ['/settings?tab=billing', 'Pro'],
  ['/settings?tab=storage', /MB|KB|GB/],
  ['/settings?tab=data', /export/i],
  ['/settings?tab=about', 'Demo (no server)'],
];

test('demo: the real app on a seeded workspace in this browser, with nothing sent to the server', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const serverCalls = watchServerCalls(page);
  await page.setViewportSize({ width: 1280, height: 860 });

  // /demo opens the dashboard of the sample workspace, with the demo bar and the demo's status.
  await page.goto('/demo');
  // The first visit fetches the app's chunks cold (no service worker yet); a busy CI is slow.
  await expect(page).toHaveURL(/\/dashboard$/, { timeout: 30_000 });
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await expect(demoBar(page)).toContainText('You are in the demo');
  await expect(syncButton(page)).toHaveAccessibleName('Sync: Demo — changes stay in this browser');
  await shoot(page, 'demo-dashboard');
  await expectAccessible(page, 'demo dashboard');
  await expectAccessible(page, 'demo bar', 'section[aria-label="Demo"]');
  // The visitor's own work: seeded tasks assigned to the demo user, due this week.
  const myTasks = page.getByRole('region', { name: 'My tasks due this week' });
  await expect(myTasks.getByRole('link', { name: /Home page design/ })).toBeVisible();
  await expect(myTasks.getByRole('link', { name: /Three logo directions/ })).toBeVisible();

  // The seeded clients and projects are there.
  await page
    .getByRole('navigation', { name: 'App' })
    .first()
    .getByRole('link', { name: 'Clients' })
    .click();
  await expect(page.getByRole('link', { name: /Maya Chen/ }).first()).toBeVisible();
  await page.getByRole('button', { name: 'New client' }).first().click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('textbox', { name: 'Name' }).fill('Demo Test Client');
  await dialog.getByRole('button', { name: 'Add client' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('link', { name: /Demo Test Client/ }).first()).toBeVisible();

  // A task on a seeded project's board.
  await page
    .getByRole('navigation', { name: 'App' })
    .first()
    .getByRole('link', { name: 'Projects' })
    .click();
  await page.getByRole('link', { name: 'Bakery website redesign' }).first().click();
  await expect(
    page.getByRole('heading', { level: 1, name: 'Bakery website redesign' }),
  ).toBeVisible();
  await page.getByRole('tab', { name: 'Tasks' }).click();
  const toDo = page.getByRole('grid', { name: 'To do' });
  await expect(toDo.getByText('Photograph the shop')).toBeVisible();
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('n');
  const quickAdd = page.getByRole('textbox', { name: 'Add a task to To do' });
  await expect(quickAdd).toBeFocused();
  await page.keyboard.type('Demo test task');
  await page.keyboard.press('Enter');
  await expect(toDo.getByText('Demo test task')).toBeVisible();
  await expect(syncButton(page)).toHaveAccessibleName('Sync: Demo — changes stay in this browser');
  await shoot(page, 'demo-board');
  const boardUrl = page.url();

  // A seeded file is metadata only: its dialog says so instead of failing to draw a preview, and
  // opening it in a tab says the same.
  await page.getByRole('tab', { name: 'Files' }).click();
  await page.getByRole('button', { name: 'wireframes-v2.pdf', exact: true }).click();
  const fileDialog = page.getByRole('dialog', { name: 'wireframes-v2.pdf' });
  await expect(fileDialog.getByText('application/pdf')).toBeVisible();
  await expect(fileDialog.getByRole('note')).toHaveText(demoFileNote);
  await expect(fileDialog.getByText(/could not/)).toHaveCount(0);
  await shoot(page, 'demo-file');
  await expectAccessible(page, 'demo file', '[role="dialog"]');
  await fileDialog.getByRole('button', { name: 'Download' }).click();
  await expect(page.getByText(demoFileNote).last()).toBeVisible();
  await fileDialog.getByRole('button', { name: 'Close' }).click();

  // The other seeded screens: invoices (one paid) and the change request center.
  await page.goto('/invoices');
  await expect(page.getByRole('heading', { level: 1, name: 'Invoices' })).toBeVisible();
  await expect(page.getByText('Portrait retouching').first()).toBeVisible();
  await shoot(page, 'demo-invoices');
  await expectAccessible(page, 'demo invoices');
  await page.goto('/change-requests');
  await expect(page.getByText('Add a gift card page').first()).toBeVisible();

  // Every screen that reads from the server shows demo values, never "could not be loaded".
  for (const [path, loaded] of walkedPaths) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByRole('main')).toContainText(loaded);
    await expect(page.getByRole('main')).not.toContainText(/Loading|Opening/);
    await expect(page.getByRole('main'), path).not.toContainText(problems);
  }
  await page.goto('/invoices');
  await expect(page.getByText('12 Harbour Street, Portland, ME')).toBeVisible();
  await expect(page.getByText(/sample details: this is the demo/)).toBeVisible();
  await page.goto('/notifications');
  await expect(page.getByRole('main')).not.toContainText('Loading notifications');
  await page.goto(boardUrl);
  await page.getByRole('tab', { name: 'Activity' }).click();
  await expect(page.getByText('Photograph the shop').first()).toBeVisible();
  await expect(page.getByRole('main')).not.toContainText(problems);
  await page.goto('/settings?tab=billing');
  await expect(page.getByRole('main')).toContainText('Pro');
  await expect(page.getByRole('main')).not.toContainText(problems);

  // Reload: still the demo, the edits stuck.
  await page.goto(boardUrl);
  await page.reload();
  await expect(page).toHaveURL(boardUrl);
  await expect(demoBar(page)).toBeVisible();
  await expect(page.getByRole('grid', { name: 'To do' }).getByText('Demo test task')).toBeVisible();
  await page.goto('/clients');
  await expect(page.getByRole('link', { name: /Demo Test Client/ }).first()).toBeVisible();

  // Phone width: the bar keeps both actions.
  await page.setViewportSize({ width: 360, height: 780 });
  await expect(demoBar(page).getByRole('button', { name: 'Reset demo' })).toBeVisible();
  await expect(demoBar(page).getByRole('button', { name: 'Create your account' })).toBeVisible();
  await page.setViewportSize({ width: 1280, height: 860 });

  // Reset demo, after a confirm: back to the dashboard on the seed, the edits gone.
  await demoBar(page).getByRole('button', { name: 'Reset demo' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Reset the demo?' });
  await expect(confirm).toBeVisible();
  await shoot(page, 'demo-reset-confirm');
  await confirm.getByRole('button', { name: 'Reset demo' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(demoBar(page)).toBeVisible();
  await page.goto('/clients');
  await expect(page.getByRole('link', { name: /Maya Chen/ }).first()).toBeVisible();
  await expect(page.getByRole('link', { name: /Demo Test Client/ })).toHaveCount(0);

  expect(serverCalls, 'requests to the server while in the demo').toEqual([]);

  // Create your account: the demo is left and the real sign-up page loads.
  await demoBar(page).getByRole('button', { name: 'Create your account' }).click();
  await expect(page).toHaveURL(/\/signup$/);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(demoBar(page)).toHaveCount(0);
  expect(await page.evaluate(() => sessionStorage.getItem('satchel.demo'))).toBeNull();
  // A signed-in page now asks for a real sign-in: the demo no longer answers for this tab.
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/login/);
});
