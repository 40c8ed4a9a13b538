-- Invitations into a workspace (issue 17). Only a hash of the token is kept: the link is shown
-- once, to the person who made it, and a copy of this table opens no workspace.

CREATE TABLE workspace_invite (
  id          uuid        PRIMARY KEY,
  workspace_id uuid       NOT NULL REFERENCES workspace (id) ON DELETE CASCADE,
  -- SHA-256 of the token, hex: a token is 32 random bytes, so no salt or slow hash is needed.
  token_hash  text        NOT NULL UNIQUE,
  -- null: a link for whoever holds it; set: mailed to, and accepted only by, that address.
  email       text,
  -- Ownership changes hands through transfer-ownership, never by invitation.
  role        text        NOT NULL CHECK (role IN ('admin', 'member')),
  -- null: any number of people until it expires.
  max_uses    integer     CHECK (max_uses IS NULL OR max_uses >= 1),
  use_count   integer     NOT NULL DEFAULT 0 CHECK (max_uses IS NULL OR use_count <= max_uses),
  expires_at  timestamptz NOT NULL,
  revoked_at  timestamptz,
  created_by  uuid        NOT NULL REFERENCES user_profile (id),
  created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX workspace_invite_workspace_idx ON workspace_invite (workspace_id, created_at DESC);

-- One owner per workspace, whatever order role changes run in: a transfer demotes the owner
-- before it promotes the new one, and a bug that made two would fail here instead.
CREATE UNIQUE INDEX workspace_member_one_owner_idx ON workspace_member (workspace_id)
  WHERE role = 'owner';
