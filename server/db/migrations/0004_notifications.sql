-- Notifications (issue 5) and the key that signs short-lived hub access tokens.

-- One row per notification per recipient. `actor_id` is whoever caused it (null for the system);
-- `project_id` has no foreign key because projects arrive in a later migration and a notification
-- outlives the project it pointed at (the link then leads to a "not found" screen).
CREATE TABLE notification (
  id           uuid        PRIMARY KEY,
  user_id      uuid        NOT NULL REFERENCES user_profile (id) ON DELETE CASCADE,
  type         text        NOT NULL CHECK (type ~ '^[a-z]+(-[a-z]+)*$'),
  title        text        NOT NULL CHECK (length(title) BETWEEN 1 AND 200),
  body         text        NOT NULL DEFAULT '' CHECK (length(body) <= 2000),
  link         text        CHECK (link IS NULL OR (link LIKE '/%' AND link NOT LIKE '//%')),
  is_read      boolean     NOT NULL DEFAULT false,
  actor_id     uuid        REFERENCES user_profile (id) ON DELETE SET NULL,
  workspace_id uuid        REFERENCES workspace (id) ON DELETE CASCADE,
  project_id   uuid,
  created_at   timestamptz NOT NULL DEFAULT now()
);

-- The list, newest first, page by page; the id breaks ties between rows of one instant.
CREATE INDEX notification_user_created_idx ON notification (user_id, created_at DESC, id DESC);
-- The unread badge is counted after every change.
CREATE INDEX notification_user_unread_idx ON notification (user_id) WHERE NOT is_read;

-- The secret hub tokens are signed with: one row, created by the first server that needs it, so
-- every process on this database (scale-out) and every restart accept the same tokens.
CREATE TABLE realtime_signing_key (
  id         smallint    PRIMARY KEY CHECK (id = 1),
  secret     bytea       NOT NULL CHECK (length(secret) >= 32),
  created_at timestamptz NOT NULL DEFAULT now()
);
