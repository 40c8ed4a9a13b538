-- The admin API of the embedded auth service (GoTrue's /admin/*, /invite): invitations, soft
-- deletion, and the service-role key.

-- When an invitation was sent (GoTrue's invited_at) and when the account was soft-deleted
-- (deleted_at: the address and identities are gone, the row stays for records naming its id).
ALTER TABLE auth_user ADD COLUMN invited_at timestamptz;
ALTER TABLE auth_user ADD COLUMN deleted_at timestamptz;

-- Service-role keys: JWTs with role service_role signed by the current signing key, made by
-- `node scripts/auth-service-role-key.mjs`, which prints the key once. Only its SHA-256 is kept,
-- so the key cannot be read back; a key is accepted while its row is not revoked (making a new
-- key revokes the old ones).
CREATE TABLE auth_service_role_key (
  id         uuid        PRIMARY KEY,
  key_hash   text        NOT NULL UNIQUE,
  kid        text        NOT NULL,
  created_at timestamptz NOT NULL,
  revoked_at timestamptz
);
