-- Share links (contract/endpoints/file-share-link.ts): one file handed to someone without an
-- account. The token is the whole secret of a link and is kept as given so a member can copy the
-- link again; a password is kept only as an argon2id hash. A link goes with its file.
CREATE TABLE file_share_link (
  id                 uuid        PRIMARY KEY,
  workspace_id       uuid        NOT NULL REFERENCES workspace (id) ON DELETE CASCADE,
  project_id         uuid        NOT NULL,
  file_id            uuid        NOT NULL REFERENCES project_file (id) ON DELETE CASCADE,
  token              text        NOT NULL UNIQUE,
  password_hash      text,
  expires_at         timestamptz NOT NULL,
  max_downloads      integer     CHECK (max_downloads IS NULL OR max_downloads > 0),
  download_count     integer     NOT NULL DEFAULT 0,
  last_downloaded_at timestamptz,
  revoked_at         timestamptz,
  created_by         uuid        NOT NULL,
  created_at         timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX file_share_link_file_idx ON file_share_link (file_id, created_at DESC);

-- A project's activity also tells of links made, turned off and used.
ALTER TABLE project_activity DROP CONSTRAINT project_activity_op_check;
ALTER TABLE project_activity ADD CONSTRAINT project_activity_op_check
  CHECK (op IN ('create', 'update', 'delete', 'share', 'unshare', 'download'));
