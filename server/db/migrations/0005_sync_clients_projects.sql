-- Offline sync: a change log with a per-workspace sequence, push idempotency, and the first synced
-- entities (clients, projects).

-- One counter per workspace, bumped inside every writing transaction. Its row lock serialises the
-- writers of one workspace, so sequences commit in order and a pull can never skip a slower
-- transaction (the "per-space version" of Replicache). Workspaces never wait on each other.
CREATE TABLE workspace_seq (
  workspace_id uuid   PRIMARY KEY REFERENCES workspace (id) ON DELETE CASCADE,
  seq          bigint NOT NULL DEFAULT 0
);

-- Every entity change, written in the same transaction as the change. Rows are pruned after the
-- retention period; a cursor older than the oldest kept row gets `reset`.
CREATE TABLE change_log (
  workspace_id uuid        NOT NULL,
  seq          bigint      NOT NULL,
  table_name   text        NOT NULL,
  entity_id    uuid        NOT NULL,
  op           text        NOT NULL CHECK (op IN ('upsert', 'delete')),
  changed_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workspace_id, seq)
);
CREATE INDEX change_log_changed_at_idx ON change_log (changed_at);

-- Lowest sequence still kept per workspace (raised by pruning); cursors below it are stale.
CREATE TABLE change_log_floor (
  workspace_id uuid   PRIMARY KEY,
  min_seq      bigint NOT NULL
);

-- A device's sync identity belongs to one user.
CREATE TABLE sync_client (
  client_id       text        PRIMARY KEY,
  user_id         uuid        NOT NULL,
  last_client_seq bigint      NOT NULL DEFAULT 0,
  last_seen_at    timestamptz NOT NULL DEFAULT now()
);

-- One row per applied or permanently rejected pushed mutation: a replay returns it verbatim.
CREATE TABLE sync_mutation (
  mutation_id   uuid        PRIMARY KEY,
  client_id     text        NOT NULL,
  client_seq    bigint      NOT NULL,
  user_id       uuid        NOT NULL,
  request_hash  text        NOT NULL,
  status        integer     NOT NULL,
  response_body jsonb       NOT NULL,
  change_seq    bigint,
  created_at    timestamptz NOT NULL DEFAULT now(),
  UNIQUE (client_id, client_seq)
);
CREATE INDEX sync_mutation_created_at_idx ON sync_mutation (created_at);

CREATE TABLE client (
  id             uuid        PRIMARY KEY,
  workspace_id   uuid        NOT NULL REFERENCES workspace (id) ON DELETE CASCADE,
  name           text        NOT NULL,
  company        text,
  email          text,
  phone          text,
  address        text,
  website        text,
  notes_summary  text,
  tags           jsonb       NOT NULL DEFAULT '[]'::jsonb,
  status         text        NOT NULL CHECK (status IN ('lead', 'active', 'inactive')),
  currency       text        NOT NULL,
  locale         text,
  time_zone      text,
  archived       boolean     NOT NULL DEFAULT false,
  created_at     timestamptz NOT NULL DEFAULT now(),
  created_by     uuid        NOT NULL,
  updated_at     timestamptz NOT NULL DEFAULT now(),
  updated_by     uuid        NOT NULL,
  version        bigint      NOT NULL
);
CREATE INDEX client_workspace_idx ON client (workspace_id);

CREATE TABLE project (
  id             uuid        PRIMARY KEY,
  workspace_id   uuid        NOT NULL REFERENCES workspace (id) ON DELETE CASCADE,
  client_id      uuid        NOT NULL REFERENCES client (id),
  name           text        NOT NULL,
  description    text,
  status         text        NOT NULL CHECK (status IN ('planned', 'active', 'on_hold', 'completed', 'cancelled')),
  start_date     date,
  due_date       date,
  budget         numeric(14, 2),
  currency       text        NOT NULL,
  billing_type   text        NOT NULL CHECK (billing_type IN ('fixed', 'hourly', 'retainer', 'non_billable')),
  color          text,
  archived       boolean     NOT NULL DEFAULT false,
  created_at     timestamptz NOT NULL DEFAULT now(),
  created_by     uuid        NOT NULL,
  updated_at     timestamptz NOT NULL DEFAULT now(),
  updated_by     uuid        NOT NULL,
  version        bigint      NOT NULL
);
CREATE INDEX project_workspace_idx ON project (workspace_id);
CREATE INDEX project_client_idx ON project (client_id);
