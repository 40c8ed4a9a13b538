/**
 * A client pays an invoice in the portal by card: the member sends an invoice for a milestone,
 * the client opens the project's portal, sees it with what is due, pays through Checkout (the
 * local fake of Stripe's page and API, tests/fixtures/fake-stripe.ts, which posts the signed
 * webhook as Stripe does) and lands on the payment result page; the member's open invoice turns
 * Paid live, and a notification says who paid what.
 */
import { openNewProject } from './app-locators.ts';
import { expect, test } from './console-guard.ts';
import { useFakeStripe } from './team-setup.ts';
import { createConfirmedUser, e2eOrigin, newEmail, signInAt } from './e2e-accounts.ts';
import { expectAccessible, shoot } from './screen-checks.ts';

test.use({ baseURL: e2eOrigin });

useFakeStripe();

test('invoice payment: the client pays in the portal by card and the member sees it paid live', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const email = newEmail('invoice-pay');
  await createConfirmedUser(request, email);
  await signInAt(page, email);
  await page.goto('/projects');
  await expect(page.getByRole('heading', { name: 'No projects yet' })).toBeVisible();
  await openNewProject(page, 'Brand refresh', 'Acme Studio');
  await page.getByRole('tab', { name: 'Milestones' }).click();
  await page.getByRole('textbox', { name: 'Milestone title' }).fill('Discovery');
  await page.getByRole('textbox', { name: 'Amount' }).fill('1200');
  await page.getByRole('button', { name: 'Add milestone' }).click();
  await expect(page.getByRole('heading', { level: 3, name: 'Discovery' })).toBeVisible();

  await page.getByRole('button', { name: 'Client portal…' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Password', { exact: true }).fill('blue lagoon 42');
  await dialog.getByRole('button', { name: 'Set password and turn on' }).click();
  await expect(dialog.getByRole('switch', { name: 'Portal on' })).toBeChecked();
  const link = await dialog.getByRole('textbox', { name: 'Portal link' }).inputValue();
  await page.keyboard.press('Escape');

  // The member bills the milestone and sends the invoice.
  await page
    .getByRole('navigation', { name: 'App' })
    .getByRole('link', { name: 'Invoices' })
    .click();
  await page.getByRole('button', { name: 'New invoice' }).first().click();
  const sheet = page.getByRole('dialog', { name: 'New invoice' });
  await sheet.getByRole('button', { name: /Project/ }).click();
  await page.getByRole('option', { name: 'Brand refresh' }).click();
  await sheet.getByRole('button', { name: 'Create draft' }).click();
  await page.getByRole('button', { name: 'Add milestones' }).click();
  const milestones = page.getByRole('dialog', { name: 'Add milestones' });
  await milestones.locator('label', { hasText: 'Discovery' }).click();
  await milestones.getByRole('button', { name: 'Add 1 line' }).click();
  await expect(page.getByRole('textbox', { name: 'Description, line 1' })).toHaveValue('Discovery');
  await page.getByRole('button', { name: 'Send invoice' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'INV-0001' })).toBeVisible({
    timeout: 20_000,
  });
  const badge = page.getByRole('main').locator('header h1 + span');
  await expect(badge).toHaveText('Sent');

  // The client opens the portal and pays.
  const clientContext = await browser.newContext();
  const client = await clientContext.newPage();
  await client.goto(new URL(link).pathname);
  await client.getByLabel('Password', { exact: true }).fill('blue lagoon 42');
  await client.keyboard.press('Enter');
  await expect(client.getByRole('heading', { level: 1, name: 'Brand refresh' })).toBeFocused();
  const invoices = client.getByRole('region', { name: 'Invoices' });
  await expect(invoices.getByRole('heading', { name: 'INV-0001 · Brand refresh' })).toBeVisible();
  await expect(invoices.getByText('Viewed', { exact: false })).toBeVisible();
  await shoot(client, 'portal-invoice-due');
  await expectAccessible(client, 'portal invoices');
  await invoices.getByRole('button', { name: 'Pay $1,200.00 by card' }).click();
  await expect(client.getByRole('heading', { name: 'Fake Checkout' })).toBeVisible();
  await client.getByRole('button', { name: 'Pay' }).click();
  await expect(client).toHaveURL(/\/billing-success/);
  await expect(client.getByRole('heading', { level: 1 })).toBeVisible();

  // The member's open invoice: paid, without a reload.
  await expect(badge).toHaveText('Paid', { timeout: 20_000 });
  await expect(page.getByText(/Payment · Stripe/)).toBeVisible();
  await expect(
    page
      .getByRole('region', { name: 'Notifications' })
      .getByText(/Acme Studio paid \$1,200\.00 on INV-0001/),
  ).toBeVisible();
  await shoot(page, 'invoice-paid-by-card');
  await clientContext.close();
});
