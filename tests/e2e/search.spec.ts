// Issue 17's search: Ctrl+K from any page, results as you type from the device's index, arrows and
// Enter open a result with focus on its page's h1; it works offline, says so for a too-long
// query, and Escape hands focus back.
import { expect, test } from './console-guard.ts';
import { createConfirmedUser, e2eOrigin, newEmail, signInAt } from './e2e-accounts.ts';
import { openNewProject, waitForOfflineShell } from './app-locators.ts';
import { expectAccessible, shoot } from './screen-checks.ts';

test.use({
  baseURL: e2eOrigin,
  // Offline on purpose: the app's own calls to the server fail (sync, hub, plan); no asset may.
  allowedConsoleErrors: [/ERR_INTERNET_DISCONNECTED at https?:\/\/[^/]+\/(api|auth|hubs)\//],
});

test('search: Ctrl+K, type, arrow, Enter lands on the item; offline too', async ({
  page,
  request,
}) => {
  test.setTimeout(150_000);
  const email = newEmail('search');
  await createConfirmedUser(request, email);
  await signInAt(page, email);
  await page.setViewportSize({ width: 1280, height: 860 });
  await page.goto('/projects');
  await expect(page.getByRole('heading', { name: 'No projects yet' })).toBeVisible();
  await openNewProject(page, 'Website relaunch', 'Aurora Labs');
  await page.getByRole('tab', { name: 'Tasks' }).click();
  await expect(page.getByRole('grid', { name: 'To do' })).toBeVisible();
  // Typing before the quick-add field holds focus would send the keys to the page.
  const quickAdd = page.getByRole('textbox', { name: 'Add a task to To do' });
  await expect(async () => {
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('n');
    await expect(quickAdd).toBeFocused({ timeout: 1_000 });
  }).toPass();
  for (const title of ['Logo refresh', 'Logo files', 'Copy deck']) {
    await page.keyboard.type(title);
    await page.keyboard.press('Enter');
    await expect(page.getByRole('grid', { name: 'To do' }).getByText(title)).toBeVisible();
  }

  // From another page, with the keyboard only. (The dashboard's first visit opens a welcome
  // dialog, over which the palette rightly does not open.)
  await page.goto('/clients');
  await expect(page.getByRole('heading', { level: 1, name: 'Clients' })).toBeVisible();
  await page.keyboard.press('Control+k');
  const dialog = page.getByRole('dialog', { name: 'Search' });
  const field = dialog.getByRole('textbox', { name: 'Search this workspace' });
  await expect(field).toBeFocused();
  await expect(dialog.getByText(/Type to search clients, projects, tasks/)).toBeVisible();
  await page.keyboard.type('logo');
  const results = dialog.getByRole('option');
  await expect(results).toHaveCount(2);
  await expect(dialog.getByRole('group', { name: 'Tasks' })).toBeVisible();
  await expect(results.first()).toContainText('Task · Website relaunch');
  await shoot(page, 'search-results');
  await expectAccessible(page, 'search results', '[role="dialog"]');

  const second = (await results.nth(1).textContent()) ?? '';
  await page.keyboard.press('ArrowDown');
  await expect(field).toHaveAttribute(
    'aria-activedescendant',
    (await results.nth(1).getAttribute('id'))!,
  );
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(/\/projects\/[^/]+\/[^/?]+\?tab=tasks$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Website relaunch' })).toBeFocused();

  // Offline: the index is on the device; a client opens from it.
  await waitForOfflineShell(page);
  await page.context().setOffline(true);
  await page.keyboard.press('Control+k');
  await expect(field).toBeFocused();
  // The recent result is offered before anything is typed.
  await expect(dialog.getByRole('group', { name: 'Recent' })).toContainText(
    second.replace('Task · Website relaunch', ''),
  );
  await page.keyboard.type('auro');
  await expect(dialog.getByRole('option', { name: /Aurora Labs/ }).first()).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/clients\/[^/]+$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Aurora Labs' })).toBeFocused();

  // Nothing found, then a 10,000-character query: capped, said so, nothing breaks.
  await page.keyboard.press('Control+k');
  await expect(field).toBeFocused();
  await page.keyboard.type('zebra');
  await expect(dialog.getByText('No results for “zebra”.')).toBeVisible();
  await field.fill(`logo ${'x'.repeat(10_000)}`);
  await expect(dialog.getByText(/only its first 200 characters are searched/)).toBeVisible();
  await shoot(page, 'search-long-query');
  await expectAccessible(page, 'long query', '[role="dialog"]');
  await field.fill('');
  await field.fill('copy');
  await expect(results).toHaveCount(1);

  // Escape closes and gives focus back to where it was; the header button opens it too.
  const button = page.getByRole('button', { name: 'Search', exact: true });
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await button.click();
  await expect(field).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(button).toBeFocused();
  await shoot(page, 'search-header');
  await page.context().setOffline(false);
});
