/**
 * One message in a project's chat: who and when, its text (formatted, with mentions), the message
 * it answers, its attachments, its reactions as toggles, and a menu to reply, react, edit or
 * delete. Its state is said in words: "Sending…" until the server has it (or "Waiting for the
 * network" offline), "Edited", "Message deleted"; a refused one is shown by ChatFailedItem.
 *
 * Memoized: a row is drawn again only when one of its props changes, so a page of history added
 * to the chat draws the new rows alone. Its parent keeps the props' identities (the same message
 * object while it is unchanged, the same reaction and attachment arrays, stable callbacks).
 */
import { CornerUpLeft, EllipsisVertical, Paperclip } from 'lucide-react';
import {
  Button as AriaButton,
  Header,
  Menu,
  MenuItem,
  MenuSection,
  MenuTrigger,
  Popover,
} from 'react-aria-components';
import { memo } from 'react';
import { CHAT_REACTION_EMOJI } from '#contract/entities/chat.ts';
import type { LocalChatMessage, LocalChatReaction } from '../../data/chat.ts';
import { ChatText } from './chat-text.tsx';
import { initials } from '../../ui/initials.ts';

export type ChatReactionEmoji = (typeof CHAT_REACTION_EMOJI)[number];

export interface ChatAttachment {
  id: string;
  name: string;
}

export interface ChatPeople {
  /** "Ana Lima" (or "You") for a member id; the client's name for their messages. */
  nameOf: (message: Pick<LocalChatMessage, 'createdBy' | 'authorKind' | 'authorName'>) => string;
  /** Display names of member ids (mentions). */
  memberName: (userId: string) => string;
}

export interface ChatMessageItemProps {
  message: LocalChatMessage;
  /** The message it answers, when this device has it. */
  replyTo: LocalChatMessage | undefined;
  reactions: readonly LocalChatReaction[];
  attachments: readonly ChatAttachment[];
  people: ChatPeople;
  me: string;
  online: boolean;
  /** The previous message is the same author's, a few minutes before: no repeated header. */
  grouped: boolean;
  formatTime: (iso: string) => string;
  onReply: (message: LocalChatMessage) => void;
  onEdit: (message: LocalChatMessage) => void;
  onDelete: (message: LocalChatMessage) => void;
  onReact: (message: LocalChatMessage, emoji: ChatReactionEmoji) => void;
  onOpenAttachment: (fileId: string) => void;
  onShowMessage: (id: string) => void;
}

function excerpt(text: string, max = 90): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max)}…` : line;
}

export const ChatMessageItem = memo(function ChatMessageItem(props: ChatMessageItemProps) {
  const { message, people, me, reactions, replyTo } = props;
  const mine = message.createdBy === me && message.authorKind === 'member';
  const author = people.nameOf(message);
  const sent = message._v > 0;
  const counts = new Map<ChatReactionEmoji, { count: number; mine: boolean; names: string[] }>();
  for (const reaction of reactions) {
    const entry = counts.get(reaction.emoji) ?? { count: 0, mine: false, names: [] };
    entry.count += 1;
    entry.mine ||= reaction.createdBy === me;
    entry.names.push(people.memberName(reaction.createdBy));
    counts.set(reaction.emoji, entry);
  }
  const headingId = `chat-message-${message.id}`;

  return (
    <li
      id={`message-${message.id}`}
      aria-labelledby={headingId}
      tabIndex={-1}
      className={`group relative flex gap-3 rounded-lg px-2 outline-none focus-visible:ring-2 focus-visible:ring-ring ${props.grouped ? 'pt-0.5' : 'pt-3'} pb-0.5 hover:bg-surface-muted/60`}
    >
      <div aria-hidden="true" className="w-8 shrink-0">
        {!props.grouped && (
          <span
            className={`grid size-8 place-items-center rounded-full text-xs font-semibold ${message.authorKind === 'client' ? 'bg-success/15 text-success' : 'bg-brand-soft text-brand-strong'}`}
          >
            {initials(author)}
          </span>
        )}
      </div>
      <div className="min-w-0 flex-1">
        <p
          id={headingId}
          className={props.grouped ? 'sr-only' : 'flex flex-wrap items-baseline gap-x-2 text-sm'}
        >
          <span className="font-semibold text-fg">{author}</span>
          {message.authorKind === 'client' && (
            <span className="rounded bg-success/15 px-1.5 text-xs font-medium text-success">
              Client
            </span>
          )}
          <time dateTime={message.createdAt} className="text-xs text-fg-muted">
            {props.formatTime(message.createdAt)}
          </time>
        </p>
        {message.replyToId && (
          <button
            type="button"
            onClick={() => message.replyToId && props.onShowMessage(message.replyToId)}
            className="mt-1 flex max-w-full cursor-pointer items-center gap-1.5 truncate rounded border-l-2 border-border-strong bg-surface-muted px-2 py-0.5 text-left text-xs text-fg-muted hover:text-fg focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
          >
            <CornerUpLeft aria-hidden="true" size={12} className="shrink-0" />
            <span className="truncate">
              {replyTo
                ? `Reply to ${people.nameOf(replyTo)}: ${replyTo.deleted ? 'Message deleted' : excerpt(replyTo.text)}`
                : 'Reply to an earlier message'}
            </span>
          </button>
        )}
        {message.deleted ? (
          <p className="text-sm text-fg-muted italic">Message deleted</p>
        ) : (
          <p dir="auto" className="text-sm break-words whitespace-pre-wrap text-fg">
            <ChatText
              text={message.text}
              mentionNames={message.mentions.map((id) => people.memberName(id))}
            />
            {message.editedAt && <span className="ml-1 text-xs text-fg-muted">(edited)</span>}
          </p>
        )}
        {!message.deleted && props.attachments.length > 0 && (
          <ul aria-label="Attachments" className="mt-1 flex flex-wrap gap-1.5">
            {props.attachments.map((file) => (
              <li key={file.id}>
                <button
                  type="button"
                  onClick={() => props.onOpenAttachment(file.id)}
                  className="flex cursor-pointer items-center gap-1 rounded-md border border-border bg-surface px-2 py-1 text-xs text-fg hover:bg-surface-muted focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
                >
                  <Paperclip aria-hidden="true" size={12} />
                  {file.name}
                </button>
              </li>
            ))}
          </ul>
        )}
        {counts.size > 0 && (
          <ul aria-label="Reactions" className="mt-1 flex flex-wrap gap-1">
            {[...counts].map(([emoji, entry]) => (
              <li key={emoji}>
                <button
                  type="button"
                  aria-pressed={entry.mine}
                  aria-label={`${emoji} ${entry.count}: ${entry.names.join(', ')}. ${entry.mine ? 'Take back your reaction' : 'React too'}`}
                  disabled={message.deleted}
                  onClick={() => props.onReact(message, emoji)}
                  className={`flex min-h-7 cursor-pointer items-center gap-1 rounded-full border px-2 text-xs focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none ${entry.mine ? 'border-brand bg-brand-soft text-fg' : 'border-border bg-surface text-fg-muted hover:text-fg'}`}
                >
                  <span aria-hidden="true">{emoji}</span>
                  <span aria-hidden="true">{entry.count}</span>
                </button>
              </li>
            ))}
          </ul>
        )}
        {mine && !sent && (
          <p className="mt-0.5 text-xs text-fg-muted" role="status">
            {props.online
              ? 'Sending…'
              : 'Waiting for the network: it goes out when you are back online'}
          </p>
        )}
      </div>
      {!message.deleted && (
        <MenuTrigger>
          <AriaButton
            aria-label={`Actions for the message from ${author}`}
            data-chat-actions
            className="grid size-11 shrink-0 cursor-pointer place-items-center self-start rounded-lg text-fg-muted outline-none hover:bg-surface-muted hover:text-fg data-focus-visible:ring-2 data-focus-visible:ring-ring sm:size-8 sm:opacity-0 sm:group-focus-within:opacity-100 sm:group-hover:opacity-100 sm:data-focus-visible:opacity-100 sm:data-pressed:opacity-100"
          >
            <EllipsisVertical aria-hidden="true" size={16} />
          </AriaButton>
          <Popover
            placement="bottom end"
            className="min-w-44 rounded-xl border border-border bg-surface p-1 text-fg shadow-lg outline-none"
          >
            <Menu
              className="outline-none"
              onAction={(key) => {
                const action = String(key);
                if (action === 'reply') props.onReply(message);
                else if (action === 'edit') props.onEdit(message);
                else if (action === 'delete') props.onDelete(message);
                else if (action.startsWith('react:')) {
                  const emoji = CHAT_REACTION_EMOJI.find((e) => `react:${e}` === action);
                  if (emoji) props.onReact(message, emoji);
                }
              }}
            >
              <MenuItem id="reply" className={menuItemClass}>
                Reply
              </MenuItem>
              <MenuSection>
                <Header className="px-3 pt-1.5 pb-1 text-xs font-semibold text-fg-muted">
                  React
                </Header>
                {CHAT_REACTION_EMOJI.map((emoji) => (
                  <MenuItem
                    key={emoji}
                    id={`react:${emoji}`}
                    textValue={`React with ${emoji}`}
                    className={menuItemClass}
                  >
                    <span aria-hidden="true">{emoji}</span>
                    <span className="sr-only">React with {emoji}</span>
                  </MenuItem>
                ))}
              </MenuSection>
              {mine && (
                <MenuSection>
                  <MenuItem id="edit" className={menuItemClass}>
                    Edit
                  </MenuItem>
                  <MenuItem id="delete" className={`${menuItemClass} text-danger`}>
                    Delete…
                  </MenuItem>
                </MenuSection>
              )}
            </Menu>
          </Popover>
        </MenuTrigger>
      )}
    </li>
  );
});

const menuItemClass =
  'flex cursor-pointer items-center gap-2 rounded-lg px-3 py-2 text-sm outline-none data-focused:bg-surface-muted';
