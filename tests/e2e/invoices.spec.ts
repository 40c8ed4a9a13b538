/**
 * Invoices end to end, as issue 16 asks: the member drafts an invoice from two milestones with
 * no connection, it syncs when the connection is back, Send numbers it; the client opens it in
 * the project's portal and pays through Checkout (the local fake of Stripe's page and API,
 * tests/fixtures/fake-stripe.ts, which posts the signed webhook as Stripe does), and the member's
 * open invoice turns Paid live, with a notification saying who paid what. A second test records
 * manual payments: a partial one, one too many, then the rest.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './console-guard.ts';
import { openNewProject, syncButton } from './app-locators.ts';
import { upgradeToPro, useFakeStripe } from './team-setup.ts';
import { createConfirmedUser, e2eOrigin, newEmail, signInAt } from './e2e-accounts.ts';
import { expectAccessible, shoot } from './screen-checks.ts';

test.use({ baseURL: e2eOrigin });

useFakeStripe();

const portalPassword = 'blue lagoon 42';

/** The invoice's state, beside its heading. */
const badge = (page: Page) => page.getByRole('main').locator('header h1 + span');
const nav = (page: Page) => page.getByRole('navigation', { name: 'App' });

/** A new member, signed in. */
async function signUp(page: Page, request: APIRequestContext) {
  const email = newEmail('invoices');
  await createConfirmedUser(request, email);
  await signInAt(page, email);
}

/** On /projects: a project "Brand refresh" for "Acme Studio", opened on its Milestones tab. */
async function openProject(page: Page) {
  await page.goto('/projects');
  await expect(page.getByRole('heading', { name: 'No projects yet' })).toBeVisible();
  await openNewProject(page, 'Brand refresh', 'Acme Studio');
  await page.getByRole('tab', { name: 'Milestones' }).click();
}

async function addMilestone(page: Page, title: string, due: string, amount: string) {
  await page.getByRole('textbox', { name: 'Milestone title' }).fill(title);
  await page.getByRole('textbox', { name: 'Due date' }).fill(due);
  await page.getByRole('textbox', { name: 'Amount' }).fill(amount);
  await page.getByRole('button', { name: 'Add milestone' }).click();
  await expect(page.getByRole('heading', { level: 3, name: title })).toBeVisible();
}

/** From the app's nav: a draft invoice for "Brand refresh" with a line per milestone named. */
async function draftFromMilestones(page: Page, titles: string[]) {
  await nav(page).getByRole('link', { name: 'Invoices' }).click();
  await page.getByRole('button', { name: 'New invoice' }).first().click();
  const sheet = page.getByRole('dialog', { name: 'New invoice' });
  await sheet.getByRole('button', { name: /Project/ }).click();
  await page.getByRole('option', { name: 'Brand refresh' }).click();
  await sheet.getByRole('button', { name: 'Create draft' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Draft invoice' })).toBeFocused();

  await page.getByRole('button', { name: 'Add milestones' }).click();
  const milestones = page.getByRole('dialog', { name: 'Add milestones' });
  for (const title of titles) {
    await milestones.locator('label', { hasText: title }).click();
    await expect(milestones.getByRole('checkbox', { name: new RegExp(title) })).toBeChecked();
  }
  const lines = titles.length === 1 ? 'Add 1 line' : `Add ${titles.length} lines`;
  await milestones.getByRole('button', { name: lines }).click();
  for (const [index, title] of titles.entries()) {
    await expect(page.getByRole('textbox', { name: `Description, line ${index + 1}` })).toHaveValue(
      title,
    );
  }
}

/** Send numbers the draft: INV-0001 in a new workspace. */
async function send(page: Page) {
  await page.getByRole('button', { name: 'Send invoice' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'INV-0001' })).toBeVisible({
    timeout: 20_000,
  });
  await expect(badge(page)).toHaveText('Sent');
}

test('invoices: drafted from two milestones offline, synced, sent, paid by the client in the portal, paid live', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  await signUp(page, request);
  // Clients pay by card on a paid plan (Free shows the payment instructions instead).
  await upgradeToPro(page);
  await page.goto('/invoices');
  await expect(page.getByRole('heading', { level: 1, name: 'Invoices' })).toBeFocused();
  await expect(page.getByRole('heading', { name: 'No invoices yet' })).toBeVisible();
  await shoot(page, 'invoices-empty');
  await expectAccessible(page, 'invoices empty');

  await openProject(page);
  await addMilestone(page, 'Discovery', '2026-12-01', '1200');
  await addMilestone(page, 'Design', '2026-12-15', '2500.50');

  // The client's portal, on with a password (turning it on needs the connection).
  await page.getByRole('button', { name: 'Client portal…' }).click();
  const portal = page.getByRole('dialog');
  await portal.getByLabel('Password', { exact: true }).fill(portalPassword);
  await portal.getByRole('button', { name: 'Set password and turn on' }).click();
  await expect(portal.getByRole('switch', { name: 'Portal on' })).toBeChecked();
  const link = await portal.getByRole('textbox', { name: 'Portal link' }).inputValue();
  await page.keyboard.press('Escape');
  await expect(syncButton(page)).toHaveAccessibleName('Sync: All changes saved', {
    timeout: 30_000,
  });

  // The train leaves the station: the invoice is drafted with no connection.
  await page.context().setOffline(true);
  await expect(syncButton(page)).toHaveAccessibleName(/Offline/);
  await draftFromMilestones(page, ['Discovery', 'Design']);

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
  await send(page);

  // The client opens the portal, sees the invoice with what is due and pays by card.
  const clientContext = await browser.newContext();
  const client = await clientContext.newPage();
  await client.goto(new URL(link).pathname);
  await client.getByLabel('Password', { exact: true }).fill(portalPassword);
  await client.keyboard.press('Enter');
  await expect(client.getByRole('heading', { level: 1, name: 'Brand refresh' })).toBeFocused();
  const invoices = client.getByRole('region', { name: 'Invoices' });
  await expect(invoices.getByRole('heading', { name: 'INV-0001 · Brand refresh' })).toBeVisible();
  await expect(invoices.getByText('Viewed', { exact: false })).toBeVisible();
  await shoot(client, 'portal-invoice-due');
  await expectAccessible(client, 'portal invoices');
  await invoices.getByRole('button', { name: 'Pay $3,940.50 by card' }).click();
  await expect(client.getByRole('heading', { name: 'Fake Checkout' })).toBeVisible();
  await client.getByRole('button', { name: 'Pay' }).click();
  await expect(client).toHaveURL(/\/billing-success/);
  await expect(client.getByRole('heading', { level: 1 })).toBeVisible();
  await clientContext.close();

  // The member's invoice, open all along: paid, without a reload.
  await expect(badge(page)).toHaveText('Paid', { timeout: 20_000 });
  await expect(page.getByText(/Payment · Stripe/)).toBeVisible();
  await expect(
    page
      .getByRole('region', { name: 'Notifications' })
      .getByText(/Acme Studio paid \$3,940\.50 on INV-0001/),
  ).toBeVisible();
  await shoot(page, 'invoice-paid-by-card');
  await expectAccessible(page, 'invoice paid by card');

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

test('invoices: a sent invoice paid by hand in two payments, an overpayment refused', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  await signUp(page, request);
  await openProject(page);
  await addMilestone(page, 'Discovery', '2026-12-01', '3940.50');
  await draftFromMilestones(page, ['Discovery']);
  await expect(syncButton(page)).toHaveAccessibleName('Sync: All changes saved', {
    timeout: 30_000,
  });
  await send(page);

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
});
