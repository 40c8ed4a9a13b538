/**
 * The portal's "Messages" section: the project's chat with the team, when a member turned it on
 * for the client (otherwise nothing is shown). Oldest first with the newest at the bottom, earlier
 * pages on demand; read when the page loads, every 15 s while the page is shown and online, and
 * when the browser is back online. The newest page read is kept on the device (portal-snapshot.ts),
 * so the chat opens offline as a saved copy, with when it was saved.
 *
 * A message the client sends goes through the chat's outbox (portal-outbox.ts) even online: it
 * shows at once ("Sending…", offline "Waiting for a connection"), stays on the device until the
 * server has it, and is sent once back online; the page makes its id and the server stores an id
 * once, so a send repeated after a lost answer is one message. A refused one stays, with the
 * server's words, Retry, Edit (back into the field) and Remove.
 */
import { MAX_CHAT_MESSAGE_CHARS } from '#contract/entities/chat.ts';
import {
  getPortalChat,
  PORTAL_CHAT_PAGE,
  sendPortalChatMessage,
  type PortalChatMessage,
} from '#contract/endpoints/portal-chat.ts';
import { Send } from 'lucide-react';
import { useCallback, useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { Button } from '../../ui/button.tsx';
import { portalActionFailure } from './portal-action-result.ts';
import { PortalChatLog, SavedChatNote, type PortalChatProps } from './portal-chat-messages.tsx';
import {
  createPortalChatOutbox,
  readPortalChatOutbox,
  type PortalChatOutbox,
  type PortalChatOutboxEntry,
} from './portal-outbox.ts';
import { readPortalSavedPart, writePortalSavedPart } from './portal-saved-parts.ts';

export type { PortalChatProps } from './portal-chat-messages.tsx';

const POLL_MS = 15_000;

const failureWords = (error: unknown): string => {
  const failure = portalActionFailure(
    error,
    'You’re offline: earlier messages need a connection. Try again when you’re back online.',
    [],
  );
  return failure.ok ? '' : failure.message;
};

/** Messages by id, in the server's order. */
function merge(
  current: readonly PortalChatMessage[],
  incoming: readonly PortalChatMessage[],
): PortalChatMessage[] {
  const byId = new Map(current.map((message) => [message.id, message]));
  for (const message of incoming) byId.set(message.id, message);
  return [...byId.values()].sort((a, b) => a.seq - b.seq);
}

export function PortalChat({
  callEndpoint,
  projectId,
  workspaceName,
  offline,
  storage = globalThis.localStorage,
  now = Date.now,
  newId = () => crypto.randomUUID(),
  pollMs = POLL_MS,
}: PortalChatProps) {
  // The saved copy first: only a chat that was on when it was read has one.
  const [saved] = useState(() => readPortalSavedPart(storage, projectId, 'chat'));
  const [enabled, setEnabled] = useState(saved !== null);
  const [messages, setMessages] = useState<PortalChatMessage[]>(saved?.messages ?? []);
  const [savedAt, setSavedAt] = useState(saved?.savedAt ?? null);
  const [hasOlder, setHasOlder] = useState(saved?.hasOlder ?? false);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const [waiting, setWaiting] = useState(() => readPortalChatOutbox(storage, projectId));
  const [draft, setDraft] = useState('');
  const [error, setError] = useState<string | null>(null);
  const hintId = useId();
  const fieldId = `${hintId}-field`;
  const listRef = useRef<HTMLOListElement>(null);
  const outboxRef = useRef<PortalChatOutbox | null>(null);
  // The outbox lives as long as the project is shown (a new one per render would start a second
  // flush beside one under way): it reaches the latest props through this.
  const latest = useRef({ callEndpoint, now });
  useEffect(() => {
    latest.current = { callEndpoint, now };
  });

  /** Keeps the newest page in the saved copy, with what just arrived. */
  const save = useCallback(
    (incoming: readonly PortalChatMessage[], older?: boolean) => {
      const previous = readPortalSavedPart(storage, projectId, 'chat');
      const all = merge(older === undefined ? (previous?.messages ?? []) : [], incoming);
      const at = latest.current.now();
      writePortalSavedPart(storage, projectId, 'chat', {
        savedAt: at,
        messages: all.slice(-PORTAL_CHAT_PAGE),
        hasOlder: (older ?? previous?.hasOlder ?? false) || all.length > PORTAL_CHAT_PAGE,
      });
      setSavedAt(at);
    },
    [projectId, storage],
  );

  const load = useCallback(async () => {
    try {
      const answer = await callEndpoint(getPortalChat, { query: { projectId } });
      setEnabled(answer.enabled);
      if (!answer.enabled) {
        // Turned off: nothing shown, and nothing kept on the device either.
        setMessages([]);
        writePortalSavedPart(storage, projectId, 'chat', null);
        return;
      }
      setMessages((current) => merge(current, answer.messages));
      // Only the first page decides whether there is more before it.
      setHasOlder((older) => older || answer.hasOlder);
      save(answer.messages, answer.hasOlder);
      // Connected and the chat is on: what waits on the device can go now.
      void outboxRef.current?.flush();
    } catch {
      // A failed read keeps what is on screen; the next one tries again.
    }
  }, [callEndpoint, projectId, save, storage]);

  useEffect(() => {
    const outbox = createPortalChatOutbox({
      storage,
      projectId,
      send: async (body) =>
        (await latest.current.callEndpoint(sendPortalChatMessage, { query: {}, body })).message,
      navigator: globalThis.navigator,
      target: window,
      now: () => latest.current.now(),
      onChange: () => setWaiting(outbox.entries()),
      onSent: (message) => {
        setMessages((current) => merge(current, [message]));
        save([message]);
      },
      // The session ended: the page's own reads take the client to the gate; the message waits.
      onSessionEnded: () => undefined,
    });
    outboxRef.current = outbox;
    setWaiting(outbox.entries());
    return () => {
      outbox.stop();
      outboxRef.current = null;
    };
  }, [projectId, save, storage]);

  useEffect(() => {
    if (offline) return;
    void load();
    const timer = window.setInterval(() => {
      if (document.visibilityState === 'visible') void load();
    }, pollMs);
    return () => window.clearInterval(timer);
  }, [load, offline, pollMs]);

  // A message read back from the server (sent by another tab) is no longer shown as waiting.
  const shownWaiting = waiting.filter((entry) => !messages.some((m) => m.id === entry.body.id));

  // The newest message in view when one arrives (the list scrolls, the page does not).
  const newest = shownWaiting.at(-1)?.body.id ?? messages.at(-1)?.id;
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

  const send = () => {
    const text = draft.trim();
    const outbox = outboxRef.current;
    if (text === '' || !outbox) return;
    setError(null);
    // On the device first, then to the server: offline it waits there for the network.
    outbox.queue({ id: newId(), projectId, text });
    setDraft('');
    void outbox.flush();
  };

  const focusField = () => document.getElementById(fieldId)?.focus();

  const actions = (entry: PortalChatOutboxEntry) => (
    <div className="flex flex-wrap gap-1">
      <Button variant="ghost" onPress={() => void outboxRef.current?.retry(entry.body.id)}>
        Retry
      </Button>
      <Button
        variant="ghost"
        onPress={() => {
          // Back into the field to correct; sent again it is a new message.
          setDraft(entry.body.text);
          outboxRef.current?.remove(entry.body.id);
          focusField();
        }}
      >
        Edit
      </Button>
      <Button
        variant="ghost"
        onPress={() => {
          outboxRef.current?.remove(entry.body.id);
          focusField();
        }}
      >
        Remove
      </Button>
    </div>
  );

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    // Enter sends, Shift+Enter starts a new line (as in the members' chat).
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      send();
    }
  };

  return (
    <section aria-labelledby="portal-chat" className="flex flex-col gap-3">
      <h2 id="portal-chat" className="text-xl font-semibold text-fg">
        Messages
      </h2>
      {offline && savedAt !== null ? <SavedChatNote savedAt={savedAt} /> : null}
      {hasOlder && !offline ? (
        <Button
          variant="ghost"
          onPress={() => void loadOlder()}
          isPending={loadingOlder}
          className="w-fit"
        >
          Show earlier messages
        </Button>
      ) : null}
      {messages.length === 0 && shownWaiting.length === 0 ? (
        <p className="rounded-2xl border border-dashed border-border p-6 text-center text-fg-muted">
          No messages yet. Write to {workspaceName} here; the team sees it at once.
        </p>
      ) : (
        <PortalChatLog
          messages={messages}
          waiting={shownWaiting}
          offline={offline}
          listRef={listRef}
          actions={actions}
        />
      )}
      <form
        className="flex flex-col gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          send();
        }}
      >
        <label htmlFor={fieldId} className="text-sm font-medium text-fg">
          Message to {workspaceName}
        </label>
        <textarea
          id={fieldId}
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
          onKeyDown={onKeyDown}
          rows={2}
          maxLength={MAX_CHAT_MESSAGE_CHARS}
          aria-describedby={hintId}
          className="min-h-11 w-full rounded-lg border border-border bg-surface px-3 py-2 text-base text-fg"
        />
        <div className="flex flex-wrap items-center justify-between gap-2">
          <p id={hintId} className="text-sm text-fg-muted">
            {offline
              ? 'You’re offline: what you send waits on this device and goes when you’re back online.'
              : 'Enter sends, Shift+Enter starts a new line.'}
          </p>
          <Button type="submit" isDisabled={draft.trim() === ''}>
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
