/**
 * The Stripe client of this server and what it sells, built from STRIPE_* (server/env.ts). Made
 * per app, never a module-wide singleton: tests run apps with and without Stripe side by side, and
 * a fake's address is part of the client. `null` means payments are not configured: every
 * workspace stays on Free and the endpoints that would charge say so.
 */
import Stripe from 'stripe';
import type { BillingInterval, PlanId } from '#contract/entities/plan.ts';
import type { Env } from '../env.ts';

export interface StripeGateway {
  stripe: Stripe;
  webhookSecret: string;
  /** The Stripe price that sells this plan and interval; null when none is configured. */
  priceOf(planId: PlanId, interval: BillingInterval): string | null;
  /** Which plan and interval a Stripe price sells; null for a price this server does not sell. */
  planOfPrice(priceId: string): { planId: PlanId; interval: BillingInterval } | null;
}

export const PAYMENTS_NOT_CONFIGURED = 'Payments are not configured on this server.';

export function createStripeGateway(config: Env['stripe']): StripeGateway | null {
  if (!config) return null;
  const stripe = new Stripe(config.secretKey, {
    // Stripe's library retries network failures with the same Idempotency-Key.
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
    ...(config.apiBase
      ? { host: config.apiBase.host, port: config.apiBase.port, protocol: config.apiBase.protocol }
      : {}),
  });
  return {
    stripe,
    webhookSecret: config.webhookSecret,
    priceOf: (planId, interval) =>
      config.prices.find((price) => price.planId === planId && price.interval === interval)
        ?.priceId ?? null,
    planOfPrice: (priceId) => {
      const price = config.prices.find((candidate) => candidate.priceId === priceId);
      return price ? { planId: price.planId, interval: price.interval } : null;
    },
  };
}
