/**
 * The workspace's subscription (contract/endpoints/subscription.ts): read by any member, changed
 * by an owner or admin through Stripe (Checkout to start a plan, the customer portal for the
 * rest). The plan itself is only ever written by Stripe's webhooks (server/stripe/): nothing a
 * browser sends here changes it, so a buyer cannot grant themselves a plan by calling us.
 */
import type Stripe from 'stripe';
import type { WorkspaceSubscription } from '#contract/endpoints/subscription.ts';
import {
  SUBSCRIPTION_CANCEL_PATH,
  SUBSCRIPTION_SUCCESS_PATH,
} from '#contract/endpoints/subscription.ts';
import {
  billingIntervals,
  getPlan,
  planIdSchema,
  plans,
  UPGRADE_PATH,
} from '#contract/entities/plan.ts';
import * as v from 'valibot';
import type { Queryable } from '../db/database.ts';
import { storageUsed } from '../files/file-records.ts';
import { AppError, ErrorCode } from '../http/app-error.ts';
import type { ResourceHandlers } from '../http/endpoint-handler.ts';
import { PAYMENTS_NOT_CONFIGURED, type StripeGateway } from '../stripe/stripe-gateway.ts';
import { workspacePlan } from './plan-limits.ts';
import { requireWorkspaceRole } from './workspace-access.ts';

export interface SubscriptionHandlerDeps {
  /** null: payments are not configured (STRIPE_SECRET_KEY unset). */
  gateway: StripeGateway | null;
  /** PUBLIC_URL: Stripe sends the buyer back under it. */
  publicUrl: string;
}

const MANAGERS = ['owner', 'admin'] as const;
const NO_SUCH_CHECKOUT = 'There is no such checkout for your workspaces.';

interface SubscriptionRow {
  plan_id: string;
  billing_interval: string;
  status: string;
  cancel_at_period_end: boolean;
  current_period_end: string | Date | null;
  stripe_customer_id: string;
  stripe_subscription_id: string;
}

async function subscriptionRow(tx: Queryable, workspaceId: string) {
  const { rows } = await tx.query<SubscriptionRow>(
    `SELECT plan_id, billing_interval, status, cancel_at_period_end, current_period_end,
            stripe_customer_id, stripe_subscription_id
     FROM workspace_subscription WHERE workspace_id = $1`,
    [workspaceId],
  );
  return rows[0] ?? null;
}

const running = (row: SubscriptionRow | null) =>
  row !== null && (row.status === 'active' || row.status === 'past_due');

async function describe(
  tx: Queryable,
  workspaceId: string,
  canManage: boolean,
  gateway: StripeGateway | null,
): Promise<WorkspaceSubscription> {
  // One after another: the queries share the request's transaction (one connection).
  const plan = await workspacePlan(tx, workspaceId);
  const row = await subscriptionRow(tx, workspaceId);
  const counts = await tx.query<{ projects: number; members: number }>(
    `SELECT (SELECT count(*)::int FROM project WHERE workspace_id = $1 AND NOT archived
               AND status NOT IN ('completed', 'cancelled')) AS projects,
            (SELECT count(*)::int FROM workspace_member WHERE workspace_id = $1) AS members`,
    [workspaceId],
  );
  const usedBytes = await storageUsed(tx, workspaceId);
  const { limits } = plan;
  return {
    workspaceId,
    plan: plan.id,
    subscription: row
      ? {
          plan: v.parse(planIdSchema, row.plan_id),
          interval: row.billing_interval === 'year' ? 'year' : 'month',
          status: row.status as 'active' | 'past_due' | 'canceled',
          cancelAtPeriodEnd: row.cancel_at_period_end,
          currentPeriodEnd: row.current_period_end
            ? new Date(row.current_period_end).toISOString()
            : null,
        }
      : null,
    usage: {
      activeProjects: { used: counts.rows[0]?.projects ?? 0, max: limits.activeProjects },
      members: { used: counts.rows[0]?.members ?? 0, max: limits.members },
      storageBytes: { used: usedBytes, max: limits.storageBytes },
    },
    paymentsConfigured: gateway !== null,
    canManage,
    onSale: gateway
      ? plans.flatMap(({ id }) =>
          billingIntervals
            .filter((interval) => gateway.priceOf(id, interval) !== null)
            .map((interval) => ({ plan: id, interval })),
        )
      : [],
  };
}

/** A failed Stripe call in the contract's words: never Stripe's message or a 500. */
function stripeFailure(error: unknown): AppError {
  const { type, statusCode } = error as { type?: string; statusCode?: number };
  if (type === 'StripeConnectionError' || statusCode === undefined || statusCode >= 500) {
    return new AppError(
      ErrorCode.UNAVAILABLE,
      'Stripe could not be reached. Nothing was charged; try again in a minute.',
    );
  }
  return new AppError(
    ErrorCode.BUSINESS_RULE,
    'Stripe refused the request. Nothing was charged; the server log has the details.',
  );
}

async function callStripe<T>(
  logger: { warn: (o: object, m: string) => void },
  call: () => Promise<T>,
): Promise<T> {
  try {
    return await call();
  } catch (error) {
    logger.warn({ err: error }, 'stripe call failed');
    throw stripeFailure(error);
  }
}

function requireGateway(gateway: StripeGateway | null): StripeGateway {
  if (!gateway) throw new AppError(ErrorCode.CONFLICT, PAYMENTS_NOT_CONFIGURED);
  return gateway;
}

export function createSubscriptionHandlers(
  deps: SubscriptionHandlerDeps,
): ResourceHandlers<'subscription'> {
  const base = deps.publicUrl.replace(/\/+$/, '');
  const { gateway } = deps;
  return {
    async 'subscription/get-subscription'({ query, identity, tx }) {
      const role = await requireWorkspaceRole(tx, query.workspaceId, identity.userId);
      return describe(tx, query.workspaceId, role !== 'member', gateway);
    },

    async 'subscription/create-checkout-session'({ query, body, identity, tx, requestId, logger }) {
      await requireWorkspaceRole(tx, query.workspaceId, identity.userId, MANAGERS);
      const stripe = requireGateway(gateway);
      const plan = getPlan(body.plan);
      if (plan.prices.month === 0) {
        throw new AppError(
          ErrorCode.BUSINESS_RULE,
          `${plan.name} needs no checkout: to go back to it, cancel the subscription in the customer portal.`,
        );
      }
      const price = stripe.priceOf(body.plan, body.interval);
      if (!price) {
        throw new AppError(
          ErrorCode.BUSINESS_RULE,
          `The ${plan.name} plan is not sold ${body.interval === 'year' ? 'yearly' : 'monthly'} on this server.`,
          { details: [{ path: 'body.interval', message: 'No Stripe price is configured for it' }] },
        );
      }
      const row = await subscriptionRow(tx, query.workspaceId);
      if (running(row)) {
        // A second Checkout would start a second subscription, charged beside the first.
        throw new AppError(
          ErrorCode.CONFLICT,
          'This workspace already has a subscription: switch plans or intervals in the customer portal.',
        );
      }
      const params: Stripe.Checkout.SessionCreateParams = {
        mode: 'subscription',
        line_items: [{ price, quantity: 1 }],
        client_reference_id: query.workspaceId,
        metadata: {
          kind: 'subscription',
          workspaceId: query.workspaceId,
          plan: body.plan,
          interval: body.interval,
        },
        subscription_data: { metadata: { workspaceId: query.workspaceId } },
        success_url: `${base}${SUBSCRIPTION_SUCCESS_PATH}?session_id={CHECKOUT_SESSION_ID}`,
        cancel_url: `${base}${SUBSCRIPTION_CANCEL_PATH}`,
        // A workspace that subscribed before keeps its Stripe customer (and its invoices).
        ...(row
          ? { customer: row.stripe_customer_id }
          : identity.email
            ? { customer_email: identity.email }
            : {}),
      };
      const session = await callStripe(logger, () =>
        stripe.stripe.checkout.sessions.create(params, {
          // The same request retried (same X-Request-Id) gets the same Checkout, not a second.
          idempotencyKey: `checkout:${query.workspaceId}:${body.plan}:${body.interval}:${requestId}`,
        }),
      );
      if (!session.url) throw stripeFailure(new Error('Checkout session without a URL'));
      return { url: session.url };
    },

    async 'subscription/create-portal-session'({ query, identity, tx, logger }) {
      await requireWorkspaceRole(tx, query.workspaceId, identity.userId, MANAGERS);
      const stripe = requireGateway(gateway);
      const row = await subscriptionRow(tx, query.workspaceId);
      if (!row) {
        throw new AppError(
          ErrorCode.CONFLICT,
          'This workspace has no subscription to manage yet: pick a plan first.',
        );
      }
      const session = await callStripe(logger, () =>
        stripe.stripe.billingPortal.sessions.create({
          customer: row.stripe_customer_id,
          return_url: `${base}${UPGRADE_PATH}`,
        }),
      );
      return { url: session.url };
    },

    async 'subscription/get-checkout-session'({ query, identity, tx, logger }) {
      const stripe = requireGateway(gateway);
      let session: Stripe.Checkout.Session;
      try {
        session = await stripe.stripe.checkout.sessions.retrieve(query.sessionId);
      } catch (error) {
        if ((error as { code?: string }).code === 'resource_missing')
          throw new AppError(ErrorCode.NOT_FOUND, NO_SUCH_CHECKOUT);
        logger.warn({ err: error }, 'stripe call failed');
        throw stripeFailure(error);
      }
      const workspaceId = session.metadata?.workspaceId;
      const plan = v.safeParse(planIdSchema, session.metadata?.plan);
      if (session.metadata?.kind !== 'subscription' || !workspaceId || !plan.success)
        throw new AppError(ErrorCode.NOT_FOUND, NO_SUCH_CHECKOUT);
      let role;
      try {
        role = await requireWorkspaceRole(tx, workspaceId, identity.userId);
      } catch {
        // Someone else's checkout looks like none at all.
        throw new AppError(ErrorCode.NOT_FOUND, NO_SUCH_CHECKOUT);
      }
      const row = await subscriptionRow(tx, workspaceId);
      const subscriptionId =
        typeof session.subscription === 'string' ? session.subscription : session.subscription?.id;
      return {
        workspaceId,
        status:
          session.status === 'complete'
            ? 'complete'
            : session.status === 'expired'
              ? 'expired'
              : 'open',
        plan: plan.output,
        inForce: running(row) && row?.stripe_subscription_id === subscriptionId,
        subscription: await describe(tx, workspaceId, role !== 'member', gateway),
      };
    },
  };
}
