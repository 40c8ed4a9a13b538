/**
 * The workspace's subscription end to end (issue 16): the Free plan's third active project is
 * refused with the way to upgrade, Settings > Billing sends the owner to Stripe Checkout (a local
 * fake of Stripe's API and pages, tests/fixtures/fake-stripe.ts, at STRIPE_API_BASE from
 * playwright.config.ts), paying there posts the signed webhook to the server and returns to
 * /subscription/success, which confirms the plan (and the owner's other device, Billing open,
 * shows Pro through the hub without a reload); Billing then shows Pro, the customer portal
 * opens and comes back, and the third project is created. Screens at 1280 and 360 px
 * (SCREENSHOT_DIR) and axe on each.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './console-guard.ts';
import { useFakeStripe } from './team-setup.ts';
import { waitForOfflineShell } from './app-locators.ts';
import { createConfirmedUser, e2eOrigin, newEmail, signInAt } from './e2e-accounts.ts';
import { expectAccessible, shoot } from './screen-checks.ts';

test.use({
  baseURL: e2eOrigin,
  // The offline part: the app's own requests fail while the network is off.
  allowedConsoleErrors: [/Failed to fetch|ERR_INTERNET_DISCONNECTED/],
});

const fake = useFakeStripe();

async function createProject(page: Page, name: string, client: string, isNew: boolean) {
  await page.keyboard.press('n');
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('textbox', { name: 'Project name' }).fill(name);
  await dialog.getByRole('combobox', { name: 'Client' }).fill(client);
  await page
    .getByRole('option', { name: isNew ? `Create new client “${client}”` : client, exact: true })
    .click();
  await dialog.getByRole('button', { name: 'Create project' }).click();
  return dialog;
}

test('upgrade through Checkout lifts the active-project limit', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(150_000);
  const email = newEmail('subscription');
  await createConfirmedUser(request, email);
  await signInAt(page, email);

  await page.goto('/projects');
  await expect(page.getByRole('heading', { name: 'No projects yet' })).toBeVisible();
  for (const name of ['Website relaunch', 'Brand book']) {
    const dialog = await createProject(page, name, 'Acme Studio', name === 'Website relaunch');
    await expect(dialog).toBeHidden();
  }
  const third = await createProject(page, 'Mobile app', 'Acme Studio', false);
  await expect(third.getByRole('alert')).toContainText('Free plan includes 2 active projects');
  await third.getByRole('link', { name: 'See plans and upgrade' }).click();

  await expect(page).toHaveURL(/\/settings\?tab=billing/);
  const yourPlan = page.getByRole('region', { name: 'Your plan' });
  await expect(yourPlan.getByText('Free', { exact: true })).toBeVisible();
  await expect(yourPlan.getByRole('meter', { name: 'Active projects' })).toHaveAttribute(
    'aria-valuetext',
    '2 of 2',
  );
  await shoot(page, 'billing-free');
  await expectAccessible(page, 'billing free');

  // The owner's other device has Billing open: it must learn of the new plan without a reload.
  const laptop = await (await browser.newContext({ baseURL: e2eOrigin })).newPage();
  await signInAt(laptop, email);
  await laptop.goto('/settings?tab=billing');
  const laptopPlan = laptop.getByRole('region', { name: 'Your plan' });
  await expect(laptopPlan.getByText('Free', { exact: true })).toBeVisible();

  const pro = page.getByRole('listitem', { name: 'Pro' });
  await pro.getByRole('button', { name: 'Upgrade to Pro monthly' }).click();
  // Stripe's Checkout (the fake's page): paying posts the signed webhook, then returns.
  await expect(page.getByRole('heading', { name: 'Fake Checkout' })).toBeVisible();
  expect(fake.current.requests.at(-1)).toMatchObject({
    path: '/v1/checkout/sessions',
    body: { mode: 'subscription', line_items: [{ price: 'price_e2e_pro_month' }] },
  });
  expect(fake.current.requests.at(-1)!.idempotencyKey).toMatch(/^checkout:/);
  await page.getByRole('button', { name: 'Pay' }).click();

  await expect(page).toHaveURL(/\/subscription\/success\?session_id=cs_test_/);
  await expect(page.getByRole('heading', { level: 1, name: 'Subscription active' })).toBeVisible();
  await expect(page.getByTestId('checkout-result')).toHaveText('Your workspace is on Pro now.');
  // The webhook's commit reached the laptop through the hub (subscriptionChanged).
  await expect(laptopPlan.getByText('Pro', { exact: true })).toBeVisible();
  await laptop.context().close();
  await shoot(page, 'subscription-success');
  await expectAccessible(page, 'subscription success');

  await page.getByRole('link', { name: 'Manage your plan' }).click();
  await expect(page).toHaveURL(/\/settings\?tab=billing/);
  await expect(yourPlan.getByText('Pro', { exact: true })).toBeVisible();
  await expect(yourPlan.getByText(/^Active, renews on /)).toBeVisible();
  await expect(yourPlan.getByText('2 projects, unlimited on Pro')).toBeVisible();
  await shoot(page, 'billing-pro');
  await expectAccessible(page, 'billing pro');

  // The customer portal (the fake's page) opens for this customer and comes back.
  await yourPlan.getByRole('button', { name: 'Manage payment method' }).click();
  await expect(page.getByRole('heading', { name: 'Fake customer portal' })).toBeVisible();
  await page.getByRole('link', { name: 'Return' }).click();
  await expect(page).toHaveURL(/\/settings\?tab=billing/);

  // Offline, Billing shows the plan this device last saw and offers nothing that needs the network.
  await expect(yourPlan.getByText('Pro', { exact: true })).toBeVisible();
  await waitForOfflineShell(page);
  await page.context().setOffline(true);
  await page.reload();
  await expect(
    yourPlan.getByText(/^Offline: this is your plan as this device last saw it/),
  ).toBeVisible();
  await expect(yourPlan.getByText('Pro', { exact: true })).toBeVisible();
  await expect(yourPlan.getByRole('button', { name: 'Manage payment method' })).toBeDisabled();
  await shoot(page, 'billing-offline');
  await expectAccessible(page, 'billing offline');
  await page.context().setOffline(false);

  await page.goto('/projects');
  await expect(page.getByRole('link', { name: 'Brand book' })).toBeVisible();
  const dialog = await createProject(page, 'Mobile app', 'Acme Studio', false);
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('link', { name: 'Mobile app' })).toBeVisible();
});
