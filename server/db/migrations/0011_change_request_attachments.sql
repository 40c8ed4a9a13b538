-- Files a client attaches to a change request (contract/entities/change-request.ts): ids of
-- project files it uploaded through the portal first.
ALTER TABLE change_request ADD COLUMN attachment_file_ids jsonb NOT NULL DEFAULT '[]';
