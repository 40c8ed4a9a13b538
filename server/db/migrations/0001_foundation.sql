-- Foundation: idempotency records and the two public forms (contact, feedback).
-- Applied inside one transaction with its schema_migrations row; keep it free of BEGIN/COMMIT
-- and of statements that cannot run in a transaction (CREATE INDEX CONCURRENTLY, VACUUM).

-- One stored response per Idempotency-Key, per caller scope ('user:<uuid>', 'ip:<addr>', 'public').
-- A concurrent duplicate insert fails with 23505 on the primary key, which the HTTP layer replays.
CREATE TABLE idempotency_key (
  scope         text        NOT NULL,
  key           uuid        NOT NULL,
  request_hash  text        NOT NULL,
  status        integer     NOT NULL,
  response_body jsonb,
  created_at    timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (scope, key)
);

-- Expiry sweeps delete by age.
CREATE INDEX idempotency_key_created_at_idx ON idempotency_key (created_at);

CREATE TABLE contact_message (
  id         uuid        PRIMARY KEY,
  name       text        NOT NULL,
  email      text        NOT NULL,
  subject    text        NOT NULL,
  message    text        NOT NULL,
  ip         text,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE feedback (
  id         uuid        PRIMARY KEY,
  rating     integer     NOT NULL CHECK (rating BETWEEN 1 AND 5),
  category   text        NOT NULL,
  message    text        NOT NULL,
  email      text,
  -- Set only from a verified access token; NULL for anonymous feedback.
  user_id    uuid,
  ip         text,
  created_at timestamptz NOT NULL DEFAULT now()
);
