/**
 * One note, edited in place: its title and a Markdown body with a small formatting toolbar
 * (Ctrl/Cmd+B, I, K) and a preview. Changes are saved to this device after a short pause and
 * when the person leaves a field or the note, as one patch of the fields that changed; a refused
 * field keeps its text with the reason beside it while the other fields still save.
 */
import {
  Bold,
  CheckSquare,
  Eye,
  Heading,
  Italic,
  Link2,
  List,
  Pin,
  PinOff,
  Trash2,
  TriangleAlert,
} from 'lucide-react';
import {
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type KeyboardEvent,
} from 'react';
import { Button as AriaButton, ToggleButton, Toolbar } from 'react-aria-components';
import { writeErrorFields, type WriteErrorFields } from '../../data/write-error-fields.ts';
import { Button } from '../../ui/button.tsx';
import { FormTextField } from '../../ui/form-text-field.tsx';
import { useDraft } from '../../ui/use-draft.ts';
import { applyFormat, type MarkdownFormat } from './markdown-edit.ts';
import { MarkdownPreview } from './markdown-preview.tsx';
import { hasConflict } from './note-conflict.ts';
import type { NotePatch, NoteRow } from './note-types.ts';

/** The pause after the last keystroke before a change is saved. */
export const AUTOSAVE_DELAY_MS = 600;

type SaveState = 'idle' | 'saving' | 'saved' | 'error';

export interface NoteEditorProps {
  note: NoteRow;
  author: string;
  onUpdate: (id: string, patch: NotePatch) => Promise<boolean>;
  onDelete: () => void;
  /** Focus (and select) the title when the editor opens: a note just created. */
  focusTitle?: boolean;
}

const tools: {
  format: MarkdownFormat;
  label: string;
  icon: typeof Bold;
  shortcut?: string;
}[] = [
  { format: 'bold', label: 'Bold', icon: Bold, shortcut: 'b' },
  { format: 'italic', label: 'Italic', icon: Italic, shortcut: 'i' },
  { format: 'heading', label: 'Heading', icon: Heading },
  { format: 'bullet', label: 'Bulleted list', icon: List },
  { format: 'checklist', label: 'Checklist', icon: CheckSquare },
  { format: 'link', label: 'Link', icon: Link2, shortcut: 'k' },
];

const isMac = () => typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);

export function NoteEditor({ note, author, onUpdate, onDelete, focusTitle }: NoteEditorProps) {
  const [title, setTitle] = useDraft(note.title);
  const [body, setBody] = useDraft(note.body);
  const [saveState, setSaveState] = useState<SaveState>('idle');
  const [errors, setErrors] = useState<WriteErrorFields>({});
  const [isPreview, setPreview] = useState(false);
  const titleRef = useRef<HTMLInputElement>(null);
  const bodyRef = useRef<HTMLTextAreaElement>(null);
  const pendingSelection = useRef<[number, number] | null>(null);
  const bodyId = useId();

  // What was last written here for each field: a save compares with it, so a second save while
  // the first is on its way never sends the same change twice. A change from elsewhere (a sync,
  // a merge) moves it too, so adopting that text is not mistaken for an edit.
  const sent = useRef({ title: note.title, body: note.body });
  useEffect(() => {
    sent.current.title = note.title;
  }, [note.title]);
  useEffect(() => {
    sent.current.body = note.body;
  }, [note.body]);

  const latest = useRef({ title, body, id: note.id, onUpdate });
  useLayoutEffect(() => {
    latest.current = { title, body, id: note.id, onUpdate };
  });

  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const queue = useRef<Promise<void>>(Promise.resolve());
  const mounted = useRef(true);

  /** Saves the changed fields now (one patch); saves are chained so they land in order. */
  const flush = useCallback((): Promise<void> => {
    if (timer.current !== null) {
      clearTimeout(timer.current);
      timer.current = null;
    }
    queue.current = queue.current.then(async () => {
      const { title, body, id, onUpdate } = latest.current;
      const patch: NotePatch = {};
      if (title !== sent.current.title) patch.title = title;
      if (body !== sent.current.body) patch.body = body;
      if (Object.keys(patch).length === 0) {
        // Every field holds what is stored again (a refused title typed back, say): nothing to
        // save, and no refusal left to show.
        if (mounted.current) {
          setErrors({});
          setSaveState((state) => (state === 'saving' || state === 'error' ? 'saved' : state));
        }
        return;
      }
      const write = async (next: NotePatch) => {
        await onUpdate(id, next);
        if (next.title !== undefined) sent.current.title = next.title;
        if (next.body !== undefined) sent.current.body = next.body;
      };
      try {
        await write(patch);
        if (mounted.current) {
          setErrors({});
          setSaveState('saved');
        }
      } catch (error) {
        const fields = writeErrorFields(error);
        // The fields the device accepts still save; the refused one waits, its reason shown.
        const rest = Object.fromEntries(
          Object.entries(patch).filter(([field]) => fields[field] === undefined),
        ) as NotePatch;
        if (fields.form === undefined && Object.keys(rest).length > 0) {
          try {
            await write(rest);
          } catch {
            // Shown below with the first refusal.
          }
        }
        if (mounted.current) {
          setErrors(fields);
          setSaveState('error');
        }
      }
    });
    return queue.current;
  }, []);

  const schedule = () => {
    setSaveState('saving');
    if (timer.current !== null) clearTimeout(timer.current);
    timer.current = setTimeout(() => void flush(), AUTOSAVE_DELAY_MS);
  };

  // Leaving the note (another note, back to the list, another page) saves what was typed.
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      if (timer.current !== null) void flush().catch(() => undefined);
    };
  }, [flush]);

  useEffect(() => {
    if (!focusTitle) return;
    titleRef.current?.focus();
    titleRef.current?.select();
  }, [focusTitle]);

  useLayoutEffect(() => {
    const selection = pendingSelection.current;
    const textarea = bodyRef.current;
    if (!selection || !textarea) return;
    pendingSelection.current = null;
    textarea.focus();
    textarea.setSelectionRange(selection[0], selection[1]);
  });

  const format = (kind: MarkdownFormat) => {
    const textarea = bodyRef.current;
    const start = textarea?.selectionStart ?? body.length;
    const end = textarea?.selectionEnd ?? body.length;
    const edit = applyFormat(kind, body, start, end);
    pendingSelection.current = [edit.selectionStart, edit.selectionEnd];
    setBody(edit.text);
    schedule();
  };

  const onBodyKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (!(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey) return;
    const tool = tools.find((candidate) => candidate.shortcut === event.key.toLowerCase());
    if (!tool) return;
    event.preventDefault();
    format(tool.format);
  };

  const modifier = isMac() ? '⌘' : 'Ctrl+';
  const conflict = hasConflict(body);
  const statusText =
    saveState === 'saving'
      ? 'Saving…'
      : saveState === 'saved'
        ? 'Saved on this device'
        : saveState === 'error'
          ? 'Not saved: see the message above'
          : note._pending > 0
            ? 'Saved on this device'
            : '';

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p role="status" className="min-h-5 text-sm text-fg-muted">
          {statusText}
        </p>
        <div className="flex gap-2">
          <Button
            variant="secondary"
            onPress={() => void onUpdate(note.id, { pinned: !note.pinned })}
          >
            {note.pinned ? (
              <>
                <PinOff aria-hidden="true" size={16} /> Unpin
              </>
            ) : (
              <>
                <Pin aria-hidden="true" size={16} /> Pin
              </>
            )}
          </Button>
          <Button variant="secondary" onPress={onDelete}>
            <Trash2 aria-hidden="true" size={16} /> Delete
          </Button>
        </div>
      </div>

      {errors.form ? (
        <p role="alert" className="text-sm font-medium text-danger">
          {errors.form}
        </p>
      ) : null}

      <FormTextField
        label="Title"
        value={title}
        inputRef={titleRef}
        error={errors.title}
        onChange={(value) => {
          setTitle(value);
          schedule();
        }}
        onBlur={() => void flush()}
      />

      {conflict ? (
        <div
          role="alert"
          className="flex items-start gap-2 rounded-lg border-2 border-brand bg-brand-soft p-3 text-sm text-fg"
        >
          <TriangleAlert aria-hidden="true" size={18} className="mt-0.5 shrink-0 text-brand" />
          <p>
            This note was edited in two places at once; both versions are kept — remove the one you
            don't want.
          </p>
        </div>
      ) : null}

      <div className="flex flex-col gap-1.5">
        <div className="flex flex-wrap items-end justify-between gap-2">
          <label htmlFor={bodyId} className="text-sm font-medium text-fg">
            Note
          </label>
          <ToggleButton
            isSelected={isPreview}
            onChange={setPreview}
            className="inline-flex min-h-11 cursor-pointer items-center gap-1.5 rounded-lg border border-border-strong bg-surface px-3 text-sm font-semibold text-fg hover:bg-surface-muted data-selected:bg-brand-soft sm:min-h-9"
          >
            <Eye aria-hidden="true" size={16} /> Preview
          </ToggleButton>
        </div>
        {isPreview ? (
          <div
            role="region"
            aria-label="Preview"
            className="min-h-64 rounded-lg border border-border bg-surface p-4"
          >
            <MarkdownPreview source={body} />
          </div>
        ) : (
          <div className="rounded-lg border border-border-strong bg-surface focus-within:border-ring focus-within:ring-2 focus-within:ring-ring/30">
            <Toolbar
              aria-label="Formatting"
              aria-controls={bodyId}
              className="flex flex-wrap gap-1 border-b border-border p-1"
            >
              {tools.map(({ format: kind, label, icon: Icon, shortcut }) => (
                <AriaButton
                  key={kind}
                  aria-label={shortcut ? `${label} (${modifier}${shortcut.toUpperCase()})` : label}
                  onPress={() => format(kind)}
                  className="grid size-11 cursor-pointer place-items-center rounded-md text-fg-muted hover:bg-surface-muted hover:text-fg data-focus-visible:ring-2 data-focus-visible:ring-ring sm:size-9"
                >
                  <Icon aria-hidden="true" size={16} />
                </AriaButton>
              ))}
            </Toolbar>
            <textarea
              id={bodyId}
              ref={bodyRef}
              value={body}
              aria-invalid={errors.body ? true : undefined}
              aria-describedby={errors.body ? `${bodyId}-error` : undefined}
              placeholder="Write in Markdown: **bold**, _italic_, - lists, - [ ] to-dos, [links](https://…)"
              onChange={(event) => {
                setBody(event.target.value);
                schedule();
              }}
              onKeyDown={onBodyKeyDown}
              onBlur={() => void flush()}
              className="block min-h-64 w-full resize-y rounded-b-lg bg-transparent p-3 font-mono text-sm leading-relaxed text-fg outline-none placeholder:text-fg-muted/80"
            />
          </div>
        )}
        {errors.body ? (
          <p id={`${bodyId}-error`} className="text-sm font-medium text-danger">
            {errors.body}
          </p>
        ) : null}
      </div>
      <p className="text-xs text-fg-muted">Written by {author}</p>
    </div>
  );
}
