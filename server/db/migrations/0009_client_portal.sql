-- The client portal (contract/endpoints/client-portal.ts). A project's portal is server state, not
-- synced data: its password exists only as an argon2id hash, and turning it on or rotating the
-- password needs the server anyway. A row goes with its project.
CREATE TABLE project_portal (
  project_id      uuid        PRIMARY KEY REFERENCES project (id) ON DELETE CASCADE,
  workspace_id    uuid        NOT NULL REFERENCES workspace (id) ON DELETE CASCADE,
  enabled         boolean     NOT NULL DEFAULT false,
  password_hash   text,
  password_set_at timestamptz,
  last_opened_at  timestamptz,
  updated_by      uuid        NOT NULL,
  updated_at      timestamptz NOT NULL DEFAULT now(),
  CHECK (NOT enabled OR password_hash IS NOT NULL)
);

-- One row per browser that entered a portal password. The cookie carries a random token; only
-- its SHA-256 is kept, so a copy of this table opens nothing. A new password, turning the portal
-- off or deleting the project ends the project's sessions (rows deleted).
CREATE TABLE portal_session (
  id            uuid        PRIMARY KEY,
  token_hash    text        NOT NULL UNIQUE,
  project_id    uuid        NOT NULL REFERENCES project (id) ON DELETE CASCADE,
  client_id     uuid        NOT NULL,
  workspace_id  uuid        NOT NULL REFERENCES workspace (id) ON DELETE CASCADE,
  ip            text        NOT NULL,
  user_agent    text        NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now(),
  last_seen_at  timestamptz NOT NULL DEFAULT now(),
  expires_at    timestamptz NOT NULL
);
CREATE INDEX portal_session_project_idx ON portal_session (project_id);
