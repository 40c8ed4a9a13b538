/**
 * The workspace's subscription as Stripe holds it, kept in `workspace_subscription`. Every
 * subscription event (Checkout completed, customer.subscription.*, Stripe's invoices of a
 * subscription) is only a trigger: the handler re-reads the subscription from Stripe and stores
 * what it says now, so events that arrive late, twice or out of order all end in Stripe's current
 * state. The plan comes from the subscription's price (a switch in the customer portal changes
 * the price, never our metadata); the workspace from the metadata we set at Checkout.
 */
import type Stripe from 'stripe';
import * as v from 'valibot';
import { idSchema } from '#contract/entities/ids.ts';
import type { BillingInterval, PlanId } from '#contract/entities/plan.ts';
import type { SubscriptionStatus } from '#contract/endpoints/subscription.ts';
import type { Queryable } from '../db/database.ts';
import type { StripeEventHandler } from './stripe-event-handler.ts';
import type { StripeGateway } from './stripe-gateway.ts';

export interface SubscriptionState {
  workspaceId: string;
  planId: PlanId;
  interval: BillingInterval;
  status: SubscriptionStatus;
  cancelAtPeriodEnd: boolean;
  currentPeriodEnd: Date | null;
  customerId: string;
  subscriptionId: string;
}

/**
 * Stripe's statuses in our three words. `trialing` has the plan; `past_due` keeps it while Stripe
 * retries the card (plan-limits.ts says why); `unpaid` (retries exhausted), `incomplete` (the
 * first payment never went through), `paused` and the ended ones do not.
 */
export function ourStatus(status: Stripe.Subscription.Status): SubscriptionStatus {
  if (status === 'active' || status === 'trialing') return 'active';
  if (status === 'past_due') return 'past_due';
  return 'canceled';
}

const idOf = (value: string | { id: string } | null | undefined): string | null =>
  value == null ? null : typeof value === 'string' ? value : value.id;

/** The subscription an event is about, or null. */
export function subscriptionIdOf(event: Stripe.Event): string | null {
  const object = event.data.object as {
    object?: string;
    id?: string;
    subscription?: string | { id: string } | null;
    parent?: { subscription_details?: { subscription?: string | { id: string } } | null } | null;
  };
  if (object.object === 'subscription') return object.id ?? null;
  if (object.object === 'checkout.session') return idOf(object.subscription);
  if (object.object === 'invoice') return idOf(object.parent?.subscription_details?.subscription);
  return null;
}

/** What we keep of a subscription; null when it is not ours (no workspace, a price we do not sell). */
export function readSubscriptionState(
  subscription: Stripe.Subscription,
  gateway: StripeGateway,
): SubscriptionState | null {
  const workspaceId = v.safeParse(idSchema, subscription.metadata?.workspaceId);
  if (!workspaceId.success) return null;
  const item = subscription.items.data[0];
  const plan = item ? gateway.planOfPrice(item.price.id) : null;
  const customerId = idOf(subscription.customer);
  if (!plan || !customerId) return null;
  return {
    workspaceId: workspaceId.output,
    planId: plan.planId,
    interval: plan.interval,
    status: ourStatus(subscription.status),
    // The portal cancels either way: at period end, or at a date (`cancel_at`).
    cancelAtPeriodEnd: subscription.cancel_at_period_end || subscription.cancel_at != null,
    currentPeriodEnd: item?.current_period_end ? new Date(item.current_period_end * 1000) : null,
    customerId,
    subscriptionId: subscription.id,
  };
}

/**
 * Stores the state. A workspace has one row: a newer subscription replaces an older one, but the
 * end of an older subscription never overwrites a newer one still running (its events can come
 * after the new one's).
 */
export async function applySubscriptionState(
  tx: Queryable,
  state: SubscriptionState,
): Promise<'stored' | 'kept-newer'> {
  const { rows } = await tx.query<{ stripe_subscription_id: string; status: string }>(
    'SELECT stripe_subscription_id, status FROM workspace_subscription WHERE workspace_id = $1 FOR UPDATE',
    [state.workspaceId],
  );
  const current = rows[0];
  if (
    current &&
    current.stripe_subscription_id !== state.subscriptionId &&
    current.status !== 'canceled' &&
    state.status === 'canceled'
  ) {
    return 'kept-newer';
  }
  await tx.query(
    `INSERT INTO workspace_subscription (workspace_id, plan_id, billing_interval, status,
       cancel_at_period_end, current_period_end, stripe_customer_id, stripe_subscription_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
     ON CONFLICT (workspace_id) DO UPDATE SET
       plan_id = excluded.plan_id, billing_interval = excluded.billing_interval,
       status = excluded.status, cancel_at_period_end = excluded.cancel_at_period_end,
       current_period_end = excluded.current_period_end,
       stripe_customer_id = excluded.stripe_customer_id,
       stripe_subscription_id = excluded.stripe_subscription_id, updated_at = now()`,
    [
      state.workspaceId,
      state.planId,
      state.interval,
      state.status,
      state.cancelAtPeriodEnd,
      state.currentPeriodEnd?.toISOString() ?? null,
      state.customerId,
      state.subscriptionId,
    ],
  );
  return 'stored';
}

/** Re-reads a subscription from Stripe; null when Stripe has no such subscription. */
export async function retrieveSubscription(
  gateway: StripeGateway,
  subscriptionId: string,
): Promise<Stripe.Subscription | null> {
  try {
    return await gateway.stripe.subscriptions.retrieve(subscriptionId);
  } catch (error) {
    if ((error as { code?: string }).code === 'resource_missing') return null;
    throw error;
  }
}

/** Who hears that a workspace's subscription changed (the hub, after commit). */
export interface SubscriptionEventDeps {
  publisher?: { publishSubscriptionChanged(workspaceId: string): Promise<void> };
}

/**
 * The 'subscription' kind's handler. The first read says which workspace the subscription is
 * for; the effect then takes that workspace's subscription lock and reads the subscription again,
 * so of two events applied at once the one that commits last has read after the other committed:
 * the row always ends at Stripe's latest state, never at an older read that lost the race. After
 * the commit the workspace's open apps are told, so a plan bought on one device is in force on the
 * others without a reload.
 */
export function createSubscriptionEventHandler(
  deps: SubscriptionEventDeps = {},
): StripeEventHandler {
  return async (event, { gateway, db }) => {
    const subscriptionId = subscriptionIdOf(event);
    if (!subscriptionId) return null;
    const first = await retrieveSubscription(gateway, subscriptionId);
    const state = first ? readSubscriptionState(first, gateway) : null;
    if (!state) return null;
    const { rowCount } = await db.query('SELECT 1 FROM workspace WHERE id = $1', [
      state.workspaceId,
    ]);
    if (rowCount === 0) return null;
    const summary: Record<string, unknown> = {
      workspaceId: state.workspaceId,
      subscriptionId,
      plan: state.planId,
      status: state.status,
    };
    return {
      summary,
      apply: async (tx) => {
        // A transaction-scoped lock of this workspace's subscription only (not the workspace row,
        // which orders every writer of the workspace and must not wait on Stripe).
        await tx.query(
          "SELECT pg_advisory_xact_lock(hashtextextended('stripe-subscription:' || $1, 0))",
          [state.workspaceId],
        );
        const latest = await retrieveSubscription(gateway, subscriptionId);
        const now = latest ? readSubscriptionState(latest, gateway) : null;
        if (!now || now.workspaceId !== state.workspaceId) {
          summary.outcome = 'gone';
          return;
        }
        Object.assign(summary, { plan: now.planId, status: now.status });
        summary.outcome = await applySubscriptionState(tx, now);
      },
      afterCommit: async () => {
        if (summary.outcome === 'stored') {
          await deps.publisher?.publishSubscriptionChanged(state.workspaceId);
        }
      },
    };
  };
}
