/** Stub: replaced by its feature's real tab. */
import type { LocalProject } from '../../db/app-database.ts';

export function NotesTab({ project }: { project: LocalProject }) {
  return <p data-project-id={project.id}>Loading…</p>;
}
