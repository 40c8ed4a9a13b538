/**
 * The handlers the webhook dispatches to, by kind. 'invoice' (a client paying an invoice through
 * Checkout, `metadata.kind === 'invoice'`) belongs to the invoices module; server/main.ts adds it
 * beside these. A kind with no handler is acknowledged and logged.
 */
import type { StripeEventHandlers } from './stripe-event-handler.ts';
import {
  createSubscriptionEventHandler,
  type SubscriptionEventDeps,
} from './subscription-state.ts';

export function createStripeEventHandlers(deps: SubscriptionEventDeps = {}): StripeEventHandlers {
  return { subscription: createSubscriptionEventHandler(deps) };
}
