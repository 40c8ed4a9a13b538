-- Invoices and their payments (contract/entities/invoice.ts, invoice-totals.ts) and the
-- workspace's invoice counter (send-invoice takes the next number in the sending transaction).

CREATE TABLE invoice (
  id             uuid        PRIMARY KEY,
  workspace_id   uuid        NOT NULL REFERENCES workspace (id) ON DELETE CASCADE,
  client_id      uuid        NOT NULL REFERENCES client (id),
  -- An optional link: a deleted project leaves its invoices, unlinked (they are records).
  project_id     uuid        REFERENCES project (id) ON DELETE SET NULL,
  title          text        NOT NULL DEFAULT 'Invoice',
  status         text        NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'sent', 'void')),
  number         integer     CHECK (number > 0),
  currency       text        NOT NULL DEFAULT 'USD' CHECK (currency ~ '^[A-Z]{3}$'),
  issue_date     date,
  due_date       date,
  payment_terms  text        NOT NULL DEFAULT 'net_30',
  lines          jsonb       NOT NULL DEFAULT '[]'::jsonb,
  notes          text,
  sent_at        text,
  viewed_at      text,
  created_at     timestamptz NOT NULL DEFAULT now(),
  created_by     uuid        NOT NULL,
  updated_at     timestamptz NOT NULL DEFAULT now(),
  updated_by     uuid        NOT NULL,
  version        bigint      NOT NULL,
  -- A number is given once, when sent, and never twice in a workspace.
  CHECK ((status = 'draft') = (number IS NULL)),
  UNIQUE (workspace_id, number)
);
CREATE INDEX invoice_workspace_idx ON invoice (workspace_id, created_at DESC);
CREATE INDEX invoice_client_idx ON invoice (client_id);

CREATE TABLE invoice_payment (
  id             uuid        PRIMARY KEY,
  workspace_id   uuid        NOT NULL REFERENCES workspace (id) ON DELETE CASCADE,
  invoice_id     uuid        NOT NULL REFERENCES invoice (id),
  kind           text        NOT NULL DEFAULT 'payment' CHECK (kind IN ('payment', 'refund')),
  amount         bigint      NOT NULL CHECK (amount > 0),
  method         text        NOT NULL DEFAULT 'bank_transfer',
  paid_on        date        NOT NULL,
  reference      text,
  external_id    text,
  created_at     timestamptz NOT NULL DEFAULT now(),
  created_by     uuid        NOT NULL,
  updated_at     timestamptz NOT NULL DEFAULT now(),
  updated_by     uuid        NOT NULL,
  version        bigint      NOT NULL
);
CREATE INDEX invoice_payment_invoice_idx ON invoice_payment (invoice_id);
-- A Stripe charge is recorded once, however often its event is delivered.
CREATE UNIQUE INDEX invoice_payment_external_idx ON invoice_payment (workspace_id, external_id)
  WHERE external_id IS NOT NULL;

-- The last number given per workspace. Its row lock orders concurrent sends; a send that rolls
-- back gives its number back with it, so numbers have no gaps.
CREATE TABLE invoice_counter (
  workspace_id   uuid        PRIMARY KEY REFERENCES workspace (id) ON DELETE CASCADE,
  last_number    integer     NOT NULL DEFAULT 0
);
