/**
 * Change requests the client asked for while offline, and chat messages written while offline,
 * kept on the device until they reach the server. The portal has no synced database (its data is server state, ARCHITECTURE.md "Client
 * portal"), so this is a small localStorage list per project, not the app's outbox.
 *
 * The page makes each request's id, and `create-change-request` stores an id once, so sending an
 * entry twice (two tabs, a reply lost on the way back) is harmless: nothing here has to be
 * exactly-once. What it must not do is retry for ever: a 4xx about the request itself marks the
 * entry refused, with the server's words, until the client removes it. A 401/403 is about the
 * session, not the request: the entry waits and is sent once the client is back in.
 *
 * Two kinds, each its own list with the same rules: change requests (`createPortalOutbox`) and
 * chat messages (`createPortalChatOutbox`; `send-chat-message` stores an id once too). A chat
 * message goes through the list even online, so it shows at once and survives a closed tab.
 *
 * A change request asked for offline may name files kept on the device (portal-pending-files.ts):
 * `prepare` uploads them just before the request is sent and adds their ids, and `release` drops
 * the copies once the entry has left the list. A file uploaded twice (the page closed between its
 * upload and the request's send) is the same file again, which the server stores once.
 */
import * as v from 'valibot';
import {
  submitChangeRequest,
  type PortalChangeRequest,
} from '#contract/endpoints/client-portal.ts';
import { sendPortalChatMessage, type PortalChatMessage } from '#contract/endpoints/portal-chat.ts';
import type { PendingFileRef } from './portal-pending-files.ts';

export type ChangeRequestDraft = v.InferOutput<typeof submitChangeRequest.body>;
export type ChatMessageDraft = v.InferOutput<typeof sendPortalChatMessage.body>;

interface OutboxBody {
  id: string;
  projectId: string;
}

/** One kind of entry: where its list is kept and what a body must look like. */
interface OutboxKind<Body extends OutboxBody> {
  keyOf: (projectId: string) => string;
  body: v.GenericSchema<unknown, Body>;
  /** Statuses that mean the session ended (the entry waits) rather than "not this entry". */
  sessionStatuses: readonly number[];
}

const refusedSchema = v.nullable(v.object({ status: v.number(), message: v.string() }));
const filesSchema = v.optional(
  v.array(
    v.object({
      key: v.pipe(v.string(), v.uuid()),
      name: v.string(),
      type: v.string(),
      size: v.pipe(v.number(), v.integer(), v.minValue(0)),
    }),
  ),
);

export interface OutboxEntry<Body> {
  body: Body;
  /** Epoch milliseconds: when the client asked (the list shows it as the request's date). */
  queuedAt: number;
  /** The server refused it: shown with its message and never sent again. */
  refused: { status: number; message: string } | null;
  /** Files kept on the device, uploaded when the entry is sent (change requests only). */
  files?: readonly PendingFileRef[] | undefined;
}
export type PortalOutboxEntry = OutboxEntry<ChangeRequestDraft>;
export type PortalChatOutboxEntry = OutboxEntry<ChatMessageDraft>;

const changeRequestKind: OutboxKind<ChangeRequestDraft> = {
  keyOf: (projectId) => `satchel-portal-outbox:${projectId}`,
  body: submitChangeRequest.body,
  sessionStatuses: [401, 403],
};

const chatKind: OutboxKind<ChatMessageDraft> = {
  keyOf: (projectId) => `satchel-portal-chat-outbox:${projectId}`,
  body: sendPortalChatMessage.body,
  // A 403 here is the chat turned off, not the session (which a 401 says, and the page's own
  // reads notice): the message is refused with those words instead of waiting for ever.
  sessionStatuses: [401],
};

type OutboxStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | undefined;

function readOutbox<Body extends OutboxBody>(
  kind: OutboxKind<Body>,
  storage: Pick<Storage, 'getItem'> | undefined,
  projectId: string,
): OutboxEntry<Body>[] {
  const entrySchema = v.object({
    body: kind.body,
    queuedAt: v.pipe(v.number(), v.finite()),
    refused: refusedSchema,
    files: filesSchema,
  });
  try {
    const raw = storage?.getItem(kind.keyOf(projectId));
    if (!raw) return [];
    const json: unknown = JSON.parse(raw);
    if (!Array.isArray(json)) return [];
    return json.flatMap((item) => {
      const parsed = v.safeParse(entrySchema, item);
      return parsed.success && parsed.output.body.projectId === projectId ? [parsed.output] : [];
    });
  } catch {
    return [];
  }
}

/** The project's waiting requests, oldest first; an unreadable entry is dropped, not shown. */
export function readPortalOutbox(
  storage: Pick<Storage, 'getItem'> | undefined,
  projectId: string,
): PortalOutboxEntry[] {
  return readOutbox(changeRequestKind, storage, projectId);
}

/** The project's chat messages waiting to be sent, oldest first. */
export function readPortalChatOutbox(
  storage: Pick<Storage, 'getItem'> | undefined,
  projectId: string,
): PortalChatOutboxEntry[] {
  return readOutbox(chatKind, storage, projectId);
}

function writeOutbox<Body>(
  key: string,
  storage: OutboxStorage,
  entries: readonly OutboxEntry<Body>[],
) {
  try {
    if (entries.length === 0) storage?.removeItem(key);
    else storage?.setItem(key, JSON.stringify(entries));
  } catch {
    // Storage full or refused: the entry lives until the page closes, which is all we can do.
  }
}

function statusOf(error: unknown): number | null {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' ? status : null;
}

/** No answer arrived (offline, DNS, the server unreachable): worth sending again later. */
export function isNetworkFailure(error: unknown): boolean {
  return statusOf(error) === 0;
}

/** The portal session ended or is not this project's: the page goes back to the gate. */
export function isSessionFailure(error: unknown): boolean {
  const status = statusOf(error);
  return status === 401 || status === 403;
}

/** A 4xx about the request itself: sending it again would get the same answer. */
function refusal(
  error: unknown,
  sessionStatuses: readonly number[],
): { status: number; message: string } | null {
  const status = statusOf(error);
  // 408 and 429 say "not now", not "not this".
  if (status === null || status < 400 || status >= 500 || status === 408 || status === 429) {
    return null;
  }
  if (sessionStatuses.includes(status)) return null;
  const body = (error as { body?: { error?: { message?: unknown } } | null }).body;
  // An API refusal carries the server's words in its body; an upload's refusal in its message.
  const message = body?.error?.message ?? (error instanceof Error ? error.message : undefined);
  return {
    status,
    message:
      typeof message === 'string' && message !== ''
        ? message
        : 'The request was refused. Remove it, then ask again.',
  };
}

interface OutboxOptions<Body, Answer> {
  storage: OutboxStorage;
  projectId: string;
  send: (body: Body) => Promise<Answer>;
  /** `navigator` (only `onLine` is read). */
  navigator: Pick<Navigator, 'onLine'>;
  /** Where `online` fires (the window). */
  target: Pick<EventTarget, 'addEventListener' | 'removeEventListener'>;
  now: () => number;
  /** The list changed (queued, sent, refused, removed): read `entries()` again. */
  onChange: () => void;
  /** A waiting entry reached the server. */
  onSent: (answer: Answer) => void;
  /** Sending met a 401 (or, for a change request, a 403): what waits stays for the next visit. */
  onSessionEnded: () => void;
  /** The body to send for an entry with kept files: uploads them and names them. */
  prepare?: (entry: OutboxEntry<Body>) => Promise<Body>;
  /** An entry with kept files left the list (sent, or removed): its copies can go. */
  release?: (entry: OutboxEntry<Body>) => void;
}

export type PortalOutboxOptions = OutboxOptions<ChangeRequestDraft, PortalChangeRequest>;
export type PortalChatOutboxOptions = OutboxOptions<ChatMessageDraft, PortalChatMessage>;

export type SubmitOutcome<Body = ChangeRequestDraft, Answer = PortalChangeRequest> =
  { state: 'sent'; changeRequest: Answer } | { state: 'queued'; entry: OutboxEntry<Body> };

interface Outbox<Body, Answer> {
  entries: () => OutboxEntry<Body>[];
  /** Sends now when online; offline, or when the network fails on the way, keeps it to send later. */
  submit: (body: Body) => Promise<SubmitOutcome<Body, Answer>>;
  /**
   * Keeps an entry to send later (after the password gate, say, or with files kept on the
   * device); the same id replaces it.
   */
  queue: (body: Body, files?: readonly PendingFileRef[]) => OutboxEntry<Body>;
  /** Sends what waits, oldest first; one run at a time. */
  flush: () => Promise<void>;
  /** A refused entry is sent again (the server's answer may have changed: chat turned back on). */
  retry: (id: string) => Promise<void>;
  remove: (id: string) => void;
  /** Stops listening for `online`. */
  stop: () => void;
}

export type PortalOutbox = Outbox<ChangeRequestDraft, PortalChangeRequest>;
export type PortalChatOutbox = Outbox<ChatMessageDraft, PortalChatMessage>;

/**
 * Entries on their way to the server from this page, by list and id: two outboxes of one list
 * (a screen rebuilt while a send was under way) do not send the same entry side by side. Other
 * tabs can; the server storing an id once covers them.
 */
const inFlight = new Set<string>();

function createOutbox<Body extends OutboxBody, Answer>(
  kind: OutboxKind<Body>,
  options: OutboxOptions<Body, Answer>,
): Outbox<Body, Answer> {
  const { storage, projectId, send, now } = options;
  const key = kind.keyOf(projectId);
  let running: Promise<void> | null = null;
  let stopped = false;

  const entries = () => readOutbox(kind, storage, projectId);
  const update = (change: (list: OutboxEntry<Body>[]) => OutboxEntry<Body>[]) => {
    writeOutbox(key, storage, change(entries()));
    options.onChange();
  };

  const queue = (body: Body, files: readonly PendingFileRef[] = []): OutboxEntry<Body> => {
    const entry: OutboxEntry<Body> = {
      body,
      queuedAt: now(),
      refused: null,
      ...(files.length > 0 ? { files } : {}),
    };
    update((list) => [...list.filter((e) => e.body.id !== body.id), entry]);
    return entry;
  };

  const remove = (id: string) => {
    const gone = entries().find((e) => e.body.id === id);
    update((list) => list.filter((e) => e.body.id !== id));
    if (gone?.files?.length) options.release?.(gone);
  };

  const drain = async () => {
    // Oldest first, read afresh each time: what is queued while this runs (a second message
    // typed during the first's send) goes in the same run, and what was removed meanwhile (sent
    // by another tab, taken back by the client) does not.
    const done = new Set<string>();
    for (;;) {
      if (stopped || !options.navigator.onLine) return;
      const entry = entries().find(
        (e) => !e.refused && !done.has(e.body.id) && !inFlight.has(`${key}:${e.body.id}`),
      );
      if (!entry) return;
      const flightKey = `${key}:${entry.body.id}`;
      done.add(entry.body.id);
      inFlight.add(flightKey);
      try {
        const body =
          entry.files?.length && options.prepare ? await options.prepare(entry) : entry.body;
        const answer = await send(body);
        remove(entry.body.id);
        options.onSent(answer);
      } catch (error) {
        const status = statusOf(error);
        if (status !== null && kind.sessionStatuses.includes(status)) {
          options.onSessionEnded();
          return;
        }
        const refused = refusal(error, kind.sessionStatuses);
        // Offline again, a 5xx, a rate limit: the rest waits for the next chance.
        if (!refused) return;
        update((list) => list.map((e) => (e.body.id === entry.body.id ? { ...e, refused } : e)));
      } finally {
        inFlight.delete(flightKey);
      }
    }
  };

  const flush = () => {
    running ??= drain().finally(() => {
      running = null;
    });
    return running;
  };

  const retry = async (id: string) => {
    // A flush under way has passed this entry by (it was refused): wait for it, then go again.
    await running;
    update((list) => list.map((e) => (e.body.id === id ? { ...e, refused: null } : e)));
    await flush();
  };

  const submit = async (body: Body): Promise<SubmitOutcome<Body, Answer>> => {
    if (!options.navigator.onLine) return { state: 'queued', entry: queue(body) };
    try {
      return { state: 'sent', changeRequest: await send(body) };
    } catch (error) {
      if (isNetworkFailure(error)) return { state: 'queued', entry: queue(body) };
      throw error;
    }
  };

  const onOnline = () => void flush();
  options.target.addEventListener('online', onOnline);

  return {
    entries,
    submit,
    queue,
    flush,
    retry,
    remove,
    stop: () => {
      stopped = true;
      options.target.removeEventListener('online', onOnline);
    },
  };
}

/**
 * The project's queue of change requests, sent when the browser says it is back online (and
 * whenever the page calls `flush`, e.g. on opening).
 */
export function createPortalOutbox(options: PortalOutboxOptions): PortalOutbox {
  return createOutbox(changeRequestKind, options);
}

/**
 * The project's chat messages on their way: `queue` then `flush` (the message is on screen and
 * on the device before any network), sent on `online` and whenever the chat reads the server.
 */
export function createPortalChatOutbox(options: PortalChatOutboxOptions): PortalChatOutbox {
  return createOutbox(chatKind, options);
}
