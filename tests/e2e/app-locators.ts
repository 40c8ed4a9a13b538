/** Locators and waits several e2e specs share (the sync button, the offline shell, the board). */
import { expect, type Page } from '@playwright/test';

export const syncButton = (page: Page) => page.getByRole('button', { name: /^Sync: / });

/** The service worker controls the page, so a reload works without the network. */
export async function waitForOfflineShell(page: Page): Promise<void> {
  // waitForFunction needs a plain predicate: an async one returns a promise, which counts as true.
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
}

/** The card titles of one board column, top to bottom. */
export const titlesIn = (page: Page, column: string) =>
  page
    .getByRole('grid', { name: column })
    .locator('[data-task-id] > div > span:first-child')
    .allTextContents();

/**
 * On /projects: creates a project for a new client with the "n" shortcut and opens its
 * workspace (its h1 names it).
 */
export async function openNewProject(page: Page, name: string, client: string): Promise<void> {
  await page.keyboard.press('n');
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('textbox', { name: 'Project name' }).fill(name);
  await dialog.getByRole('combobox', { name: 'Client' }).fill(client);
  await page.getByRole('option', { name: `Create new client “${client}”`, exact: true }).click();
  await dialog.getByRole('button', { name: 'Create project' }).click();
  await expect(dialog).toBeHidden();
  await page.getByRole('link', { name }).click();
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
}
