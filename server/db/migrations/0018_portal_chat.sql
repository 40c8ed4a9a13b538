-- The client's part in a project's chat (issues 14 and 15): off until a member turns it on in the
-- project's portal settings. The client's messages are chat_message rows with author_kind
-- 'client' (0013); this is only the switch.
ALTER TABLE project_portal ADD COLUMN chat_enabled boolean NOT NULL DEFAULT false;
