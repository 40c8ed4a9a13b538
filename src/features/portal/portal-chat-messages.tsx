/**
 * The portal chat's messages as a list, and the chat read from the copy saved on the device.
 * Small on purpose: it is part of the portal page's precached code, while the live chat
 * (portal-chat.tsx: reads every 15 s, paging, the composer) is a chunk of its own outside the
 * precache. The service worker keeps that chunk once it has loaded, so a client who opened the
 * chat online writes offline too; when it is not on the device (never loaded, or the page opened
 * from the gate's saved copy, where nothing is sent), `PortalChatCopy` still shows what was saved.
 */
import type { CallEndpoint } from '#contract/define-endpoint.ts';
import type { PortalChatMessage } from '#contract/endpoints/portal-chat.ts';
import { CloudOff } from 'lucide-react';
import type { ReactNode, Ref } from 'react';
import { formatFileDateTime } from '../files/file-format.ts';
import { readPortalChatOutbox, type PortalChatOutboxEntry } from './portal-outbox.ts';
import { readPortalSavedPart } from './portal-saved-parts.ts';

export interface PortalChatProps {
  callEndpoint: CallEndpoint;
  projectId: string;
  workspaceName: string;
  offline: boolean;
  /** Where the saved copy and the messages waiting to be sent are kept (localStorage). */
  storage?: Storage | undefined;
  now?: () => number;
  /** A new message id (the page's own, so a retried send is stored once). */
  newId?: () => string;
  pollMs?: number;
}

const timeFormat = new Intl.DateTimeFormat(undefined, {
  day: 'numeric',
  month: 'short',
  hour: 'numeric',
  minute: '2-digit',
});

const at = (iso: string) => <time dateTime={iso}>{timeFormat.format(new Date(iso))}</time>;

/** A message the client wrote that has not reached the server, and what happens to it. */
export function waitingWords(entry: PortalChatOutboxEntry, offline: boolean): string {
  if (entry.refused) return `Not sent: ${entry.refused.message}`;
  return offline ? 'Waiting for a connection' : 'Sending…';
}

export function PortalChatLog({
  messages,
  waiting,
  offline,
  listRef,
  actions,
}: {
  messages: readonly PortalChatMessage[];
  /** The client's messages on their way, after the server's (the newest at the bottom). */
  waiting: readonly PortalChatOutboxEntry[];
  offline: boolean;
  listRef?: Ref<HTMLOListElement>;
  /** Buttons for a refused message (Retry, Edit, Remove); none in the saved copy. */
  actions?: (entry: PortalChatOutboxEntry) => ReactNode;
}) {
  return (
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
              {at(message.createdAt)}
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
      {waiting.map((entry) => (
        <li
          key={entry.body.id}
          className={`flex max-w-[85%] flex-col gap-1 self-end rounded-2xl border border-dashed px-3 py-2 ${entry.refused ? 'border-danger' : 'border-border'}`}
        >
          <p className="flex flex-wrap items-baseline gap-x-2 text-xs text-fg-muted">
            <span className="font-semibold text-fg">You</span>
            {at(new Date(entry.queuedAt).toISOString())}
          </p>
          <p className="text-sm break-words whitespace-pre-line text-fg">{entry.body.text}</p>
          <p className={`text-xs ${entry.refused ? 'font-medium text-danger' : 'text-fg-muted'}`}>
            {waitingWords(entry, offline)}
          </p>
          {entry.refused && actions ? actions(entry) : null}
        </li>
      ))}
    </ol>
  );
}

/** Says the messages on screen are the copy kept on the device, and from when. */
export function SavedChatNote({ savedAt }: { savedAt: number }) {
  return (
    <p className="flex items-start gap-2 text-sm text-fg-muted">
      <CloudOff aria-hidden="true" size={16} className="mt-0.5 shrink-0" />
      <span>
        You’re offline: the messages saved on this device, as of{' '}
        {formatFileDateTime(new Date(savedAt).toISOString())}.
      </span>
    </p>
  );
}

/**
 * The chat as saved on the device, read-only: the gate's saved copy (no session, nothing sent),
 * or the live chat's code not being on the device while offline. Nothing saved: nothing shown.
 */
export function PortalChatCopy({
  projectId,
  storage = globalThis.localStorage,
}: Pick<PortalChatProps, 'projectId' | 'storage'>) {
  const saved = readPortalSavedPart(storage, projectId, 'chat');
  if (!saved) return null;
  const waiting = readPortalChatOutbox(storage, projectId);
  return (
    <section aria-labelledby="portal-chat" className="flex flex-col gap-3">
      <h2 id="portal-chat" className="text-xl font-semibold text-fg">
        Messages
      </h2>
      <SavedChatNote savedAt={saved.savedAt} />
      {saved.messages.length === 0 && waiting.length === 0 ? (
        <p className="rounded-2xl border border-dashed border-border p-6 text-center text-fg-muted">
          No messages yet.
        </p>
      ) : (
        <PortalChatLog messages={saved.messages} waiting={waiting} offline />
      )}
      <p className="text-sm text-fg-muted">
        Writing to the team needs a connection; the chat opens in full when you’re back online.
      </p>
    </section>
  );
}
