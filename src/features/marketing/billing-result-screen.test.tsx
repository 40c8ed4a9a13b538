import { cleanup, render, screen } from '@testing-library/react';
import axe from 'axe-core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CallEndpoint } from '#contract/define-endpoint.ts';
import { getCheckoutSession } from '#contract/endpoints/subscription.ts';
import { CHECKOUT_POLL_ATTEMPTS } from '../billing/use-checkout-result.ts';
import { BillingResultScreen, safeBackPath } from './billing-result-screen.tsx';

afterEach(cleanup);

const SESSION = 'cs_test_a1B2c3D4e5F6g7H8';

/** Answers get-checkout-session with each answer in turn (the last one repeats). */
function fakeServer(...answers: (object | Error)[]) {
  let call = 0;
  return vi.fn((endpoint: { operation: string }) => {
    if (endpoint.operation !== getCheckoutSession.operation)
      return Promise.reject(new Error(`unexpected ${endpoint.operation}`));
    const answer = answers[Math.min(call++, answers.length - 1)]!;
    return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer);
  });
}

const session = (status: string, inForce: boolean) => ({
  workspaceId: '0192f3a0-0000-7000-8000-00000000000a',
  status,
  plan: 'pro',
  inForce,
  subscription: {},
});

function renderSuccess(server: ReturnType<typeof fakeServer>) {
  render(
    <BillingResultScreen
      kind="subscription-success"
      sessionId={SESSION}
      callEndpoint={server as unknown as CallEndpoint}
      pollMs={0}
    />,
  );
}

async function expectAccessible() {
  const results = await axe.run(document.body, {
    runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'],
    rules: { 'color-contrast': { enabled: false }, region: { enabled: false } },
  });
  expect(results.violations.map((violation) => violation.id)).toEqual([]);
}

describe('BillingResultScreen: back from a subscription Checkout', () => {
  it('confirms with the server, asking again until the webhook has landed', async () => {
    const server = fakeServer(
      session('complete', false),
      session('complete', false),
      session('complete', true),
    );
    renderSuccess(server);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(
      'Confirming your subscription',
    );
    expect(await screen.findByText('Your workspace is on Pro now.')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Subscription active');
    expect(server).toHaveBeenCalledTimes(3);
    expect(server).toHaveBeenCalledWith(getCheckoutSession, { query: { sessionId: SESSION } });
    await expectAccessible();
  });

  it('says the payment is in but the plan is late when the webhook never comes', async () => {
    const server = fakeServer(session('complete', false));
    renderSuccess(server);
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Payment received, plan on its way' }),
    ).toBeTruthy();
    expect(server).toHaveBeenCalledTimes(CHECKOUT_POLL_ATTEMPTS);
    expect(screen.getByText('You will not be charged twice.')).toBeTruthy();
  });

  it('says nothing was charged for an unfinished or expired checkout', async () => {
    renderSuccess(fakeServer(session('expired', false)));
    expect(
      await screen.findByText('This checkout expired before it was paid, so nothing was charged.'),
    ).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('No subscription started');
  });

  it('asks to sign in when the visitor is signed out, and says when the server fails', async () => {
    renderSuccess(fakeServer(Object.assign(new Error('no'), { status: 401 })));
    expect(await screen.findByRole('heading', { name: 'Sign in to see your plan' })).toBeTruthy();
    cleanup();
    renderSuccess(
      fakeServer(
        Object.assign(new Error('Payments are not configured on this server.'), { status: 409 }),
      ),
    );
    expect(
      await screen.findByText(/could not say how the checkout went\. Payments are not configured/),
    ).toBeTruthy();
  });

  it('asks nothing without a reference it recognises', () => {
    const server = fakeServer(session('complete', true));
    render(
      <BillingResultScreen
        kind="subscription-success"
        sessionId="<script>"
        callEndpoint={server as unknown as CallEndpoint}
      />,
    );
    expect(server).not.toHaveBeenCalled();
    expect(screen.getByTestId('payment-reference').textContent).toContain('we do not recognise');
  });
});

describe('BillingResultScreen: a client back from paying an invoice', () => {
  it('says the invoice will show as paid and links back to it', async () => {
    render(
      <BillingResultScreen
        kind="billing-success"
        sessionId={SESSION}
        back="/client/c1/p1?tab=invoices"
      />,
    );
    expect(screen.getByText(/your invoice will show as paid/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to your invoice' }).getAttribute('href')).toBe(
      '/client/c1/p1?tab=invoices',
    );
    await expectAccessible();
  });

  it('says nothing was charged after a failure, with a retry only to a path of this site', () => {
    render(
      <BillingResultScreen kind="billing-error" sessionId={SESSION} back="//evil.example/x" />,
    );
    expect(
      screen.getByText('The payment did not go through, and nothing was charged.'),
    ).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Try again' })).toBeNull();
    expect(safeBackPath('/client/a/b')).toBe('/client/a/b');
    for (const bad of ['https://evil.example', '//evil.example', '/\\evil', 'client/a', undefined])
      expect(safeBackPath(bad)).toBeNull();
  });
});
