-- Project work: milestones, board columns, tasks, project notes, client notes, and the project
-- activity log. Order keys are compared byte-wise (COLLATE "C"), as the app compares them.

CREATE TABLE milestone (
  id           uuid        PRIMARY KEY,
  workspace_id uuid        NOT NULL REFERENCES workspace (id) ON DELETE CASCADE,
  project_id   uuid        NOT NULL REFERENCES project (id),
  title        text        NOT NULL,
  description  text,
  due_date     date,
  amount       bigint      CHECK (amount >= 0),
  currency     text        NOT NULL,
  status       text        NOT NULL CHECK (status IN ('planned', 'in_progress', 'awaiting_approval', 'approved', 'changes_requested')),
  position     text        COLLATE "C" NOT NULL,
  sign_off     jsonb,
  created_at   timestamptz NOT NULL DEFAULT now(),
  created_by   uuid        NOT NULL,
  updated_at   timestamptz NOT NULL DEFAULT now(),
  updated_by   uuid        NOT NULL,
  version      bigint      NOT NULL
);
CREATE INDEX milestone_project_idx ON milestone (project_id, position);
CREATE INDEX milestone_workspace_idx ON milestone (workspace_id);

CREATE TABLE kanban_column (
  id           uuid        PRIMARY KEY,
  workspace_id uuid        NOT NULL REFERENCES workspace (id) ON DELETE CASCADE,
  project_id   uuid        NOT NULL REFERENCES project (id),
  name         text        NOT NULL,
  position     text        COLLATE "C" NOT NULL,
  is_done      boolean     NOT NULL DEFAULT false,
  created_at   timestamptz NOT NULL DEFAULT now(),
  created_by   uuid        NOT NULL,
  updated_at   timestamptz NOT NULL DEFAULT now(),
  updated_by   uuid        NOT NULL,
  version      bigint      NOT NULL
);
CREATE INDEX kanban_column_project_idx ON kanban_column (project_id, position);
CREATE INDEX kanban_column_workspace_idx ON kanban_column (workspace_id);

CREATE TABLE task (
  id               uuid        PRIMARY KEY,
  workspace_id     uuid        NOT NULL REFERENCES workspace (id) ON DELETE CASCADE,
  project_id       uuid        NOT NULL REFERENCES project (id),
  title            text        NOT NULL,
  description      text,
  column_id        uuid        NOT NULL REFERENCES kanban_column (id),
  position         text        COLLATE "C" NOT NULL,
  assignee_id      uuid,
  due_date         date,
  priority         text        NOT NULL CHECK (priority IN ('none', 'low', 'medium', 'high', 'urgent')),
  labels           jsonb       NOT NULL DEFAULT '[]'::jsonb,
  estimate_minutes integer     CHECK (estimate_minutes >= 0),
  milestone_id     uuid,
  checklist        jsonb       NOT NULL DEFAULT '[]'::jsonb,
  created_at       timestamptz NOT NULL DEFAULT now(),
  created_by       uuid        NOT NULL,
  updated_at       timestamptz NOT NULL DEFAULT now(),
  updated_by       uuid        NOT NULL,
  version          bigint      NOT NULL
);
CREATE INDEX task_project_idx ON task (project_id, column_id, position);
CREATE INDEX task_workspace_idx ON task (workspace_id);

CREATE TABLE note (
  id           uuid        PRIMARY KEY,
  workspace_id uuid        NOT NULL REFERENCES workspace (id) ON DELETE CASCADE,
  project_id   uuid        NOT NULL REFERENCES project (id),
  title        text        NOT NULL,
  body         text        NOT NULL DEFAULT '',
  pinned       boolean     NOT NULL DEFAULT false,
  created_at   timestamptz NOT NULL DEFAULT now(),
  created_by   uuid        NOT NULL,
  updated_at   timestamptz NOT NULL DEFAULT now(),
  updated_by   uuid        NOT NULL,
  version      bigint      NOT NULL
);
CREATE INDEX note_project_idx ON note (project_id);
CREATE INDEX note_workspace_idx ON note (workspace_id);

CREATE TABLE client_note (
  id           uuid        PRIMARY KEY,
  workspace_id uuid        NOT NULL REFERENCES workspace (id) ON DELETE CASCADE,
  client_id    uuid        NOT NULL REFERENCES client (id),
  title        text        NOT NULL,
  body         text        NOT NULL DEFAULT '',
  pinned       boolean     NOT NULL DEFAULT false,
  created_at   timestamptz NOT NULL DEFAULT now(),
  created_by   uuid        NOT NULL,
  updated_at   timestamptz NOT NULL DEFAULT now(),
  updated_by   uuid        NOT NULL,
  version      bigint      NOT NULL
);
CREATE INDEX client_note_client_idx ON client_note (client_id);
CREATE INDEX client_note_workspace_idx ON client_note (workspace_id);

-- Who did what to a project's work, with the old and new value of each changed field. Written
-- by the same handler call that records the change (so nothing can be left out), and kept when
-- the change log is pruned: it is history, not sync state.
CREATE TABLE project_activity (
  workspace_id uuid        NOT NULL REFERENCES workspace (id) ON DELETE CASCADE,
  seq          bigint      NOT NULL,
  project_id   uuid        NOT NULL,
  at           timestamptz NOT NULL DEFAULT now(),
  actor_id     uuid        NOT NULL,
  entity       text        NOT NULL,
  entity_id    uuid        NOT NULL,
  label        text        NOT NULL,
  op           text        NOT NULL CHECK (op IN ('create', 'update', 'delete')),
  changes      jsonb       NOT NULL DEFAULT '{}'::jsonb,
  PRIMARY KEY (workspace_id, seq)
);
CREATE INDEX project_activity_project_idx ON project_activity (project_id, seq DESC);

-- Projects made before boards existed get the default columns, with their change-log entries,
-- so devices already in sync pull them like any other change. Ids are derived from the project
-- id, so running this on any copy of the data gives the same columns.
DO $$
DECLARE
  p record;
  d record;
  -- The block's BEGIN shares this line: a line starting with BEGIN reads as a transaction.
  next_seq bigint; BEGIN
  FOR p IN SELECT id, workspace_id, created_by FROM project ORDER BY workspace_id, id LOOP
    FOR d IN SELECT * FROM (VALUES (1, 'To do', 'a0', false), (2, 'In progress', 'a1', false),
                                   (3, 'Review', 'a2', false), (4, 'Done', 'a3', true))
                        AS t(n, name, position, is_done) LOOP
      INSERT INTO workspace_seq (workspace_id, seq) VALUES (p.workspace_id, 1)
        ON CONFLICT (workspace_id) DO UPDATE SET seq = workspace_seq.seq + 1
        RETURNING seq INTO next_seq;
      INSERT INTO kanban_column (id, workspace_id, project_id, name, position, is_done,
                                 created_by, updated_by, version)
        VALUES (md5(p.id::text || ':column:' || d.n)::uuid, p.workspace_id, p.id, d.name,
                d.position, d.is_done, p.created_by, p.created_by, next_seq);
      INSERT INTO change_log (workspace_id, seq, table_name, entity_id, op)
        VALUES (p.workspace_id, next_seq, 'kanbanColumns', md5(p.id::text || ':column:' || d.n)::uuid, 'upsert');
    END LOOP;
  END LOOP;
END
$$;
