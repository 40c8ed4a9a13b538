-- The OAuth client registry of the embedded auth service (GoTrue's /admin/oauth/clients, which
-- supabase-js's auth.admin.oauth calls). Only the registry: the authorization endpoints that would
-- let these clients sign users in are not offered (ARCHITECTURE.md, Identity: not offered).

-- A confidential client's secret is shown once (on creation and when regenerated); only its
-- SHA-256 is kept, so it cannot be read back. Public clients have no secret.
CREATE TABLE auth_oauth_client (
  id                         uuid        PRIMARY KEY,
  client_secret_hash         text,
  client_type                text        NOT NULL CHECK (client_type IN ('public', 'confidential')),
  token_endpoint_auth_method text        NOT NULL
    CHECK (token_endpoint_auth_method IN ('none', 'client_secret_basic', 'client_secret_post')),
  registration_type          text        NOT NULL CHECK (registration_type IN ('dynamic', 'manual')),
  client_name                text,
  client_uri                 text,
  logo_uri                   text,
  redirect_uris              text[]      NOT NULL,
  grant_types                text[]      NOT NULL,
  created_at                 timestamptz NOT NULL,
  updated_at                 timestamptz NOT NULL,
  CHECK ((client_type = 'confidential') = (client_secret_hash IS NOT NULL))
);

-- The list is newest first, paged.
CREATE INDEX auth_oauth_client_created_at_idx ON auth_oauth_client (created_at DESC, id);
