-- Change requests (contract/entities/change-request.ts), milestones a member hides from the
-- client portal, the record of every portal sign-off, and activity lines whose actor is the
-- project's client rather than a member.

CREATE TABLE change_request (
  id                   uuid        PRIMARY KEY,
  workspace_id         uuid        NOT NULL REFERENCES workspace (id) ON DELETE CASCADE,
  project_id           uuid        NOT NULL REFERENCES project (id),
  title                text        NOT NULL,
  description          text,
  desired_date         date,
  status               text        NOT NULL DEFAULT 'submitted' CHECK (status IN ('submitted', 'quoted', 'approved', 'declined', 'accepted', 'quote_declined')),
  cost_impact          bigint,
  currency             text        NOT NULL DEFAULT 'USD',
  schedule_impact_days integer,
  answer               text,
  source               text        NOT NULL DEFAULT 'member' CHECK (source IN ('member', 'portal')),
  requested_by         text        NOT NULL DEFAULT '',
  client_decision      jsonb,
  applied_at           text,
  created_at           timestamptz NOT NULL DEFAULT now(),
  created_by           uuid        NOT NULL,
  updated_at           timestamptz NOT NULL DEFAULT now(),
  updated_by           uuid        NOT NULL,
  version              bigint      NOT NULL
);
CREATE INDEX change_request_project_idx ON change_request (project_id, created_at DESC);
CREATE INDEX change_request_workspace_idx ON change_request (workspace_id, created_at DESC);

ALTER TABLE milestone ADD COLUMN visible_to_client boolean NOT NULL DEFAULT true;

-- Every decision a client made on a milestone, in order: the milestone row keeps only the latest
-- (sign_off), this keeps them all, with the portal session, address and browser they came from.
CREATE TABLE milestone_sign_off (
  id                uuid        PRIMARY KEY,
  workspace_id      uuid        NOT NULL REFERENCES workspace (id) ON DELETE CASCADE,
  project_id        uuid        NOT NULL,
  milestone_id      uuid        NOT NULL REFERENCES milestone (id) ON DELETE CASCADE,
  portal_session_id uuid        NOT NULL,
  client_name       text        NOT NULL,
  decision          text        NOT NULL CHECK (decision IN ('approved', 'changes_requested')),
  comment           text,
  ip                text        NOT NULL,
  user_agent        text        NOT NULL,
  at                timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX milestone_sign_off_milestone_idx ON milestone_sign_off (milestone_id, at);

-- A client acting in the portal has no account: such a line keeps the client's id as its actor
-- and the client's name in actor_name (members' lines leave it null and name the profile).
ALTER TABLE project_activity ADD COLUMN actor_name text;
ALTER TABLE project_activity DROP CONSTRAINT project_activity_op_check;
ALTER TABLE project_activity ADD CONSTRAINT project_activity_op_check
  CHECK (op IN ('create', 'update', 'delete', 'share', 'unshare', 'download', 'sign-off', 'portal'));
