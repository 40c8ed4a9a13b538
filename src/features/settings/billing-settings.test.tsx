import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CallEndpoint } from '#contract/define-endpoint.ts';
import {
  createCheckoutSession,
  createPortalSession,
  getSubscription,
  type WorkspaceSubscription,
} from '#contract/endpoints/subscription.ts';
import { plans } from '#contract/entities/plan.ts';
import { refreshSubscription } from '../billing/workspace-plan.ts';
import { BillingSettings } from './billing-settings.tsx';

const WORKSPACE = '0192f3a0-0000-7000-8000-00000000000a';

beforeEach(() => localStorage.clear());
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  Object.defineProperty(navigator, 'onLine', { value: true, configurable: true });
});

function freeWorkspace(over: Partial<WorkspaceSubscription> = {}): WorkspaceSubscription {
  return {
    workspaceId: WORKSPACE,
    plan: 'free',
    subscription: null,
    usage: {
      activeProjects: { used: 2, max: 2 },
      members: { used: 1, max: 1 },
      storageBytes: { used: 512 * 1024 ** 2, max: 1024 ** 3 },
    },
    paymentsConfigured: true,
    canManage: true,
    onSale: [
      { plan: 'pro', interval: 'month' },
      { plan: 'pro', interval: 'year' },
      { plan: 'agency', interval: 'month' },
      { plan: 'agency', interval: 'year' },
    ],
    ...over,
  };
}

const proWorkspace = (
  subscription: Partial<NonNullable<WorkspaceSubscription['subscription']>> = {},
): WorkspaceSubscription =>
  freeWorkspace({
    plan: subscription.status === 'canceled' ? 'free' : 'pro',
    subscription: {
      plan: 'pro',
      interval: 'year',
      status: 'active',
      cancelAtPeriodEnd: false,
      currentPeriodEnd: '2027-03-01T12:00:00.000Z',
      ...subscription,
    },
    usage: {
      activeProjects: { used: 5, max: null },
      members: { used: 1, max: 2 },
      storageBytes: { used: 0, max: 50 * 1024 ** 3 },
    },
  });

function fakeServer(answer: WorkspaceSubscription | (() => Promise<WorkspaceSubscription>)) {
  return vi.fn((endpoint: { operation: string }, input: { body?: unknown }): Promise<unknown> => {
    if (endpoint.operation === getSubscription.operation)
      return typeof answer === 'function' ? answer() : Promise.resolve(answer);
    if (endpoint.operation === createCheckoutSession.operation)
      return Promise.resolve({ url: `https://checkout.stripe.test/${JSON.stringify(input.body)}` });
    if (endpoint.operation === createPortalSession.operation)
      return Promise.resolve({ url: 'https://billing.stripe.test/portal' });
    return Promise.reject(new Error(`unexpected ${endpoint.operation}`));
  });
}

function renderBilling(server: ReturnType<typeof fakeServer>, openUrl = vi.fn()) {
  render(
    <BillingSettings
      workspaceId={WORKSPACE}
      callEndpoint={server as unknown as CallEndpoint}
      openUrl={openUrl}
    />,
  );
  return openUrl;
}

async function expectAccessible() {
  const results = await axe.run(
    { include: [document.body], exclude: ['[data-live-announcer]'] },
    {
      runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'],
      rules: { 'color-contrast': { enabled: false }, region: { enabled: false } },
    },
  );
  expect(results.violations.map((violation) => violation.id)).toEqual([]);
}

describe('BillingSettings', () => {
  it('shows the plan from the server, usage against its limits, and upgrades through Checkout', async () => {
    const server = fakeServer(freeWorkspace());
    const openUrl = renderBilling(server);
    const yourPlan = await screen.findByRole('region', { name: 'Your plan' });
    expect(within(yourPlan).getByText('Free')).toBeTruthy();
    const projects = within(yourPlan).getByRole('meter', { name: 'Active projects' });
    expect(projects.getAttribute('aria-valuetext')).toBe('2 of 2');
    expect(
      within(yourPlan).getByRole('meter', { name: 'File storage' }).getAttribute('aria-valuetext'),
    ).toBe('512 MB of 1 GB');
    const free = screen.getByRole('listitem', { name: 'Free' });
    expect(within(free).getByText('Current plan')).toBeTruthy();
    await expectAccessible();

    const pro = screen.getByRole('listitem', { name: 'Pro' });
    await userEvent.click(within(pro).getByRole('button', { name: 'Upgrade to Pro yearly' }));
    expect(server).toHaveBeenCalledWith(createCheckoutSession, {
      query: { workspaceId: WORKSPACE },
      body: { plan: 'pro', interval: 'year' },
    });
    expect(openUrl).toHaveBeenCalledWith(
      'https://checkout.stripe.test/{"plan":"pro","interval":"year"}',
    );
  });

  it('follows a plan change the hub announces, without a reload', async () => {
    let answer = freeWorkspace();
    const server = fakeServer(() => Promise.resolve(answer));
    renderBilling(server);
    const yourPlan = await screen.findByRole('region', { name: 'Your plan' });
    expect(within(yourPlan).getByText('Free')).toBeTruthy();
    // Another device bought Pro; Stripe's webhook landed and the hub told this tab.
    answer = proWorkspace();
    await refreshSubscription(server, WORKSPACE);
    expect(await within(yourPlan).findByText('Pro')).toBeTruthy();
    expect(
      within(yourPlan).getByRole('meter', { name: 'Members' }).getAttribute('aria-valuetext'),
    ).toBe('1 of 2');
  });

  it('lists every plan of the contract with its prices', async () => {
    renderBilling(fakeServer(freeWorkspace()));
    await screen.findByRole('region', { name: 'Your plan' });
    const items = within(screen.getByRole('region', { name: 'Plans' })).getAllByRole('listitem', {
      name: (name) => plans.some((plan) => plan.name === name),
    });
    expect(items.map((item) => within(item).getByRole('heading').textContent)).toEqual(
      plans.map((plan) => plan.name),
    );
    expect(items[1]!.textContent).toContain(
      '$15 / month, or $150 / year ($12.50 a month, save $30)',
    );
  });

  it('says the status in words and sends changes to the customer portal', async () => {
    const server = fakeServer(proWorkspace({ cancelAtPeriodEnd: true }));
    const openUrl = renderBilling(server);
    const yourPlan = await screen.findByRole('region', { name: 'Your plan' });
    expect(yourPlan.textContent).toMatch(/Active, and cancels on March 1, 2027/);
    expect(
      within(yourPlan).queryByRole('meter', { name: 'Active projects' }),
      'unlimited has no bar',
    ).toBeNull();
    expect(yourPlan.textContent).toContain('5 projects, unlimited on Pro');
    // No second subscription through Checkout: the portal switches plans.
    expect(screen.queryByRole('button', { name: /Upgrade to/ })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Manage payment method' }));
    expect(server).toHaveBeenCalledWith(createPortalSession, {
      query: { workspaceId: WORKSPACE },
    });
    expect(openUrl).toHaveBeenCalledWith('https://billing.stripe.test/portal');
    expect(
      within(screen.getByRole('listitem', { name: 'Free' })).getByRole('button', {
        name: 'Downgrade: cancel in the portal',
      }),
    ).toBeTruthy();
    await expectAccessible();
  });

  it('tells a past-due workspace what to do, and an ended one that it is on Free', async () => {
    renderBilling(fakeServer(proWorkspace({ status: 'past_due' })));
    expect((await screen.findByRole('alert')).textContent).toMatch(
      /Past due: the last payment for Pro did not go through.*Update the payment method/,
    );
    cleanup();
    renderBilling(fakeServer(proWorkspace({ status: 'canceled' })));
    expect(await screen.findByText(/Your Pro subscription has ended/)).toBeTruthy();
  });

  it('says when payments are not configured, with no button pretending to work', async () => {
    renderBilling(fakeServer(freeWorkspace({ paymentsConfigured: false, onSale: [] })));
    expect(await screen.findByText(/Payments are not configured on this server\./)).toBeTruthy();
    expect(screen.queryByRole('button')).toBeNull();
    await expectAccessible();
  });

  it('shows a member the plan read-only, saying why', async () => {
    renderBilling(fakeServer({ ...proWorkspace(), canManage: false }));
    expect(
      await screen.findByText(/only the workspace's owner or an admin can change it/),
    ).toBeTruthy();
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('offline: shows the last plan this device saw and offers nothing that needs the network', async () => {
    const online = fakeServer(freeWorkspace());
    renderBilling(online);
    await screen.findByRole('region', { name: 'Your plan' });
    cleanup();
    Object.defineProperty(navigator, 'onLine', { value: false, configurable: true });
    const offline = fakeServer(() =>
      Promise.reject(Object.assign(new Error('offline'), { status: 0 })),
    );
    renderBilling(offline);
    expect(
      await screen.findByText(/Offline: this is your plan as this device last saw it/),
    ).toBeTruthy();
    for (const button of screen.getAllByRole('button'))
      expect(
        button.getAttribute('disabled') !== null || button.getAttribute('aria-disabled') === 'true',
      ).toBe(true);
    cleanup();
    localStorage.clear();
    renderBilling(
      fakeServer(() => Promise.reject(Object.assign(new Error('offline'), { status: 0 }))),
    );
    expect((await screen.findByRole('alert')).textContent).toMatch(/Billing needs the network/);
  });

  it('says what went wrong when Stripe cannot be reached', async () => {
    const server = fakeServer(freeWorkspace());
    server.mockImplementation((endpoint: { operation: string }) =>
      endpoint.operation === getSubscription.operation
        ? Promise.resolve(freeWorkspace())
        : Promise.reject(
            Object.assign(new Error('Stripe could not be reached. Nothing was charged.'), {
              status: 503,
            }),
          ),
    );
    const openUrl = renderBilling(server);
    await userEvent.click(await screen.findByRole('button', { name: 'Upgrade to Agency monthly' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Stripe could not be reached');
    expect(openUrl).not.toHaveBeenCalled();
  });
});
