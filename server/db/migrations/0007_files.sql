-- Files: one row per name in a project's folder, with its versions (contract/entities/file.ts),
-- and the ledger of stored bytes. Every blob in storage has a file_blob row from the moment an
-- upload commits it until its file is deleted: storage use is the ledger's sum, and a blob with no
-- row (a crash between storing and recording) is an orphan the cleanup removes.

CREATE TABLE project_file (
  id                uuid        PRIMARY KEY,
  workspace_id      uuid        NOT NULL REFERENCES workspace (id) ON DELETE CASCADE,
  project_id        uuid        NOT NULL REFERENCES project (id),
  name              text        NOT NULL,
  folder            text        NOT NULL DEFAULT '',
  visible_to_client boolean     NOT NULL DEFAULT true,
  size              bigint      NOT NULL CHECK (size >= 0),
  type              text        NOT NULL DEFAULT '',
  checksum          text        NOT NULL,
  blob_name         text        NOT NULL,
  uploaded_by       text        NOT NULL,
  versions          jsonb       NOT NULL DEFAULT '[]'::jsonb,
  created_at        timestamptz NOT NULL DEFAULT now(),
  created_by        uuid        NOT NULL,
  updated_at        timestamptz NOT NULL DEFAULT now(),
  updated_by        uuid        NOT NULL,
  version           bigint      NOT NULL
);
CREATE INDEX project_file_project_idx ON project_file (project_id, folder, lower(name));
CREATE INDEX project_file_workspace_idx ON project_file (workspace_id);

CREATE TABLE file_blob (
  blob_name    text        PRIMARY KEY,
  workspace_id uuid        NOT NULL,
  file_id      uuid        NOT NULL,
  size         bigint      NOT NULL CHECK (size >= 0),
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX file_blob_workspace_idx ON file_blob (workspace_id);
CREATE INDEX file_blob_file_idx ON file_blob (file_id);

-- Keys that sign local download links (HMAC-SHA-256). The newest signs; older ones still verify
-- until they are removed, so a key can be rotated without breaking links already handed out.
CREATE TABLE file_link_key (
  id         text        PRIMARY KEY,
  secret     bytea       NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
