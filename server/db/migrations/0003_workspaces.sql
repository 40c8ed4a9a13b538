-- Profiles and workspaces. A profile's id is the auth user's id (the token's `sub`); it is not a
-- foreign key to the auth tables so that hosted Supabase (whose users live elsewhere) works too.

CREATE TABLE user_profile (
  id                  uuid        PRIMARY KEY,
  email               text        NOT NULL,
  first_name          text        NOT NULL DEFAULT '',
  last_name           text        NOT NULL DEFAULT '',
  profile_picture_url text,
  created_at          timestamptz NOT NULL DEFAULT now(),
  updated_at          timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE workspace (
  id                  uuid        PRIMARY KEY,
  owner_id            uuid        NOT NULL REFERENCES user_profile (id),
  name                text        NOT NULL,
  logo_url            text,
  brand_color         text,
  currency            text        NOT NULL DEFAULT 'USD',
  time_zone           text        NOT NULL DEFAULT 'UTC',
  locale              text        NOT NULL DEFAULT 'en-US',
  portal_welcome_text text,
  settings            jsonb       NOT NULL DEFAULT '{}'::jsonb,
  created_at          timestamptz NOT NULL DEFAULT now(),
  updated_at          timestamptz NOT NULL DEFAULT now()
);

-- register-user is idempotent: one owned workspace per user, enforced here against races.
CREATE UNIQUE INDEX workspace_owner_idx ON workspace (owner_id);

CREATE TABLE workspace_member (
  workspace_id uuid        NOT NULL REFERENCES workspace (id) ON DELETE CASCADE,
  user_id      uuid        NOT NULL REFERENCES user_profile (id),
  role         text        NOT NULL CHECK (role IN ('owner', 'admin', 'member')),
  joined_at    timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workspace_id, user_id)
);

-- "Which workspaces may this user see?" runs on every workspace-scoped call.
CREATE INDEX workspace_member_user_idx ON workspace_member (user_id);
