/**
 * Steps of the e2e specs with two people in one workspace: a first project, Pro through the fake
 * Checkout (Free has room for the owner alone) and an invitation link made in Settings > Members.
 * `useFakeStripe` starts the fake Stripe for a spec (tests/fixtures/fake-stripe.ts).
 */
import type { Page } from '@playwright/test';
import { startFakeStripe, type FakeStripe } from '../fixtures/fake-stripe.ts';
import { expect, test } from './console-guard.ts';
import { e2eOrigin } from './e2e-accounts.ts';

/**
 * The fake of Stripe's API and pages (at STRIPE_API_BASE, posting signed webhooks to the server
 * under test) for the calling spec: started before its first test, closed after its last.
 */
export function useFakeStripe(): { readonly current: FakeStripe } {
  const holder = {} as { current: FakeStripe };
  test.beforeAll(async () => {
    holder.current = await startFakeStripe({
      webhookSecret: process.env.STRIPE_WEBHOOK_SECRET!,
      webhookUrl: `${e2eOrigin}/api/stripe/webhook`,
      port: Number(new URL(process.env.STRIPE_API_BASE!).port),
    });
  });
  test.afterAll(async () => {
    await holder.current.close();
  });
  return holder;
}

/** Settings > Billing: Pro monthly through the fake Checkout, back on the success page. */
export async function upgradeToPro(page: Page): Promise<void> {
  await page.goto('/settings?tab=billing');
  await page
    .getByRole('listitem', { name: 'Pro' })
    .getByRole('button', { name: 'Upgrade to Pro monthly' })
    .click();
  await expect(page.getByRole('heading', { name: 'Fake Checkout' })).toBeVisible();
  await page.getByRole('button', { name: 'Pay' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Subscription active' })).toBeVisible();
}

/** Settings > Members, New invitation: a link for a member; answers the link. */
export async function createInviteLink(page: Page): Promise<string> {
  await page.goto('/settings?tab=members');
  const form = page.getByRole('form', { name: 'New invitation' });
  await form.getByRole('button', { name: 'Create link' }).click();
  const linkField = page.getByRole('textbox', { name: 'Invitation link' });
  await expect(linkField).toHaveValue(new RegExp(`^${e2eOrigin}/invite/[A-Za-z0-9_-]{43}$`));
  return linkField.inputValue();
}

/** A first sign-in's /projects: waits for the empty list, then makes a project for a new client. */
export async function createFirstProject(page: Page, name: string, client: string): Promise<void> {
  await page.goto('/projects');
  // A first sign-in: the first pull lands before the empty list shows.
  await expect(page.getByRole('heading', { name: 'No projects yet' })).toBeVisible({
    timeout: 20_000,
  });
  await page.keyboard.press('n');
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('textbox', { name: 'Project name' }).fill(name);
  await dialog.getByRole('combobox', { name: 'Client' }).fill(client);
  await page.getByRole('option', { name: `Create new client “${client}”`, exact: true }).click();
  await dialog.getByRole('button', { name: 'Create project' }).click();
  await expect(dialog).toBeHidden();
}
