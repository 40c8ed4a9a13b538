-- The workspace's own subscription to Satchel (issue 16), kept from Stripe's webhooks, and the
-- Stripe events already applied. No row: the workspace is on Free.

-- One row per workspace: the subscription Stripe last told us about (re-read from Stripe on each
-- event, so the row is Stripe's current state, whatever order the events came in). A canceled
-- row stays, so the next Checkout reuses the workspace's Stripe customer.
CREATE TABLE workspace_subscription (
  workspace_id           uuid        PRIMARY KEY REFERENCES workspace (id) ON DELETE CASCADE,
  plan_id                text        NOT NULL CHECK (plan_id IN ('pro', 'agency')),
  billing_interval       text        NOT NULL CHECK (billing_interval IN ('month', 'year')),
  status                 text        NOT NULL CHECK (status IN ('active', 'past_due', 'canceled')),
  cancel_at_period_end   boolean     NOT NULL DEFAULT false,
  current_period_end     timestamptz,
  stripe_customer_id     text        NOT NULL,
  stripe_subscription_id text        NOT NULL UNIQUE,
  updated_at             timestamptz NOT NULL DEFAULT now()
);

-- Each Stripe event id once: inserted in the same transaction as the event's effect, so a retried
-- event (Stripe retries for days) finds its id and changes nothing.
CREATE TABLE stripe_event (
  id          text        PRIMARY KEY,
  type        text        NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now()
);
