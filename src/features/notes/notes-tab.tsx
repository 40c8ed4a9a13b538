/** The project's Notes tab: the shared notes panel over the project's notes ("n" starts one). */
import { useCallback } from 'react';
import type { LocalProject } from '../../db/app-database.ts';
import { noteWrites, useNotes } from '../../data/project-work.ts';
import { useSync, useWriteContext } from '../workspace/sync-context.tsx';
import { NOTE_UNDO_WINDOW_MS, NotesPanel } from './notes-panel.tsx';
import type { NotePatch } from './note-types.ts';

export function NotesTab({ project }: { project: LocalProject }) {
  const { handle } = useSync();
  const ctx = useWriteContext();
  const notes = useNotes(handle.db, project.workspaceId, project.id);
  const onUpdate = useCallback(
    (id: string, patch: NotePatch) => noteWrites.update(ctx, id, patch),
    [ctx],
  );
  return (
    <section aria-labelledby="project-notes-heading" className="flex flex-col gap-4">
      <h2 id="project-notes-heading" className="sr-only">
        Notes
      </h2>
      <NotesPanel
        notes={notes}
        workspaceId={project.workspaceId}
        subject={project.name}
        newNoteShortcut
        onCreate={({ title }) =>
          noteWrites.create(ctx, { workspaceId: project.workspaceId, projectId: project.id, title })
        }
        onUpdate={onUpdate}
        onDelete={(id) => noteWrites.delete(ctx, id, { undoWindowMs: NOTE_UNDO_WINDOW_MS })}
      />
    </section>
  );
}
