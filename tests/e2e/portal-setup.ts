import { expect, type Page } from '@playwright/test';
import { openNewProject } from './app-locators.ts';

/**
 * What the portal specs start from, as a member does it: a project "Shop front" for "Acme
 * Bakery" with one milestone and one uploaded text file, shown in the project's workspace.
 */
export async function projectWithMilestoneAndFile(
  page: Page,
  file: { name: string; content: string },
  milestone: { title: string; amount?: string } = { title: 'Sketches' },
): Promise<void> {
  await page.goto('/projects');
  await expect(page.getByRole('heading', { name: 'No projects yet' })).toBeVisible();
  await openNewProject(page, 'Shop front', 'Acme Bakery');

  await page.getByRole('tab', { name: 'Milestones' }).click();
  await page.getByRole('textbox', { name: 'Milestone title' }).fill(milestone.title);
  if (milestone.amount) await page.getByRole('textbox', { name: 'Amount' }).fill(milestone.amount);
  await page.getByRole('button', { name: 'Add milestone' }).click();
  await expect(page.getByRole('heading', { level: 3, name: milestone.title })).toBeVisible();

  await page.getByRole('tab', { name: 'Files' }).click();
  await page
    .locator('input[type="file"]')
    .setInputFiles([
      { name: file.name, mimeType: 'text/plain', buffer: Buffer.from(file.content) },
    ]);
  await expect(
    page.getByRole('list', { name: 'Files in All files' }).getByRole('button', {
      name: file.name,
      exact: true,
    }),
  ).toBeVisible({ timeout: 20_000 });
}
