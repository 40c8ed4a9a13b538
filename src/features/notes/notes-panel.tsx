/**
 * Notes, for a project's Notes tab and a client's page alike: the list (pinned first, then the
 * most recently changed) and the open note's editor, side by side where there is room and one
 * after the other in a narrow space (a phone, a side column), with a back button. Everything is
 * written to this device first and syncs later; a delete waits a few seconds so Undo can cancel
 * it (the toast's button, or Ctrl/Cmd+Z while the toast shows).
 */
import { ArrowLeft, NotebookPen, Pin, Plus } from 'lucide-react';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useLiveQuery } from '../../db/live-query.ts';
import { cancelQueuedChange } from '../../sync/sync-client.ts';
import { Button } from '../../ui/button.tsx';
import { useKeyShortcut } from '../../ui/use-key-shortcut.ts';
import { useToast } from '../../ui/use-toast.ts';
import { formatRelativeTime } from '../sync-status/format-relative-time.ts';
import { useSync } from '../workspace/sync-context.tsx';
import { NoteEditor } from './note-editor.tsx';
import type { NotePatch, NoteRow } from './note-types.ts';
import { writeErrorFields } from '../../data/write-error-fields.ts';

/** How long Undo is offered after a delete; the delete waits this long in the outbox. */
export const NOTE_UNDO_WINDOW_MS = 8000;

export interface NotesPanelProps {
  /** The rows, as read live (undefined while loading). */
  notes: NoteRow[] | undefined;
  workspaceId: string;
  /** What the notes are about, for accessible names: "Website", "Acme". */
  subject: string;
  onCreate: (input: { title: string }) => Promise<NoteRow>;
  onUpdate: (id: string, patch: NotePatch) => Promise<boolean>;
  /** Queues the delete (held for Undo); resolves its mutation id. */
  onDelete: (id: string) => Promise<string>;
  /** "n" creates a note (only where no other "n" shortcut is active). */
  newNoteShortcut?: boolean;
}

/** The first line of the body with its Markdown marks removed, for the list. */
function firstLine(body: string): string {
  const line = body.split('\n').find((candidate) => candidate.trim() !== '') ?? '';
  return line
    .replace(/^\s*(#{1,6}\s+|[-*+]\s+(\[[ xX]\]\s+)?|\d+[.)]\s+|>\s*)/, '')
    .replace(/\*\*|__|`/g, '')
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
    .trim();
}

function useAuthorNames(workspaceId: string): (userId: string) => string {
  const { handle, userId: me } = useSync();
  const members = useLiveQuery(
    () => handle.db.members.where('workspaceId').equals(workspaceId).toArray(),
    [handle, workspaceId],
  );
  return useMemo(() => {
    const names = new Map(
      (members ?? []).map((member) => [
        member.id,
        `${member.firstName} ${member.lastName}`.trim() || member.email,
      ]),
    );
    return (id: string) => names.get(id) ?? (id === me ? 'you' : 'a teammate');
  }, [members, me]);
}

const isMac = () => typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);

export function NotesPanel({
  notes,
  workspaceId,
  subject,
  onCreate,
  onUpdate,
  onDelete,
  newNoteShortcut = false,
}: NotesPanelProps) {
  const { handle } = useSync();
  const toaster = useToast();
  const authorOf = useAuthorNames(workspaceId);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [justCreated, setJustCreated] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [now, setNow] = useState(() => Date.now());
  const newButtonId = useId();
  const pendingFocus = useRef<string | null>(null);
  const undoRef = useRef<{ toastId: number; undo: () => void } | null>(null);

  // "3 minutes ago" stays true while the list is open.
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, []);

  const selected = notes?.find((note) => note.id === selectedId) ?? null;

  const create = async () => {
    setError(null);
    try {
      const note = await onCreate({ title: 'Untitled note' });
      setJustCreated(note.id);
      setSelectedId(note.id);
    } catch (failure) {
      setError(writeErrorFields(failure).form ?? 'The note could not be created.');
    }
  };

  useKeyShortcut('n', () => void create(), newNoteShortcut);

  // After a delete, focus moves to the next note in the list (or New note when none is left).
  useEffect(() => {
    const id = pendingFocus.current;
    if (id === null || notes === undefined) return;
    if (notes.some((note) => note.id === id) || id === '') {
      pendingFocus.current = null;
      const target =
        id === '' ? null : document.querySelector<HTMLElement>(`[data-note-id="${id}"]`);
      (target ?? document.getElementById(newButtonId))?.focus();
    }
  }, [notes, selectedId, newButtonId]);

  // Ctrl/Cmd+Z undoes the delete while its toast is showing (not while typing: that is the
  // field's own undo).
  useEffect(() => {
    const onKeyDown = (event: globalThis.KeyboardEvent) => {
      const pending = undoRef.current;
      if (!pending || event.key.toLowerCase() !== 'z' || event.shiftKey || event.altKey) return;
      if (!(event.ctrlKey || event.metaKey)) return;
      if (toaster.getCurrent()?.id !== pending.toastId) {
        undoRef.current = null;
        return;
      }
      const target = event.target;
      if (
        target instanceof HTMLElement &&
        (target.isContentEditable || ['INPUT', 'TEXTAREA'].includes(target.tagName))
      ) {
        return;
      }
      event.preventDefault();
      undoRef.current = null;
      toaster.dismiss(pending.toastId);
      pending.undo();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [toaster]);

  const remove = async (note: NoteRow) => {
    const list = notes ?? [];
    const index = list.findIndex((candidate) => candidate.id === note.id);
    const next = list[index + 1] ?? list[index - 1] ?? null;
    const title = note.title;
    setError(null);
    try {
      const mutationId = await onDelete(note.id);
      setSelectedId(null);
      pendingFocus.current = next ? next.id : '';
      const undo = () => {
        void cancelQueuedChange(handle.db, mutationId).then((undone) => {
          if (!undone) {
            toaster.show({ tone: 'error', message: `Too late to undo: “${title}” is deleted.` });
          }
        });
      };
      const toastId = toaster.show({
        tone: 'success',
        message: `Note “${title}” deleted. ${isMac() ? '⌘Z' : 'Ctrl+Z'} to undo.`,
        durationMs: NOTE_UNDO_WINDOW_MS,
        action: {
          label: 'Undo',
          onAction: () => {
            undoRef.current = null;
            undo();
          },
        },
      });
      undoRef.current = { toastId, undo };
    } catch (failure) {
      setError(writeErrorFields(failure).form ?? 'The note could not be deleted.');
    }
  };

  const newButton = (
    <Button id={newButtonId} onPress={() => void create()}>
      <Plus aria-hidden="true" size={16} /> New note
    </Button>
  );

  if (notes === undefined) return <p className="text-sm text-fg-muted">Loading notes…</p>;

  if (notes.length === 0) {
    return (
      <div className="flex flex-col items-center gap-3 rounded-2xl border border-dashed border-border-strong p-8 text-center">
        <NotebookPen aria-hidden="true" size={28} className="text-fg-muted" />
        <p className="font-semibold text-fg">No notes for {subject} yet</p>
        <p className="max-w-md text-sm text-fg-muted">
          Keep meeting notes, decisions and to-dos here. Notes are written in Markdown, save on this
          device as you type, and sync when you're online.
          {newNoteShortcut ? ' Press N to start one.' : ''}
        </p>
        {error ? (
          <p role="alert" className="text-sm font-medium text-danger">
            {error}
          </p>
        ) : null}
        {newButton}
      </div>
    );
  }

  return (
    <div className="@container">
      {/* One column that may shrink below its content (minmax(0,1fr), min-w-0): an implicit
          column grows to the longest unbroken word, so a note that is one long URL would widen
          the page on a phone instead of being cut off inside its card. */}
      <div className="grid grid-cols-1 gap-4 @3xl:grid-cols-[minmax(0,18rem)_minmax(0,1fr)]">
        <div className={`flex min-w-0 flex-col gap-3 ${selected ? 'hidden @3xl:flex' : ''}`}>
          <div className="flex items-center justify-between gap-2">
            <p className="text-sm text-fg-muted">
              {notes.length === 1 ? '1 note' : `${notes.length} notes`}
            </p>
            {newButton}
          </div>
          {error ? (
            <p role="alert" className="text-sm font-medium text-danger">
              {error}
            </p>
          ) : null}
          <ul aria-label={`Notes for ${subject}`} className="flex flex-col gap-1">
            {notes.map((note) => {
              const preview = firstLine(note.body);
              const isSelected = note.id === selectedId;
              return (
                <li key={note.id}>
                  <button
                    type="button"
                    data-note-id={note.id}
                    aria-current={isSelected ? 'true' : undefined}
                    onClick={() => {
                      setJustCreated(null);
                      setSelectedId(note.id);
                    }}
                    className={`flex w-full min-w-0 cursor-pointer flex-col gap-0.5 rounded-lg border px-3 py-2 text-left transition-colors ${
                      isSelected
                        ? 'border-brand bg-brand-soft'
                        : 'border-transparent hover:bg-surface-muted'
                    }`}
                  >
                    <span className="flex items-center gap-1.5 font-medium text-fg">
                      {note.pinned ? (
                        <Pin aria-label="Pinned" size={14} className="shrink-0 text-brand" />
                      ) : null}
                      <span className="min-w-0 truncate">{note.title}</span>
                    </span>
                    <span className="truncate text-sm text-fg-muted">
                      {preview === '' ? 'Empty note' : preview}
                    </span>
                    <span className="text-xs text-fg-muted">
                      {authorOf(note.createdBy)} ·{' '}
                      {formatRelativeTime(Date.parse(note.updatedAt), now)}
                    </span>
                  </button>
                </li>
              );
            })}
          </ul>
        </div>

        <div className={`min-w-0 ${selected ? '' : 'hidden @3xl:block'}`}>
          {selected ? (
            <div className="flex flex-col gap-3">
              <Button
                variant="ghost"
                className="-ml-3 self-start @3xl:hidden"
                onPress={() => {
                  const id = selected.id;
                  setSelectedId(null);
                  pendingFocus.current = id;
                }}
              >
                <ArrowLeft aria-hidden="true" size={16} /> All notes
              </Button>
              <NoteEditor
                key={selected.id}
                note={selected}
                author={authorOf(selected.createdBy)}
                focusTitle={justCreated === selected.id}
                onUpdate={onUpdate}
                onDelete={() => void remove(selected)}
              />
            </div>
          ) : (
            <div className="grid min-h-64 place-items-center rounded-2xl border border-dashed border-border-strong p-8 text-center text-sm text-fg-muted">
              <p>Choose a note to read or edit it, or start a new one.</p>
            </div>
          )}
        </div>
      </div>
    </div>
  );
}
