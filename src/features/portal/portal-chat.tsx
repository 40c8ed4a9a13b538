/**
 * The portal's "Messages" section: the project's chat with the team, when a member turned it on
 * for the client (otherwise nothing is shown). Oldest first with the newest at the bottom, earlier
 * pages on demand; read when the page loads, every 15 s while the page is shown and online, and
 * when the browser is back online. Sending needs the network (the message is the server's at
 * once, as the team sees it); offline, the last messages read stay on screen and the composer
 * says why it is off. A failed send keeps the text.
 */
import type { CallEndpoint } from '#contract/define-endpoint.ts';
import { MAX_CHAT_MESSAGE_CHARS } from '#contract/entities/chat.ts';
import {
  getPortalChat,
  sendPortalChatMessage,
  type PortalChatMessage,
} from '#contract/endpoints/portal-chat.ts';
import { Send } from 'lucide-react';
import { useCallback, useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { Button } from '../../ui/button.tsx';
import { portalActionFailure } from './portal-action-result.ts';

const POLL_MS = 15_000;

const failureWords = (error: unknown): string => {
  const failure = portalActionFailure(
    error,
    'You’re offline: your message was not sent. Try again when you’re back online.',
    [],
  );
  return failure.ok ? '' : failure.message;
};

export interface PortalChatProps {
  callEndpoint: CallEndpoint;
  projectId: string;
  workspaceName: string;
  offline: boolean;
  /** A new message id (the page's own, so a retried send is stored once). */
  newId?: () => string;
  pollMs?: number;
}

/** Messages by id, in the server's order. */
function merge(
  current: readonly PortalChatMessage[],
  incoming: readonly PortalChatMessage[],
): PortalChatMessage[] {
  const byId = new Map(current.map((message) => [message.id, message]));
  for (const message of incoming) byId.set(message.id, message);
  return [...byId.values()].sort((a, b) => a.seq - b.seq);
}

const timeFormat = new Intl.DateTimeFormat(undefined, {
  day: 'numeric',
  month: 'short',
  hour: 'numeric',
  minute: '2-digit',
});

export function PortalChat({
  callEndpoint,
  projectId,
  workspaceName,
  offline,
  newId = () => crypto.randomUUID(),
  pollMs = POLL_MS,
}: PortalChatProps) {
  const [enabled, setEnabled] = useState(false);
  const [messages, setMessages] = useState<PortalChatMessage[]>([]);
  const [hasOlder, setHasOlder] = useState(false);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const [draft, setDraft] = useState('');
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const hintId = useId();
  const listRef = useRef<HTMLOListElement>(null);

  const load = useCallback(async () => {
    try {
      const answer = await callEndpoint(getPortalChat, { query: { projectId } });
      setEnabled(answer.enabled);
      if (!answer.enabled) {
        setMessages([]);
        return;
      }
      setMessages((current) => merge(current, answer.messages));
      // Only the first page decides whether there is more before it.
      setHasOlder((older) => older || answer.hasOlder);
    } catch {
      // A failed read keeps what is on screen; the next one tries again.
    }
  }, [callEndpoint, projectId]);

  useEffect(() => {
    if (offline) return;
    void load();
    const timer = window.setInterval(() => {
      if (document.visibilityState === 'visible') void load();
    }, pollMs);
    return () => window.clearInterval(timer);
  }, [load, offline, pollMs]);

  // The newest message in view when one arrives (the list scrolls, the page does not).
  const newest = messages.at(-1)?.id;
  useEffect(() => {
    const list = listRef.current;
    if (list) list.scrollTop = list.scrollHeight;
  }, [newest]);

  if (!enabled) return null;

  const loadOlder = async () => {
    const first = messages[0];
    if (!first) return;
    setLoadingOlder(true);
    try {
      const answer = await callEndpoint(getPortalChat, {
        query: { projectId, before: String(first.seq) },
      });
      setMessages((current) => merge(current, answer.messages));
      setHasOlder(answer.hasOlder);
    } catch (caught) {
      setError(failureWords(caught));
    } finally {
      setLoadingOlder(false);
    }
  };

  const send = async () => {
    const text = draft.trim();
    if (text === '' || sending || offline) return;
    setSending(true);
    setError(null);
    try {
      const { message } = await callEndpoint(sendPortalChatMessage, {
        query: {},
        body: { id: newId(), projectId, text },
      });
      setMessages((current) => merge(current, [message]));
      setDraft('');
    } catch (caught) {
      setError(failureWords(caught));
    } finally {
      setSending(false);
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    // Enter sends, Shift+Enter starts a new line (as in the members' chat).
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void send();
    }
  };

  return (
    <section aria-labelledby="portal-chat" className="flex flex-col gap-3">
      <h2 id="portal-chat" className="text-xl font-semibold text-fg">
        Messages
      </h2>
      {hasOlder ? (
        <Button
          variant="ghost"
          onPress={() => void loadOlder()}
          isPending={loadingOlder}
          className="w-fit"
        >
          Show earlier messages
        </Button>
      ) : null}
      {messages.length === 0 ? (
        <p className="rounded-2xl border border-dashed border-border p-6 text-center text-fg-muted">
          No messages yet. Write to {workspaceName} here; the team sees it at once.
        </p>
      ) : (
        <ol
          ref={listRef}
          aria-label="Messages with the team"
          // Focusable so a keyboard can scroll it (axe: scrollable-region-focusable).
          tabIndex={0}
          className="flex max-h-[28rem] flex-col gap-3 overflow-y-auto rounded-2xl border border-border bg-surface p-3 outline-none focus-visible:ring-2 focus-visible:ring-ring sm:p-4"
        >
          {messages.map((message) => {
            const mine = message.authorKind === 'client';
            return (
              <li
                key={message.id}
                className={`flex max-w-[85%] flex-col gap-1 rounded-2xl px-3 py-2 ${mine ? 'self-end bg-brand-soft' : 'self-start bg-surface-muted'}`}
              >
                <p className="flex flex-wrap items-baseline gap-x-2 text-xs text-fg-muted">
                  <span className="font-semibold text-fg">{mine ? 'You' : message.authorName}</span>
                  <time dateTime={message.createdAt}>
                    {timeFormat.format(new Date(message.createdAt))}
                  </time>
                  {message.editedAt ? <span>(edited)</span> : null}
                </p>
                {message.text === null ? (
                  <p className="text-sm text-fg-muted italic">Message deleted</p>
                ) : (
                  <p className="text-sm break-words whitespace-pre-line text-fg">{message.text}</p>
                )}
              </li>
            );
          })}
        </ol>
      )}
      <form
        className="flex flex-col gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          void send();
        }}
      >
        <label htmlFor={`${hintId}-field`} className="text-sm font-medium text-fg">
          Message to {workspaceName}
        </label>
        <textarea
          id={`${hintId}-field`}
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
          onKeyDown={onKeyDown}
          rows={2}
          maxLength={MAX_CHAT_MESSAGE_CHARS}
          disabled={offline}
          aria-describedby={hintId}
          className="min-h-11 w-full rounded-lg border border-border bg-surface px-3 py-2 text-base text-fg disabled:cursor-not-allowed disabled:opacity-60"
        />
        <div className="flex flex-wrap items-center justify-between gap-2">
          <p id={hintId} className="text-sm text-fg-muted">
            {offline
              ? 'You’re offline: messages need a connection. The ones above are the last read.'
              : 'Enter sends, Shift+Enter starts a new line.'}
          </p>
          <Button type="submit" isDisabled={offline || draft.trim() === ''} isPending={sending}>
            <Send aria-hidden="true" size={16} />
            Send
          </Button>
        </div>
        {error ? (
          <p role="alert" className="text-sm text-danger">
            {error}
          </p>
        ) : null}
      </form>
    </section>
  );
}
