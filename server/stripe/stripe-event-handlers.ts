/**
 * The handlers the webhook dispatches to, by kind. 'invoice' (a client paying an invoice through
 * Checkout, `metadata.kind === 'invoice'`) belongs to the invoices module, which registers it
 * here; until then such events are acknowledged and logged.
 */
import type { StripeEventHandlers } from './stripe-event-handler.ts';
import { subscriptionEventHandler } from './subscription-state.ts';

export const stripeEventHandlers: StripeEventHandlers = {
  subscription: subscriptionEventHandler,
};
