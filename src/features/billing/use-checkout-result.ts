/**
 * Where a subscription Checkout the visitor came back from stands, asked of the server (which
 * asks Stripe): paid or not, and whether the plan it bought is in force yet. Stripe sends the
 * buyer back at once, and its webhook may land a moment later, so a paid session whose plan is not
 * in force yet is asked again a few times ("confirming…") before the page says it is late.
 */
import { useEffect, useState } from 'react';
import type { CallEndpoint } from '#contract/define-endpoint.ts';
import { getCheckoutSession } from '#contract/endpoints/subscription.ts';
import type { PlanId } from '#contract/entities/plan.ts';
import { saveSubscription } from './workspace-plan.ts';

export type CheckoutResult =
  | { status: 'checking' }
  | { status: 'in-force'; plan: PlanId }
  /** Paid, but the webhook has not reached the server after every attempt. */
  | { status: 'late'; plan: PlanId }
  | { status: 'not-paid'; expired: boolean }
  | { status: 'signed-out' }
  | { status: 'failed'; message: string };

export const CHECKOUT_POLL_ATTEMPTS = 8;

export function useCheckoutResult(
  sessionId: string | null,
  callEndpoint: CallEndpoint | null,
  pollMs = 1500,
): CheckoutResult | null {
  const [result, setResult] = useState<CheckoutResult | null>(
    sessionId && callEndpoint ? { status: 'checking' } : null,
  );
  useEffect(() => {
    if (!sessionId || !callEndpoint) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const ask = async (attempt: number) => {
      try {
        const answer = await callEndpoint(getCheckoutSession, { query: { sessionId } });
        if (stopped) return;
        saveSubscription(answer.subscription);
        if (answer.status !== 'complete') {
          setResult({ status: 'not-paid', expired: answer.status === 'expired' });
        } else if (answer.inForce) {
          setResult({ status: 'in-force', plan: answer.plan });
        } else if (attempt + 1 >= CHECKOUT_POLL_ATTEMPTS) {
          setResult({ status: 'late', plan: answer.plan });
        } else {
          timer = setTimeout(() => void ask(attempt + 1), pollMs);
        }
      } catch (error) {
        if (stopped) return;
        const { status, message } = error as { status?: number; message?: string };
        setResult(
          status === 401
            ? { status: 'signed-out' }
            : {
                status: 'failed',
                message:
                  status === 0
                    ? "Can't reach the server. Check your connection, then reload this page."
                    : (message ?? 'Something went wrong!'),
              },
        );
      }
    };
    void ask(0);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [sessionId, callEndpoint, pollMs]);
  return result;
}
