-- Project chat (contract/entities/chat.ts): messages, their reactions, each member's read marker.

CREATE TABLE chat_message (
  id                  uuid        PRIMARY KEY,
  workspace_id        uuid        NOT NULL REFERENCES workspace (id) ON DELETE CASCADE,
  project_id          uuid        NOT NULL REFERENCES project (id),
  text                text        NOT NULL,
  mentions            jsonb       NOT NULL DEFAULT '[]',
  reply_to_id         uuid,
  attachment_file_ids jsonb       NOT NULL DEFAULT '[]',
  deleted             boolean     NOT NULL DEFAULT false,
  -- The server's order: the change-log seq of the create, copied from version on insert (below).
  seq                 bigint      NOT NULL DEFAULT 0,
  -- ISO text as the hook writes it (the contract's row is text; no timestamptz round trip).
  edited_at           text,
  author_kind         text        NOT NULL DEFAULT 'member' CHECK (author_kind IN ('member', 'client')),
  author_name         text        NOT NULL DEFAULT '',
  created_at          timestamptz NOT NULL DEFAULT now(),
  created_by          uuid        NOT NULL,
  updated_at          timestamptz NOT NULL DEFAULT now(),
  updated_by          uuid        NOT NULL,
  version             bigint      NOT NULL,
  CHECK (deleted OR text <> '')
);
-- A chat opens at its newest page and pages back: the project's messages by seq.
CREATE INDEX chat_message_project_seq_idx ON chat_message (project_id, seq);

-- Every insert path (the derived create, a batch's multi-row insert, the portal's) gets its seq
-- here, so no writer can forget it or pick another; an update never touches it.
-- (One line: migrations are checked for a BEGIN or COMMIT opening a line, a transaction of their own.)
CREATE FUNCTION chat_message_set_seq() RETURNS trigger LANGUAGE plpgsql AS
  $$ BEGIN NEW.seq := NEW.version; RETURN NEW; END $$;
CREATE TRIGGER chat_message_seq BEFORE INSERT ON chat_message
  FOR EACH ROW EXECUTE FUNCTION chat_message_set_seq();

CREATE TABLE chat_reaction (
  id           uuid        PRIMARY KEY,
  workspace_id uuid        NOT NULL REFERENCES workspace (id) ON DELETE CASCADE,
  message_id   uuid        NOT NULL REFERENCES chat_message (id),
  project_id   uuid        NOT NULL,
  emoji        text        NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  created_by   uuid        NOT NULL,
  updated_at   timestamptz NOT NULL DEFAULT now(),
  updated_by   uuid        NOT NULL,
  version      bigint      NOT NULL,
  UNIQUE (message_id, created_by, emoji)
);
CREATE INDEX chat_reaction_project_idx ON chat_reaction (project_id);

CREATE TABLE chat_read (
  id            uuid        PRIMARY KEY,
  workspace_id  uuid        NOT NULL REFERENCES workspace (id) ON DELETE CASCADE,
  project_id    uuid        NOT NULL REFERENCES project (id),
  last_read_seq bigint      NOT NULL DEFAULT 0,
  created_at    timestamptz NOT NULL DEFAULT now(),
  created_by    uuid        NOT NULL,
  updated_at    timestamptz NOT NULL DEFAULT now(),
  updated_by    uuid        NOT NULL,
  version       bigint      NOT NULL,
  UNIQUE (project_id, created_by)
);
