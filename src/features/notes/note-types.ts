import type { LocalClientNote, LocalNote } from '../../data/project-work.ts';

/** A note on a project or on a client: the panel treats both the same. */
export type NoteRow = LocalNote | LocalClientNote;

/** One save: only the fields that changed. */
export interface NotePatch {
  title?: string;
  body?: string;
  pinned?: boolean;
}
