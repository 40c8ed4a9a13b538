-- Account deletion (issue 18): a deleted user's profile goes, and the workspaces they made at
-- registration may live on under another owner. `workspace.owner_id` records who made the
-- workspace (who owns it now is the `owner` member row), so it becomes empty when that person's
-- profile is deleted; the unique index registration relies on still allows any number of NULLs.
ALTER TABLE workspace ALTER COLUMN owner_id DROP NOT NULL;
ALTER TABLE workspace DROP CONSTRAINT workspace_owner_id_fkey;
ALTER TABLE workspace ADD CONSTRAINT workspace_owner_id_fkey
  FOREIGN KEY (owner_id) REFERENCES user_profile (id) ON DELETE SET NULL;
