/**
 * Notes on a project (resource `notes`) and on a client (resource `client-note`): a title, a body
 * in Markdown, pinned or not; the author is `createdBy`. Concurrent edits of one body merge on the
 * server (server/endpoints/note.ts): edits of different parts both stay, overlapping ones keep
 * both versions, marked, never one silently lost.
 */
import * as v from 'valibot';
import { text } from '../text.ts';
import { defineSyncedEntity, field } from '../synced-entity.ts';
import { titleSchema } from './fields.ts';

export const MAX_NOTE_CHARS = 100_000;

const noteFields = {
  title: field(titleSchema),
  body: field(
    v.pipe(
      text('The note must be text'),
      v.maxLength(MAX_NOTE_CHARS, 'A note is at most 100,000 characters'),
    ),
    { default: '' },
  ),
  pinned: field(v.boolean(), { default: false }),
};

export const noteEntity = defineSyncedEntity({
  name: 'note',
  plural: 'notes',
  resource: 'notes',
  sqlTable: 'note',
  label: 'title',
  parent: { entity: 'project', key: 'projectId', onDelete: 'cascade' },
  activityProject: 'projectId',
  fields: noteFields,
  indexes: ['[workspaceId+projectId]'],
  list: { scope: 'parent', orderBy: 'pinned DESC, updated_at DESC, id' },
});

export const clientNoteEntity = defineSyncedEntity({
  name: 'client-note',
  plural: 'client-notes',
  sqlTable: 'client_note',
  label: 'title',
  parent: { entity: 'client', key: 'clientId', onDelete: 'cascade' },
  fields: noteFields,
  indexes: ['[workspaceId+clientId]'],
  list: { scope: 'parent', orderBy: 'pinned DESC, updated_at DESC, id' },
});

export type Note = v.InferOutput<typeof noteEntity.rowSchema>;
export type ClientNote = v.InferOutput<typeof clientNoteEntity.rowSchema>;
