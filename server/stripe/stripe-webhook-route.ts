/**
 * POST /api/stripe/webhook: Stripe tells us something happened. Mounted at /api/stripe before the
 * API's JSON handling, because the signature covers the exact bytes sent: the body is read raw,
 * once, and nothing parses it before `constructEvent` has checked it against
 * STRIPE_WEBHOOK_SECRET within Stripe's default tolerance of 300 s. A missing or wrong signature,
 * a changed payload or a replay older than that is a 400 in the contract's error shape, and
 * nothing is stored.
 *
 * A verified event is dispatched by kind (stripe-event-handler.ts). Its effect and its id go in
 * one transaction: an id already there means Stripe retried it, answered 200 with no second
 * effect. An event no handler takes, or one that names nothing of ours, is acknowledged (200, so
 * Stripe stops retrying) and logged. A failure of ours (Stripe unreachable on the re-read, the
 * database down) answers 5xx and records nothing, so Stripe's retry applies it later.
 */
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type Stripe from 'stripe';
import type { Database } from '../db/database.ts';
import type { AppEnv } from '../http/app-env.ts';
import { AppError, ErrorCode } from '../http/app-error.ts';
import { stripeEventKind, type StripeEventHandlers } from './stripe-event-handler.ts';
import { PAYMENTS_NOT_CONFIGURED, type StripeGateway } from './stripe-gateway.ts';

export const STRIPE_WEBHOOK_PATH = '/api/stripe/webhook';

/** Stripe's events are a few KiB; a body far larger is not one. */
const MAX_EVENT_BYTES = 512 * 1024;

export const BAD_SIGNATURE =
  'The Stripe-Signature header does not match this body, or it is older than 5 minutes.';

export interface StripeWebhookDeps {
  db: Database;
  gateway: StripeGateway | null;
  handlers: StripeEventHandlers;
}

/** The sub-application to mount at /api/stripe. */
export function createStripeWebhookRoute(deps: StripeWebhookDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.post(
    '/webhook',
    bodyLimit({
      maxSize: MAX_EVENT_BYTES,
      onError: () => {
        throw new AppError(ErrorCode.PAYLOAD_TOO_LARGE, 'A Stripe event is never this large.');
      },
    }),
    async (c) => {
      const { gateway } = deps;
      if (!gateway) throw new AppError(ErrorCode.NOT_FOUND, PAYMENTS_NOT_CONFIGURED);
      const raw = new Uint8Array(await c.req.arrayBuffer());
      const signature = c.req.header('stripe-signature');
      if (!signature) throw new AppError(ErrorCode.VALIDATION_FAILED, BAD_SIGNATURE);
      let event: Stripe.Event;
      try {
        event = gateway.stripe.webhooks.constructEvent(raw, signature, gateway.webhookSecret);
      } catch {
        // Wrong secret, changed bytes, a timestamp outside the tolerance, or not JSON at all.
        throw new AppError(ErrorCode.VALIDATION_FAILED, BAD_SIGNATURE);
      }
      const logger = c
        .get('logger')
        .child({ stripeEventId: event.id, stripeEventType: event.type });
      const kind = stripeEventKind(event);
      const handler = kind ? deps.handlers[kind] : undefined;
      if (!handler) {
        logger.info({ kind }, 'stripe event acknowledged: nothing here handles it');
        return c.json({ received: true });
      }
      const seen = await deps.db.query('SELECT 1 FROM stripe_event WHERE id = $1', [event.id]);
      if (seen.rowCount > 0) {
        logger.info({ kind }, 'stripe event already applied: retry acknowledged');
        return c.json({ received: true });
      }
      const effect = await handler(event, { gateway, db: deps.db, logger });
      if (!effect) {
        logger.info({ kind }, 'stripe event acknowledged: it names nothing of ours');
        return c.json({ received: true });
      }
      const applied = await deps.db.transaction(async (tx) => {
        // Two deliveries at once: the second waits on this key, then finds it and does nothing.
        const { rowCount } = await tx.query(
          'INSERT INTO stripe_event (id, type) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING',
          [event.id, event.type],
        );
        if (rowCount === 0) return false;
        await effect.apply(tx);
        return true;
      });
      logger.info({ kind, applied, ...effect.summary }, 'stripe event');
      if (applied && effect.afterCommit) {
        await effect.afterCommit().catch((error: unknown) => {
          logger.error({ err: error }, 'stripe event: after-commit effect failed');
        });
      }
      return c.json({ received: true });
    },
  );
  return app;
}
