-- Accounts: the embedded auth service at /auth/v1 (wire-compatible with Supabase Auth / GoTrue).
-- Tables are prefixed auth_ in the public schema rather than living in an `auth` schema, so a
-- Supabase database used through DATABASE_URL (whose `auth` schema belongs to GoTrue) never clashes.
--
-- Secrets a database reader could replay are never stored as such: refresh tokens, one-time
-- tokens (mail links and their 6-digit codes), PKCE authorization codes and SMS codes are SHA-256
-- hashes; passwords are argon2id PHC strings. Timestamps are written by the service (its clock is
-- injectable for tests), never by DEFAULT now().

CREATE TABLE auth_user (
  id                          uuid        PRIMARY KEY,
  -- Lower-cased. NULL only for users without an email address (none are created today).
  email                       text,
  -- argon2id PHC string; NULL for users who never set a password (OAuth, magic link).
  encrypted_password          text,
  email_confirmed_at          timestamptz,
  confirmation_sent_at        timestamptz,
  recovery_sent_at            timestamptz,
  -- A requested email change waits here until confirmed (GoTrue's `new_email`).
  email_change                text,
  email_change_sent_at        timestamptz,
  -- Secure email change: 0 = no address confirmed yet, 1 = one of the two confirmed.
  email_change_confirm_status smallint    NOT NULL DEFAULT 0,
  reauthentication_sent_at    timestamptz,
  last_sign_in_at             timestamptz,
  app_metadata                jsonb       NOT NULL DEFAULT '{}',
  user_metadata               jsonb       NOT NULL DEFAULT '{}',
  banned_until                timestamptz,
  created_at                  timestamptz NOT NULL,
  updated_at                  timestamptz NOT NULL
);

-- One account per address (NULLs are distinct, so users without email do not collide).
CREATE UNIQUE INDEX auth_user_email_key ON auth_user (email);

-- How a user can sign in: 'email' (provider_id = user id) or an OAuth provider (provider_id = sub).
CREATE TABLE auth_identity (
  id              uuid        PRIMARY KEY,
  user_id         uuid        NOT NULL REFERENCES auth_user (id) ON DELETE CASCADE,
  provider        text        NOT NULL,
  provider_id     text        NOT NULL,
  identity_data   jsonb       NOT NULL DEFAULT '{}',
  email           text,
  last_sign_in_at timestamptz,
  created_at      timestamptz NOT NULL,
  updated_at      timestamptz NOT NULL,
  UNIQUE (provider, provider_id)
);

CREATE INDEX auth_identity_user_id_idx ON auth_identity (user_id);

-- A signed-in device. Deleting it signs the device out: its refresh tokens cascade away and
-- access tokens naming it (session_id claim) are refused by /auth/v1 from then on.
CREATE TABLE auth_session (
  id           uuid        PRIMARY KEY,
  user_id      uuid        NOT NULL REFERENCES auth_user (id) ON DELETE CASCADE,
  aal          text        NOT NULL CHECK (aal IN ('aal1', 'aal2')),
  factor_id    uuid,
  -- [{method, timestamp, provider?}], most recent first: the access token's amr claim.
  amr          jsonb       NOT NULL DEFAULT '[]',
  user_agent   text,
  ip           text,
  refreshed_at timestamptz,
  created_at   timestamptz NOT NULL,
  updated_at   timestamptz NOT NULL
);

CREATE INDEX auth_session_user_id_idx ON auth_session (user_id);

-- Refresh tokens rotate: each use revokes the token and creates its child. A revoked token
-- presented again inside the reuse window yields the session's active token (two tabs refreshing
-- at once); after the window it is treated as stolen and the whole session is revoked.
CREATE TABLE auth_refresh_token (
  id           bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  token_hash   text        NOT NULL UNIQUE,
  session_id   uuid        NOT NULL REFERENCES auth_session (id) ON DELETE CASCADE,
  user_id      uuid        NOT NULL,
  parent_id    bigint      REFERENCES auth_refresh_token (id) ON DELETE SET NULL,
  revoked_at   timestamptz,
  -- The child token, AES-GCM sealed under a key derived from THIS token: only a caller who
  -- presents this token can learn its child, and the database alone reveals no usable token.
  -- NULL on a revoked token means it was retired (MFA upgrade), not rotated.
  child_sealed text,
  created_at   timestamptz NOT NULL
);

CREATE INDEX auth_refresh_token_session_id_idx ON auth_refresh_token (session_id);

-- PKCE and OAuth round trips: what to do when the client comes back with a code.
CREATE TABLE auth_flow_state (
  id                    uuid        PRIMARY KEY,
  user_id               uuid        REFERENCES auth_user (id) ON DELETE CASCADE,
  -- SHA-256 of the authorization code handed to the client (set once the user is known).
  auth_code_hash        text        UNIQUE,
  auth_code_issued_at   timestamptz,
  code_challenge        text,
  code_challenge_method text        CHECK (code_challenge_method IN ('s256', 'plain')),
  -- email | recovery | magiclink | email_change | google
  provider_type         text        NOT NULL,
  -- The amr method the exchanged session gets.
  authentication_method text        NOT NULL,
  redirect_to           text,
  -- OAuth only: our own PKCE verifier and nonce towards the provider, and the user to link to.
  oidc_code_verifier    text,
  oidc_nonce            text,
  linking_target_id     uuid        REFERENCES auth_user (id) ON DELETE CASCADE,
  created_at            timestamptz NOT NULL
);

CREATE INDEX auth_flow_state_created_at_idx ON auth_flow_state (created_at);

-- Mail links and codes. One outstanding token per user and type: a new one replaces the old.
CREATE TABLE auth_one_time_token (
  id            uuid        PRIMARY KEY,
  user_id       uuid        NOT NULL REFERENCES auth_user (id) ON DELETE CASCADE,
  token_type    text        NOT NULL CHECK (
    token_type IN (
      'confirmation',
      'recovery',
      'email_change_new',
      'email_change_current',
      'reauthentication'
    )
  ),
  -- SHA-256 of the link token (the `token` / `token_hash` a client sends back).
  token_hash    text        NOT NULL UNIQUE,
  -- SHA-256 of "<address>:<6-digit code>".
  otp_hash      text        NOT NULL,
  -- The address the token was sent to.
  relates_to    text        NOT NULL,
  flow_state_id uuid        REFERENCES auth_flow_state (id) ON DELETE SET NULL,
  created_at    timestamptz NOT NULL,
  expires_at    timestamptz NOT NULL,
  UNIQUE (user_id, token_type)
);

CREATE INDEX auth_one_time_token_otp_hash_idx ON auth_one_time_token (otp_hash);

CREATE TABLE auth_mfa_factor (
  id                 uuid        PRIMARY KEY,
  user_id            uuid        NOT NULL REFERENCES auth_user (id) ON DELETE CASCADE,
  friendly_name      text,
  factor_type        text        NOT NULL CHECK (factor_type IN ('totp', 'phone')),
  status             text        NOT NULL CHECK (status IN ('unverified', 'verified')),
  -- TOTP shared secret (base32). Kept in clear: computing a code needs it.
  secret             text,
  phone              text,
  -- Highest TOTP time step accepted so far: a code is never accepted twice.
  last_totp_step     bigint,
  last_challenged_at timestamptz,
  created_at         timestamptz NOT NULL,
  updated_at         timestamptz NOT NULL
);

CREATE INDEX auth_mfa_factor_user_id_idx ON auth_mfa_factor (user_id);

CREATE UNIQUE INDEX auth_mfa_factor_friendly_name_key ON auth_mfa_factor (user_id, friendly_name)
  WHERE friendly_name IS NOT NULL AND friendly_name <> '';

CREATE TABLE auth_mfa_challenge (
  id          uuid        PRIMARY KEY,
  factor_id   uuid        NOT NULL REFERENCES auth_mfa_factor (id) ON DELETE CASCADE,
  ip          text,
  -- Phone factors: SHA-256 of the code sent by SMS.
  otp_hash    text,
  verified_at timestamptz,
  created_at  timestamptz NOT NULL
);

CREATE INDEX auth_mfa_challenge_factor_id_idx ON auth_mfa_challenge (factor_id);

-- ES256 keys signing access tokens, created at first start. Only 'current' signs; 'previous'
-- keys stay in the JWKS so tokens they signed verify until they expire.
CREATE TABLE auth_signing_key (
  kid         text        PRIMARY KEY,
  algorithm   text        NOT NULL,
  public_jwk  jsonb       NOT NULL,
  private_jwk jsonb       NOT NULL,
  -- The public `anon` key signed by this key when it was created: stable across restarts.
  anon_key    text        NOT NULL,
  status      text        NOT NULL CHECK (status IN ('current', 'previous')),
  created_at  timestamptz NOT NULL
);

-- What happened to an account, for support and incident review. Never a token, password, code
-- or address: the user id, the action, the client IP and non-secret details (provider, scope).
CREATE TABLE auth_audit_event (
  id         bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id    uuid,
  action     text        NOT NULL,
  ip         text,
  detail     jsonb       NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL
);

CREATE INDEX auth_audit_event_user_id_idx ON auth_audit_event (user_id, created_at);
