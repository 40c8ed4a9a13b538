/** A client's notes, on the client's page: the shared notes panel over the client's notes. */
import { useCallback } from 'react';
import type { LocalClient } from '../../db/app-database.ts';
import { clientNoteWrites, useClientNotes } from '../../data/project-work.ts';
import { useSync, useWriteContext } from '../workspace/sync-context.tsx';
import { NOTE_UNDO_WINDOW_MS, NotesPanel } from './notes-panel.tsx';
import type { NotePatch } from './note-types.ts';

export function ClientNotes({ client }: { client: LocalClient }) {
  const { handle } = useSync();
  const ctx = useWriteContext();
  const notes = useClientNotes(handle.db, client.workspaceId, client.id);
  const onUpdate = useCallback(
    (id: string, patch: NotePatch) => clientNoteWrites.update(ctx, id, patch),
    [ctx],
  );
  return (
    <NotesPanel
      notes={notes}
      workspaceId={client.workspaceId}
      subject={client.name}
      onCreate={({ title }) =>
        clientNoteWrites.create(ctx, {
          workspaceId: client.workspaceId,
          clientId: client.id,
          title,
        })
      }
      onUpdate={onUpdate}
      onDelete={(id) => clientNoteWrites.delete(ctx, id, { undoWindowMs: NOTE_UNDO_WINDOW_MS })}
    />
  );
}
