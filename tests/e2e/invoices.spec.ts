import type { Page } from '@playwright/test';
import { expect, test } from './console-guard.ts';
import { openNewProject, syncButton } from './app-locators.ts';
import { createConfirmedUser, e2eOrigin, newEmail, signInAt } from './e2e-accounts.ts';
import { expectAccessible, shoot } from './screen-checks.ts';

test.use({ baseURL: e2eOrigin });

async function addMilestone(page: Page, title: string, due: string, amount: string) {
  await page.getByRole('textbox', { name: 'Milestone title' }).fill(title);
  await page.getByRole('textbox', { name: 'Due date' }).fill(due);
  await page.getByRole('textbox', { name: 'Amount' }).fill(amount);
  await page.getByRole('button', { name: 'Add milestone' }).click();
  await expect(page.getByRole('heading', { level: 3, name: title })).toBeVisible();
}

/** The invoice's state, beside its heading. */
const badge = (page: Page) => page.getByRole('main').locator('header h1 + span');
const nav = (page: Page) => page.getByRole('navigation', { name: 'App' });

test('invoices: drafted from two milestones offline, synced, sent with a number, paid in two payments', async ({
  page,
  request,
}) => {
  test.setTimeout(150_000);
  const email = newEmail('invoices');
  await createConfirmedUser(request, email);
  await signInAt(page, email);
  await page.goto('/invoices');
  await expect(page.getByRole('heading', { level: 1, name: 'Invoices' })).toBeFocused();
  await expect(page.getByRole('heading', { name: 'No invoices yet' })).toBeVisible();
  await shoot(page, 'invoices-empty');
  await expectAccessible(page, 'invoices empty');

  await page.goto('/projects');
  await expect(page.getByRole('heading', { name: 'No projects yet' })).toBeVisible();
  await openNewProject(page, 'Brand refresh', 'Acme Studio');
  await page.getByRole('tab', { name: 'Milestones' }).click();
  await addMilestone(page, 'Discovery', '2026-12-01', '1200');
  await addMilestone(page, 'Design', '2026-12-15', '2500.50');
  await expect(syncButton(page)).toHaveAccessibleName('Sync: All changes saved', {
    timeout: 30_000,
  });

  // The train leaves the station: the invoice is drafted with no connection.
  await page.context().setOffline(true);
  await expect(syncButton(page)).toHaveAccessibleName(/Offline/);
  await nav(page).getByRole('link', { name: 'Invoices' }).click();
  await page.getByRole('button', { name: 'New invoice' }).first().click();
  const sheet = page.getByRole('dialog', { name: 'New invoice' });
  await sheet.getByRole('button', { name: /Project/ }).click();
  await page.getByRole('option', { name: 'Brand refresh' }).click();
  await sheet.getByRole('button', { name: 'Create draft' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Draft invoice' })).toBeFocused();

  await page.getByRole('button', { name: 'Add milestones' }).click();
  const milestones = page.getByRole('dialog', { name: 'Add milestones' });
  await milestones.locator('label', { hasText: 'Discovery' }).click();
  await milestones.locator('label', { hasText: 'Design' }).click();
  await expect(milestones.getByRole('checkbox', { name: /Design/ })).toBeChecked();
  await milestones.getByRole('button', { name: 'Add 2 lines' }).click();
  await expect(page.getByRole('textbox', { name: 'Description, line 2' })).toHaveValue('Design');

  // A line typed by hand, with tax: 2 × 100.00 at 20 % = 240.00.
  await page.getByRole('button', { name: 'Add line' }).click();
  await expect(page.getByRole('textbox', { name: 'Description, line 3' })).toBeFocused();
  await page.keyboard.type('Hosting');
  await page.getByRole('textbox', { name: 'Qty, line 3' }).fill('2');
  await page.getByRole('textbox', { name: 'Price (USD), line 3' }).fill('100');
  await page.getByRole('textbox', { name: 'Tax %, line 3' }).fill('500');
  await page.getByRole('textbox', { name: 'Discount %, line 3' }).click();
  await expect(page.getByText('The tax rate is at most 100%')).toBeVisible();
  await page.getByRole('textbox', { name: 'Tax %, line 3' }).fill('20');
  await page.getByRole('textbox', { name: 'Discount %, line 3' }).click();
  await page.getByRole('textbox', { name: 'Description, line 3' }).click();
  const totals = page.locator('dl').last();
  await expect(totals).toContainText('$3,940.50'); // 1,200 + 2,500.50 + 240
  await expect(page.getByText(/Sending needs a connection/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Send invoice' })).toBeDisabled();
  await shoot(page, 'invoice-draft-offline');
  await expectAccessible(page, 'invoice draft');

  // Back online: the draft syncs, then Send numbers it.
  await page.context().setOffline(false);
  await expect(syncButton(page)).toHaveAccessibleName('Sync: All changes saved', {
    timeout: 30_000,
  });
  await page.getByRole('button', { name: 'Send invoice' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'INV-0001' })).toBeVisible({
    timeout: 20_000,
  });
  await expect(badge(page)).toHaveText('Sent');

  // Paid in two parts; the second settles it.
  const amount = page.getByRole('textbox', { name: 'Amount (USD)' });
  await amount.fill('1000');
  await page.getByRole('button', { name: 'Record payment' }).click();
  await expect(badge(page)).toHaveText('Partly paid');
  await expect(amount).toHaveValue('2940.50');
  await amount.fill('9999');
  await page.getByRole('button', { name: 'Record payment' }).click();
  await expect(page.getByText('That is more than the $2,940.50 still due')).toBeVisible();
  await amount.fill('2940.50');
  await page.getByRole('button', { name: 'Record payment' }).click();
  await expect(badge(page)).toHaveText('Paid');
  await shoot(page, 'invoice-paid');
  await expectAccessible(page, 'invoice paid');

  await nav(page).getByRole('link', { name: 'Invoices' }).click();
  await expect(page.getByRole('link', { name: /INV-0001/ })).toBeVisible();
  await shoot(page, 'invoices-list');
  await expectAccessible(page, 'invoices list');
  await nav(page).getByRole('link', { name: 'Dashboard' }).click();
  await expect(page.getByRole('heading', { name: 'Money' })).toBeVisible();
  await expect(syncButton(page)).toHaveAccessibleName('Sync: All changes saved', {
    timeout: 30_000,
  });
});
