/**
 * The workspace's own subscription to Satchel (issue 16): what plan is in force, what the
 * workspace uses of its limits, and the two ways to change it, both through Stripe: Checkout to
 * start a paid plan, the customer portal to switch plan, change the card or cancel. These are
 * direct calls, never synced or queued: the plan is the server's (kept from Stripe's webhooks,
 * POST /api/stripe/webhook) and changing it needs the network.
 */
import * as v from 'valibot';
import { defineEndpoint } from '../define-endpoint.ts';
import { idSchema } from '../entities/ids.ts';
import { billingIntervalSchema, planIdSchema } from '../entities/plan.ts';
import { text } from '../text.ts';

/** Stripe's words, reduced to what the app acts on: past_due still has the plan, see the server. */
export const subscriptionStatuses = ['active', 'past_due', 'canceled'] as const;
export type SubscriptionStatus = (typeof subscriptionStatuses)[number];

/** Where Stripe's Checkout sends the buyer back ({CHECKOUT_SESSION_ID} is Stripe's placeholder). */
export const SUBSCRIPTION_SUCCESS_PATH = '/subscription/success';
export const SUBSCRIPTION_CANCEL_PATH = '/subscription/cancel';

/** Stripe Checkout session ids look like `cs_test_a1B2…` or `cs_live_…`. */
export const checkoutSessionIdSchema = v.pipe(
  text(),
  v.regex(/^cs_[A-Za-z0-9_]{8,250}$/, 'Not a checkout session id'),
);

const usageSchema = v.object({
  used: v.number(),
  /** The plan's allowance; null is unlimited. */
  max: v.nullable(v.number()),
});

export const workspaceSubscriptionSchema = v.object({
  workspaceId: text(),
  /** The plan in force now (free with no subscription, or one that ended). */
  plan: planIdSchema,
  /** The paid subscription behind it, if any (also a canceled one, for its words). */
  subscription: v.nullable(
    v.object({
      plan: planIdSchema,
      interval: billingIntervalSchema,
      status: v.picklist(subscriptionStatuses),
      /** The plan ends at currentPeriodEnd and is not renewed. */
      cancelAtPeriodEnd: v.boolean(),
      currentPeriodEnd: v.nullable(text()),
    }),
  ),
  usage: v.object({
    activeProjects: usageSchema,
    members: usageSchema,
    storageBytes: usageSchema,
  }),
  /** Stripe is configured on this server (else everything stays on Free). */
  paymentsConfigured: v.boolean(),
  /** The caller may change the subscription (owner or admin). */
  canManage: v.boolean(),
  /** Plans and intervals Checkout can sell here (a price is configured for them). */
  onSale: v.array(v.object({ plan: planIdSchema, interval: billingIntervalSchema })),
});
export type WorkspaceSubscription = v.InferOutput<typeof workspaceSubscriptionSchema>;

const workspaceQuery = v.strictObject({ workspaceId: idSchema });

export const getSubscription = defineEndpoint({
  resource: 'subscription',
  operation: 'get-subscription',
  method: 'GET',
  auth: 'user',
  summary:
    "The workspace's plan, its subscription and what it uses of the plan's limits; any member.",
  query: workspaceQuery,
  output: workspaceSubscriptionSchema,
});

export const createCheckoutSession = defineEndpoint({
  resource: 'subscription',
  operation: 'create-checkout-session',
  method: 'POST',
  auth: 'user',
  summary:
    'A Stripe Checkout page to start a paid plan, monthly or yearly; owner or admin only. A workspace that already has a subscription changes it in the customer portal instead (409).',
  query: workspaceQuery,
  body: v.strictObject({ plan: planIdSchema, interval: billingIntervalSchema }),
  output: v.object({ url: text() }),
});

export const createPortalSession = defineEndpoint({
  resource: 'subscription',
  operation: 'create-portal-session',
  method: 'POST',
  auth: 'user',
  summary:
    "Stripe's customer portal for the workspace: switch plan, change the card, cancel; owner or admin only.",
  query: workspaceQuery,
  output: v.object({ url: text() }),
});

export const getCheckoutSession = defineEndpoint({
  resource: 'subscription',
  operation: 'get-checkout-session',
  method: 'GET',
  auth: 'user',
  summary:
    'Where a Checkout the caller came back from stands: paid or not, and whether the plan it bought is in force yet (the webhook may land a moment after the buyer); members of its workspace only.',
  query: v.strictObject({ sessionId: checkoutSessionIdSchema }),
  output: v.object({
    workspaceId: text(),
    /** Stripe's word: complete (paid or being confirmed), open (not finished), expired. */
    status: v.picklist(['complete', 'open', 'expired']),
    /** The plan the Checkout sold. */
    plan: planIdSchema,
    /** The subscription it started is the one in force here now. */
    inForce: v.boolean(),
    subscription: workspaceSubscriptionSchema,
  }),
});

/** This file's operations, in the order the registry lists them. */
export const subscriptionEndpoints = [
  getSubscription,
  createCheckoutSession,
  createPortalSession,
  getCheckoutSession,
] as const;
