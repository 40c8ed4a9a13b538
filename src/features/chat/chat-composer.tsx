/**
 * The chat's composer: a text box that grows with its text (Enter sends, Shift+Enter is a new
 * line), @ to mention a member (a list to pick from with the arrow keys, Enter or Tab), a reply or
 * an edit in progress shown above it with Cancel (Escape), project files to attach, and what
 * happens offline said below it. A refusal the device can tell at once (too long) is said beside
 * the box and nothing is queued.
 *
 * Attachments are chips above the box: a file already in the project (the paperclip menu), or a
 * new file uploaded from here (Upload a file, a drop on the composer, a pasted image) through the
 * Files tab's upload queue (chat-uploads.ts). An upload's chip shows its progress, then attaches
 * the file the server wrote; a failed one says why, with Retry and Remove. A message is not sent
 * while one of its uploads is running or failed: it says so, and nothing is left out silently.
 * Uploading needs a connection: offline the button is disabled and the hint says why. Removing a
 * chip moves focus to the next chip, or to the text box when it was the last.
 */
import { CircleAlert, CircleCheck, Paperclip, RotateCw, Upload, X } from 'lucide-react';
import {
  useEffect,
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type FormEvent,
  type KeyboardEvent,
} from 'react';
import {
  Button as AriaButton,
  FileTrigger,
  Menu,
  MenuItem,
  MenuTrigger,
  Popover,
  ProgressBar,
} from 'react-aria-components';
import { MAX_CHAT_ATTACHMENTS, MAX_CHAT_MESSAGE_CHARS } from '#contract/entities/chat.ts';
import { Button } from '../../ui/button.tsx';
import { useFileDrop } from '../../ui/use-file-drop.ts';
import type { ChatUploads } from './chat-uploads.ts';

export interface ChatMember {
  id: string;
  name: string;
}

export interface ChatDraft {
  text: string;
  mentions: string[];
  attachmentFileIds: string[];
}

export interface ChatComposerProps {
  projectName: string;
  members: readonly ChatMember[];
  files: readonly { id: string; name: string }[];
  online: boolean;
  /** A reply in progress: whom and what it answers. */
  replyingTo: { author: string; excerpt: string } | null;
  /** An edit in progress (own message, or a refused one being corrected): its text. */
  editing: { text: string; mentions: readonly string[]; label: string } | null;
  onCancel: () => void;
  /** Resolves an error message to show, or null once the draft is written. */
  onSubmit: (draft: ChatDraft) => Promise<string | null>;
  inputRef: React.RefObject<HTMLTextAreaElement | null>;
  /** Uploading new files from the composer (absent: only project files can be attached). */
  uploads?: ChatUploads;
}

/** An attachment in the draft: a project file, or an upload on its way (or done). */
type Chip = { key: string; fileId: string } | { key: string; uploadId: string; name: string };

let chipSeq = 0;
const nextKey = () => `chip-${(chipSeq += 1)}`;

/** A pasted image has no useful name ("image.png" every time): give it a distinct one. */
function pastedName(file: File, index: number): string {
  const stamp = new Date().toISOString().slice(0, 19).replace('T', ' ').replaceAll(':', '.');
  const extension = /\.[A-Za-z0-9]{1,8}$/.exec(file.name)?.[0] ?? '';
  return `Pasted image ${stamp}${index > 0 ? ` (${index + 1})` : ''}${extension}`;
}

const MENTION_AT_CARET = /(^|\s)@([\p{L}\p{N}_.-]{0,30})$/u;
const COUNTER_FROM = MAX_CHAT_MESSAGE_CHARS - 1_000;

export function ChatComposer(props: ChatComposerProps) {
  const { members, editing } = props;
  const [text, setText] = useState('');
  const [mentions, setMentions] = useState<ChatMember[]>([]);
  const [chips, setChips] = useState<Chip[]>([]);
  /** Send was pressed while an upload ran or failed: the reason shows until that is settled. */
  const [blocked, setBlocked] = useState(false);
  const chipList = useRef<HTMLUListElement>(null);
  const focusChip = useRef<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [query, setQuery] = useState<string | null>(null);
  const [active, setActive] = useState(0);
  const listId = useId();
  const errorId = useId();
  const hintId = useId();
  const uploadNoteId = useId();
  const editKey = useRef<typeof editing>(null);
  const caretToEnd = useRef(false);

  // Starting an edit puts its text in the box; cancelling empties it.
  useEffect(() => {
    if (editing === editKey.current) return;
    editKey.current = editing;
    caretToEnd.current = editing !== null;
    setText(editing?.text ?? '');
    setMentions(members.filter((member) => editing?.mentions.includes(member.id)));
    setError(null);
  }, [editing, members]);

  // The caret goes after an edit's text (once it is in the box), where one goes on typing: a
  // text box keeps its selection while unfocused, so the focus that follows finds it there.
  useLayoutEffect(() => {
    const input = props.inputRef.current;
    if (!caretToEnd.current || !input) return;
    caretToEnd.current = false;
    input.setSelectionRange(input.value.length, input.value.length);
  });

  const matches = useMemo(() => {
    if (query === null) return [];
    const wanted = query.toLowerCase();
    return members.filter((member) => member.name.toLowerCase().includes(wanted)).slice(0, 6);
  }, [members, query]);

  const { uploads } = props;
  const stateOf = (chip: Chip) =>
    'uploadId' in chip ? uploads?.stateOf(chip.uploadId) : undefined;
  const attachmentIds = chips.flatMap((chip) =>
    'fileId' in chip ? [chip.fileId] : (stateOf(chip)?.fileId ?? []),
  );
  const running = chips.filter(
    (chip) => 'uploadId' in chip && (stateOf(chip)?.phase ?? 'uploading') === 'uploading',
  ).length;
  const stuck = chips.filter((chip) => {
    const phase = stateOf(chip)?.phase;
    return phase === 'failed' || phase === 'gone';
  }).length;
  const blocker =
    running > 0
      ? `Wait for ${running === 1 ? 'the file' : `${running} files`} to finish uploading, or remove ${running === 1 ? 'it' : 'them'}.`
      : stuck > 0
        ? `Retry the ${stuck === 1 ? 'file' : 'files'} that did not upload, or remove ${stuck === 1 ? 'it' : 'them'}.`
        : null;
  const shownError = error ?? (blocked && !editing ? blocker : null);
  useEffect(() => {
    if (!blocker) setBlocked(false);
  }, [blocker]);
  const room = MAX_CHAT_ATTACHMENTS - chips.length;
  const canUpload = Boolean(uploads?.online) && !editing && room > 0;

  // After a chip goes: the chip now in its place, else the text box.
  useEffect(() => {
    const index = focusChip.current;
    if (index === null) return;
    focusChip.current = null;
    const next = chipList.current?.querySelectorAll<HTMLElement>('li')[index];
    (next?.querySelector<HTMLElement>('button') ?? props.inputRef.current)?.focus();
  });

  const removeChip = (chip: Chip) => {
    const index = chips.indexOf(chip);
    if ('uploadId' in chip) uploads?.remove(chip.uploadId);
    focusChip.current = Math.max(0, index);
    setChips((current) => current.filter((entry) => entry.key !== chip.key));
  };

  const upload = async (picked: readonly File[]) => {
    if (!uploads || picked.length === 0) return;
    if (!canUpload) {
      setError(
        editing
          ? 'Files can be attached to a new message, not to an edit.'
          : !uploads.online
            ? 'Uploading a file needs a connection.'
            : `A message can have at most ${MAX_CHAT_ATTACHMENTS} attachments.`,
      );
      return;
    }
    const taken = picked.slice(0, room);
    try {
      const ids = await uploads.add(taken);
      setChips((current) => [
        ...current,
        ...ids.map((uploadId, index) => ({
          key: nextKey(),
          uploadId,
          name: taken[index]?.name ?? 'A file',
        })),
      ]);
      setError(
        taken.length < picked.length
          ? `A message can have at most ${MAX_CHAT_ATTACHMENTS} attachments: ${picked.length - taken.length} not added.`
          : null,
      );
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : 'The file could not be uploaded.');
    }
  };

  const onPaste = (event: React.ClipboardEvent<HTMLTextAreaElement>) => {
    const pasted = [...event.clipboardData.files];
    if (!uploads || pasted.length === 0) return;
    event.preventDefault();
    void upload(
      pasted.map((file, index) =>
        file.type.startsWith('image/') && /^image\.\w+$/i.test(file.name)
          ? new File([file], pastedName(file, index), { type: file.type })
          : file,
      ),
    );
  };

  const resize = (element: HTMLTextAreaElement) => {
    element.style.height = 'auto';
    element.style.height = `${Math.min(element.scrollHeight, 200)}px`;
  };

  const update = (value: string, caret: number) => {
    setText(value);
    setError(null);
    const found = MENTION_AT_CARET.exec(value.slice(0, caret));
    setQuery(found ? (found[2] ?? '') : null);
    setActive(0);
  };

  const choose = (member: ChatMember) => {
    const input = props.inputRef.current;
    const caret = input?.selectionStart ?? text.length;
    const before = text.slice(0, caret).replace(/@[\p{L}\p{N}_.-]{0,30}$/u, `@${member.name} `);
    const next = before + text.slice(caret);
    setText(next);
    setMentions((current) =>
      current.some((entry) => entry.id === member.id) ? current : [...current, member],
    );
    setQuery(null);
    requestAnimationFrame(() => {
      input?.focus();
      input?.setSelectionRange(before.length, before.length);
    });
  };

  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    if (busy) return;
    const trimmed = text.trim();
    if (trimmed === '') {
      setError('Write a message first');
      return;
    }
    if (!editing && blocker) {
      setError(null);
      setBlocked(true);
      return;
    }
    setBusy(true);
    // A mention counts only while its @Name is still in the text.
    const named = mentions.filter((member) => trimmed.includes(`@${member.name}`));
    const refused = await props.onSubmit({
      text: trimmed,
      mentions: named.map((member) => member.id),
      attachmentFileIds: editing ? [] : attachmentIds,
    });
    setBusy(false);
    if (refused) {
      setError(refused);
      return;
    }
    setText('');
    setMentions([]);
    if (!editing) setChips([]);
    if (props.inputRef.current) props.inputRef.current.style.height = 'auto';
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (matches.length > 0 && query !== null) {
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        const step = event.key === 'ArrowDown' ? 1 : -1;
        setActive((current) => (current + step + matches.length) % matches.length);
        return;
      }
      if (event.key === 'Enter' || event.key === 'Tab') {
        event.preventDefault();
        const member = matches[active];
        if (member) choose(member);
        return;
      }
    }
    if (event.key === 'Escape') {
      if (query !== null) {
        setQuery(null);
        return;
      }
      if (editing || props.replyingTo) {
        event.preventDefault();
        props.onCancel();
      }
      return;
    }
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void submit();
    }
  };

  const files = new Map(props.files.map((file) => [file.id, file.name]));
  const open = query !== null && matches.length > 0;
  const banner = editing
    ? editing.label
    : props.replyingTo
      ? `Replying to ${props.replyingTo.author}: ${props.replyingTo.excerpt}`
      : null;

  // A drop while editing or offline still lands in `upload`, which says why it cannot attach.
  const { dragging, dropProps } = useFileDrop((files) => void upload(files), Boolean(uploads));

  return (
    <form
      onSubmit={(event) => void submit(event)}
      {...dropProps}
      className={`flex flex-col gap-2 rounded-xl ${dragging ? 'outline-2 outline-offset-4 outline-brand outline-dashed' : ''}`}
    >
      {banner && (
        <div className="flex items-center gap-2 rounded-lg bg-surface-muted px-3 py-1.5 text-sm text-fg-muted">
          <span className="min-w-0 flex-1 truncate">{banner}</span>
          <AriaButton
            onPress={props.onCancel}
            aria-label={editing ? 'Cancel the edit' : 'Cancel the reply'}
            className="grid size-8 cursor-pointer place-items-center rounded-md hover:bg-surface hover:text-fg data-focus-visible:ring-2 data-focus-visible:ring-ring"
          >
            <X aria-hidden="true" size={14} />
          </AriaButton>
        </div>
      )}
      {!editing && chips.length > 0 && (
        <ul ref={chipList} aria-label="Files to attach" className="flex flex-wrap gap-1.5">
          {chips.map((chip) => {
            const name = 'fileId' in chip ? (files.get(chip.fileId) ?? 'A file') : chip.name;
            const state = stateOf(chip);
            const phase = 'fileId' in chip ? 'done' : (state?.phase ?? 'uploading');
            const trouble = phase === 'failed' || phase === 'gone';
            return (
              <li
                key={chip.key}
                className={`flex max-w-full flex-col rounded-md border bg-surface text-xs ${trouble ? 'border-danger/60' : 'border-border'}`}
              >
                <div className="flex min-w-0 items-center gap-1 py-0.5 pr-0.5 pl-2">
                  {trouble ? (
                    <CircleAlert aria-hidden="true" size={12} className="shrink-0 text-danger" />
                  ) : 'uploadId' in chip && phase === 'done' ? (
                    <CircleCheck aria-hidden="true" size={12} className="shrink-0 text-success" />
                  ) : (
                    <Paperclip aria-hidden="true" size={12} className="shrink-0" />
                  )}
                  <span className="min-w-0 truncate" title={name}>
                    {name}
                  </span>
                  {'uploadId' in chip && !trouble && (
                    <span className="shrink-0 text-fg-muted">
                      · {state?.text ?? 'Waiting to upload'}
                    </span>
                  )}
                  {phase === 'failed' && 'uploadId' in chip && (
                    <AriaButton
                      aria-label={`Retry ${name}`}
                      isDisabled={!uploads?.online}
                      onPress={() => uploads?.retry(chip.uploadId)}
                      className="flex min-h-7 cursor-pointer items-center gap-1 rounded px-1.5 font-medium hover:bg-surface-muted disabled:cursor-not-allowed disabled:opacity-50 data-focus-visible:ring-2 data-focus-visible:ring-ring"
                    >
                      <RotateCw aria-hidden="true" size={12} /> Retry
                    </AriaButton>
                  )}
                  <AriaButton
                    aria-label={`Remove ${name}`}
                    onPress={() => removeChip(chip)}
                    className="grid size-7 shrink-0 cursor-pointer place-items-center rounded hover:bg-surface-muted data-focus-visible:ring-2 data-focus-visible:ring-ring"
                  >
                    <X aria-hidden="true" size={12} />
                  </AriaButton>
                </div>
                {trouble && (
                  <p role="alert" className="px-2 pb-1 break-words text-danger">
                    {state?.text}
                  </p>
                )}
                {phase === 'uploading' && (
                  <ProgressBar
                    aria-label={`Upload of ${name}`}
                    value={state?.percent ?? 0}
                    valueLabel={state?.text ?? 'Waiting to upload'}
                    className="mx-2 mb-1 h-1 overflow-hidden rounded-full bg-surface-muted"
                  >
                    <div
                      className="h-full rounded-full bg-brand transition-[width] motion-reduce:transition-none"
                      style={{ width: `${state?.percent ?? 0}%` }}
                    />
                  </ProgressBar>
                )}
              </li>
            );
          })}
        </ul>
      )}
      <div className="relative flex items-end gap-2">
        {!editing && (
          <MenuTrigger>
            <AriaButton
              aria-label="Attach a project file"
              isDisabled={props.files.length === 0 || room <= 0}
              className="grid size-11 shrink-0 cursor-pointer place-items-center rounded-lg border border-border text-fg-muted hover:bg-surface-muted hover:text-fg disabled:cursor-not-allowed disabled:opacity-50 data-focus-visible:ring-2 data-focus-visible:ring-ring"
            >
              <Paperclip aria-hidden="true" size={16} />
            </AriaButton>
            <Popover
              placement="top start"
              className="max-h-72 min-w-56 overflow-y-auto rounded-xl border border-border bg-surface p-1 text-fg shadow-lg outline-none"
            >
              <Menu
                aria-label="Project files"
                className="outline-none"
                onAction={(key) =>
                  setChips((current) =>
                    current.some((chip) => 'fileId' in chip && chip.fileId === String(key))
                      ? current
                      : [...current, { key: nextKey(), fileId: String(key) }],
                  )
                }
              >
                {props.files.map((file) => (
                  <MenuItem
                    key={file.id}
                    id={file.id}
                    textValue={file.name}
                    className="cursor-pointer truncate rounded-lg px-3 py-2 text-sm outline-none data-focused:bg-surface-muted"
                  >
                    {file.name}
                  </MenuItem>
                ))}
              </Menu>
            </Popover>
          </MenuTrigger>
        )}
        {!editing && uploads && (
          <FileTrigger allowsMultiple onSelect={(list) => void upload(list ? [...list] : [])}>
            <AriaButton
              aria-label="Upload a file"
              {...(uploads.online ? {} : { 'aria-describedby': uploadNoteId })}
              isDisabled={!canUpload}
              className="grid size-11 shrink-0 cursor-pointer place-items-center rounded-lg border border-border text-fg-muted hover:bg-surface-muted hover:text-fg disabled:cursor-not-allowed disabled:opacity-50 data-focus-visible:ring-2 data-focus-visible:ring-ring"
            >
              <Upload aria-hidden="true" size={16} />
            </AriaButton>
          </FileTrigger>
        )}
        <div className="relative min-w-0 flex-1">
          <label htmlFor={`${listId}-input`} className="sr-only">
            Message to {props.projectName}
          </label>
          <textarea
            id={`${listId}-input`}
            ref={props.inputRef}
            data-chat-composer
            rows={1}
            value={text}
            dir="auto"
            placeholder="Message (@ to mention)"
            aria-controls={open ? listId : undefined}
            aria-autocomplete="list"
            aria-activedescendant={open ? `${listId}-${active}` : undefined}
            aria-invalid={error ? true : undefined}
            aria-describedby={[shownError ? errorId : '', hintId].filter(Boolean).join(' ')}
            onChange={(event) => {
              update(event.target.value, event.target.selectionStart);
              resize(event.target);
            }}
            onKeyDown={onKeyDown}
            onPaste={onPaste}
            onBlur={() => setTimeout(() => setQuery(null), 150)}
            className="block max-h-[200px] min-h-11 w-full resize-none rounded-lg border border-border-strong bg-surface px-3 py-2.5 text-sm text-fg placeholder:text-fg-muted focus:ring-2 focus:ring-ring focus:outline-none aria-invalid:border-danger"
          />
          {open && (
            <ul
              id={listId}
              role="listbox"
              aria-label="Members to mention"
              className="absolute bottom-full left-0 z-10 mb-1 w-64 rounded-xl border border-border bg-surface p-1 shadow-lg"
            >
              {matches.map((member, index) => (
                <li
                  key={member.id}
                  id={`${listId}-${index}`}
                  role="option"
                  aria-selected={index === active}
                  onMouseDown={(event) => {
                    event.preventDefault();
                    choose(member);
                  }}
                  className={`cursor-pointer rounded-lg px-3 py-2 text-sm ${index === active ? 'bg-surface-muted text-fg' : 'text-fg'}`}
                >
                  {member.name}
                </li>
              ))}
            </ul>
          )}
        </div>
        <Button type="submit" variant="primary" isDisabled={busy}>
          {editing ? 'Save' : 'Send'}
        </Button>
      </div>
      {shownError && (
        <p id={errorId} className="text-sm text-danger" role="alert">
          {shownError}
        </p>
      )}
      <p id={hintId} className="text-xs text-fg-muted">
        {props.online
          ? 'Enter sends, Shift+Enter starts a new line.'
          : 'You are offline: messages wait on this device and are sent when you are back online.'}
        {uploads && !uploads.online && !editing && (
          <span id={uploadNoteId}> Uploading a file needs a connection.</span>
        )}
        {dragging && ' Drop the files to upload and attach them.'}
        {text.length > COUNTER_FROM &&
          ` ${text.length.toLocaleString()} of ${MAX_CHAT_MESSAGE_CHARS.toLocaleString()} characters.`}
      </p>
    </form>
  );
}
