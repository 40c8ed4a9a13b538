/**
 * How a verified Stripe event finds what to do (server/stripe/stripe-webhook-route.ts): its kind
 * picks one handler, which reads what it needs (from Stripe: events are triggers, their payload
 * may be stale or out of order) and answers the effect to apply, or null when the event names
 * nothing of ours. The route applies the effect in one transaction with the event's id, so an
 * event Stripe retries changes nothing the second time.
 *
 * The kinds are ours: Checkout sessions and payments carry `metadata.kind` set when we made them;
 * subscription events are 'subscription'. 'invoice' (a client paying a freelancer's invoice) is
 * registered by the invoices module beside 'subscription' (stripe-event-handlers.ts).
 */
import type Stripe from 'stripe';
import type { Queryable } from '../db/database.ts';
import type { Logger } from '../logger.ts';
import type { StripeGateway } from './stripe-gateway.ts';

export const stripeEventKinds = ['subscription', 'invoice'] as const;
export type StripeEventKind = (typeof stripeEventKinds)[number];

export interface StripeEffect {
  /** What the effect is about, for the log line. */
  summary: Record<string, unknown>;
  /** Writes the effect; runs in the transaction that records the event id. */
  apply(tx: Queryable): Promise<void>;
  /** After the commit, only when it applied (live notifications). */
  afterCommit?: () => Promise<void>;
}

export interface StripeEventContext {
  gateway: StripeGateway;
  /** Reads outside the effect's transaction (which workspace an id belongs to). */
  db: Queryable;
  logger: Logger;
}

export type StripeEventHandler = (
  event: Stripe.Event,
  ctx: StripeEventContext,
) => Promise<StripeEffect | null>;

/** The registration point: one handler per kind; a kind without one is acknowledged and logged. */
export type StripeEventHandlers = Partial<Record<StripeEventKind, StripeEventHandler>>;

function isKind(value: unknown): value is StripeEventKind {
  return stripeEventKinds.includes(value as StripeEventKind);
}

/** Which of our kinds an event is about; null for one we never asked for. */
export function stripeEventKind(event: Stripe.Event): StripeEventKind | null {
  const object = event.data.object as {
    object?: string;
    mode?: string;
    metadata?: Record<string, string> | null;
    parent?: { subscription_details?: { subscription?: unknown } | null } | null;
  };
  const declared = object.metadata?.kind;
  if (isKind(declared)) return declared;
  if (event.type.startsWith('customer.subscription.')) return 'subscription';
  // A Checkout in subscription mode made without our metadata (e.g. a payment link) still
  // starts a subscription: its own metadata decides whether it is ours.
  if (event.type.startsWith('checkout.session.') && object.mode === 'subscription')
    return 'subscription';
  // Stripe's own invoices of a subscription (renewals, failed charges).
  if (event.type.startsWith('invoice.') && object.parent?.subscription_details?.subscription)
    return 'subscription';
  return null;
}
