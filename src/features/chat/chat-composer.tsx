/**
 * The chat's composer: a text box that grows with its text (Enter sends, Shift+Enter is a new
 * line), @ to mention a member (a list to pick from with the arrow keys, Enter or Tab), a reply or
 * an edit in progress shown above it with Cancel (Escape), project files to attach, and what
 * happens offline said below it. A refusal the device can tell at once (too long) is said beside
 * the box and nothing is queued.
 */
import { Paperclip, X } from 'lucide-react';
import {
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
  type FormEvent,
  type KeyboardEvent,
} from 'react';
import { Button as AriaButton, Menu, MenuItem, MenuTrigger, Popover } from 'react-aria-components';
import { MAX_CHAT_ATTACHMENTS, MAX_CHAT_MESSAGE_CHARS } from '#contract/entities/chat.ts';
import { Button } from '../../ui/button.tsx';

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
}

const MENTION_AT_CARET = /(^|\s)@([\p{L}\p{N}_.-]{0,30})$/u;
const COUNTER_FROM = MAX_CHAT_MESSAGE_CHARS - 1_000;

export function ChatComposer(props: ChatComposerProps) {
  const { members, editing } = props;
  const [text, setText] = useState('');
  const [mentions, setMentions] = useState<ChatMember[]>([]);
  const [attached, setAttached] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [query, setQuery] = useState<string | null>(null);
  const [active, setActive] = useState(0);
  const listId = useId();
  const errorId = useId();
  const hintId = useId();
  const editKey = useRef<typeof editing>(null);

  // Starting an edit puts its text in the box; cancelling empties it.
  useEffect(() => {
    if (editing === editKey.current) return;
    editKey.current = editing;
    setText(editing?.text ?? '');
    setMentions(members.filter((member) => editing?.mentions.includes(member.id)));
    setError(null);
  }, [editing, members]);

  const matches = useMemo(() => {
    if (query === null) return [];
    const wanted = query.toLowerCase();
    return members.filter((member) => member.name.toLowerCase().includes(wanted)).slice(0, 6);
  }, [members, query]);

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
    setBusy(true);
    // A mention counts only while its @Name is still in the text.
    const named = mentions.filter((member) => trimmed.includes(`@${member.name}`));
    const refused = await props.onSubmit({
      text: trimmed,
      mentions: named.map((member) => member.id),
      attachmentFileIds: attached,
    });
    setBusy(false);
    if (refused) {
      setError(refused);
      return;
    }
    setText('');
    setMentions([]);
    setAttached([]);
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

  return (
    <form onSubmit={(event) => void submit(event)} className="flex flex-col gap-2">
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
      {attached.length > 0 && (
        <ul aria-label="Files to attach" className="flex flex-wrap gap-1.5">
          {attached.map((id) => (
            <li
              key={id}
              className="flex items-center gap-1 rounded-md border border-border bg-surface py-0.5 pr-0.5 pl-2 text-xs"
            >
              <Paperclip aria-hidden="true" size={12} />
              {files.get(id) ?? 'A file'}
              <AriaButton
                aria-label={`Remove ${files.get(id) ?? 'the file'}`}
                onPress={() => setAttached((current) => current.filter((entry) => entry !== id))}
                className="grid size-7 cursor-pointer place-items-center rounded hover:bg-surface-muted data-focus-visible:ring-2 data-focus-visible:ring-ring"
              >
                <X aria-hidden="true" size={12} />
              </AriaButton>
            </li>
          ))}
        </ul>
      )}
      <div className="relative flex items-end gap-2">
        {!editing && (
          <MenuTrigger>
            <AriaButton
              aria-label="Attach a project file"
              isDisabled={props.files.length === 0 || attached.length >= MAX_CHAT_ATTACHMENTS}
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
                  setAttached((current) =>
                    current.includes(String(key)) ? current : [...current, String(key)],
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
        <div className="relative min-w-0 flex-1">
          <label htmlFor={`${listId}-input`} className="sr-only">
            Message to {props.projectName}
          </label>
          <textarea
            id={`${listId}-input`}
            ref={props.inputRef}
            rows={1}
            value={text}
            dir="auto"
            placeholder="Message (@ to mention)"
            aria-controls={open ? listId : undefined}
            aria-autocomplete="list"
            aria-activedescendant={open ? `${listId}-${active}` : undefined}
            aria-invalid={error ? true : undefined}
            aria-describedby={[error ? errorId : '', hintId].filter(Boolean).join(' ')}
            onChange={(event) => {
              update(event.target.value, event.target.selectionStart);
              resize(event.target);
            }}
            onKeyDown={onKeyDown}
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
      {error && (
        <p id={errorId} className="text-sm text-danger" role="alert">
          {error}
        </p>
      )}
      <p id={hintId} className="text-xs text-fg-muted">
        {props.online
          ? 'Enter sends, Shift+Enter starts a new line.'
          : 'You are offline: messages wait on this device and are sent when you are back online.'}
        {text.length > COUNTER_FROM &&
          ` ${text.length.toLocaleString()} of ${MAX_CHAT_MESSAGE_CHARS.toLocaleString()} characters.`}
      </p>
    </form>
  );
}
