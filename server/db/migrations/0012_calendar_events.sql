-- Calendar events (contract/entities/calendar-event.ts) and the per-user secret of the ICS
-- subscription feed (GET /api/calendar.ics?token=…).

-- start/end: both YYYY-MM-DD (all day, end inclusive) or both UTC ISO instants, as the contract
-- writes them; text keeps them exactly as the devices hold them.
CREATE TABLE calendar_event (
  id               uuid        PRIMARY KEY,
  workspace_id     uuid        NOT NULL REFERENCES workspace (id) ON DELETE CASCADE,
  -- An optional link: a deleted project unlinks its events (the hook records each change).
  project_id       uuid        REFERENCES project (id) ON DELETE SET NULL,
  title            text        NOT NULL,
  starts_at        text        NOT NULL,
  ends_at          text        NOT NULL,
  location         text,
  notes            text,
  reminder_minutes integer     CHECK (reminder_minutes BETWEEN 0 AND 40320),
  created_at       timestamptz NOT NULL DEFAULT now(),
  created_by       uuid        NOT NULL,
  updated_at       timestamptz NOT NULL DEFAULT now(),
  updated_by       uuid        NOT NULL,
  version          bigint      NOT NULL,
  -- Both dates or both instants, and never ending before the start (normalized ISO text sorts
  -- like the times it names).
  CHECK ((length(starts_at) = 10) = (length(ends_at) = 10)),
  CHECK (starts_at <= ends_at)
);
CREATE INDEX calendar_event_workspace_idx ON calendar_event (workspace_id, starts_at);
CREATE INDEX calendar_event_project_idx ON calendar_event (project_id) WHERE project_id IS NOT NULL;

-- One feed secret per user: only its SHA-256 is kept (the URL is shown once). Revoking deletes
-- the row; regenerating replaces it, so an old URL stops at once.
CREATE TABLE calendar_feed (
  user_id      uuid        PRIMARY KEY REFERENCES user_profile (id) ON DELETE CASCADE,
  token_hash   bytea       NOT NULL UNIQUE,
  created_at   timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz
);
