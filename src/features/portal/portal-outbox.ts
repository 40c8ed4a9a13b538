/**
 * Change requests the client asked for while offline, kept on the device until they reach the
 * server. The portal has no synced database (its data is server state, ARCHITECTURE.md "Client
 * portal"), so this is a small localStorage list per project, not the app's outbox.
 *
 * The page makes each request's id, and `create-change-request` stores an id once, so sending an
 * entry twice (two tabs, a reply lost on the way back) is harmless: nothing here has to be
 * exactly-once. What it must not do is retry for ever: a 4xx about the request itself marks the
 * entry refused, with the server's words, until the client removes it. A 401/403 is about the
 * session, not the request: the entry waits and is sent once the client is back in.
 */
import * as v from 'valibot';
import {
  submitChangeRequest,
  type PortalChangeRequest,
} from '#contract/endpoints/client-portal.ts';

export type ChangeRequestDraft = v.InferOutput<typeof submitChangeRequest.body>;

const entrySchema = v.object({
  body: submitChangeRequest.body,
  /** Epoch milliseconds: when the client asked (the list shows it as the request's date). */
  queuedAt: v.pipe(v.number(), v.finite()),
  /** The server refused it: shown with its message and never sent again. */
  refused: v.nullable(v.object({ status: v.number(), message: v.string() })),
});
export type PortalOutboxEntry = v.InferOutput<typeof entrySchema>;

const keyOf = (projectId: string) => `satchel-portal-outbox:${projectId}`;

type OutboxStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | undefined;

/** The project's waiting requests, oldest first; an unreadable entry is dropped, not shown. */
export function readPortalOutbox(
  storage: Pick<Storage, 'getItem'> | undefined,
  projectId: string,
): PortalOutboxEntry[] {
  try {
    const raw = storage?.getItem(keyOf(projectId));
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

function writeOutbox(storage: OutboxStorage, projectId: string, entries: PortalOutboxEntry[]) {
  try {
    if (entries.length === 0) storage?.removeItem(keyOf(projectId));
    else storage?.setItem(keyOf(projectId), JSON.stringify(entries));
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
function refusal(error: unknown): { status: number; message: string } | null {
  const status = statusOf(error);
  // 408 and 429 say "not now", not "not this".
  if (status === null || status < 400 || status >= 500 || status === 408 || status === 429) {
    return null;
  }
  if (status === 401 || status === 403) return null;
  const body = (error as { body?: { error?: { message?: unknown } } | null }).body;
  const message = body?.error?.message;
  return {
    status,
    message:
      typeof message === 'string' && message !== ''
        ? message
        : 'The request was refused. Remove it, then ask again.',
  };
}

export type SubmitOutcome =
  | { state: 'sent'; changeRequest: PortalChangeRequest }
  | { state: 'queued'; entry: PortalOutboxEntry };

export interface PortalOutboxOptions {
  storage: OutboxStorage;
  projectId: string;
  send: (body: ChangeRequestDraft) => Promise<PortalChangeRequest>;
  /** `navigator` (only `onLine` is read). */
  navigator: Pick<Navigator, 'onLine'>;
  /** Where `online` fires (the window). */
  target: Pick<EventTarget, 'addEventListener' | 'removeEventListener'>;
  now: () => number;
  /** The list changed (queued, sent, refused, removed): read `entries()` again. */
  onChange: () => void;
  /** A waiting request reached the server. */
  onSent: (changeRequest: PortalChangeRequest) => void;
  /** Sending met a 401/403: the session ended; what waits stays for the next visit. */
  onSessionEnded: () => void;
}

export interface PortalOutbox {
  entries: () => PortalOutboxEntry[];
  /** Sends now when online; offline, or when the network fails on the way, keeps it to send later. */
  submit: (body: ChangeRequestDraft) => Promise<SubmitOutcome>;
  /** Keeps a request to send later (after the password gate, say). */
  queue: (body: ChangeRequestDraft) => PortalOutboxEntry;
  /** Sends what waits, oldest first; one run at a time. */
  flush: () => Promise<void>;
  remove: (id: string) => void;
  /** Stops listening for `online`. */
  stop: () => void;
}

/**
 * The project's queue of change requests, sent when the browser says it is back online (and
 * whenever the page calls `flush`, e.g. on opening).
 */
export function createPortalOutbox(options: PortalOutboxOptions): PortalOutbox {
  const { storage, projectId, send, now } = options;
  let running: Promise<void> | null = null;
  let stopped = false;

  const entries = () => readPortalOutbox(storage, projectId);
  const update = (change: (list: PortalOutboxEntry[]) => PortalOutboxEntry[]) => {
    writeOutbox(storage, projectId, change(entries()));
    options.onChange();
  };

  const queue = (body: ChangeRequestDraft): PortalOutboxEntry => {
    const entry: PortalOutboxEntry = { body, queuedAt: now(), refused: null };
    update((list) => [...list.filter((e) => e.body.id !== body.id), entry]);
    return entry;
  };

  const remove = (id: string) => update((list) => list.filter((e) => e.body.id !== id));

  const drain = async () => {
    for (const entry of entries()) {
      if (stopped || !options.navigator.onLine) return;
      if (entry.refused) continue;
      try {
        const changeRequest = await send(entry.body);
        remove(entry.body.id);
        options.onSent(changeRequest);
      } catch (error) {
        if (isSessionFailure(error)) {
          options.onSessionEnded();
          return;
        }
        const refused = refusal(error);
        // Offline again, a 5xx, a rate limit: the rest waits for the next chance.
        if (!refused) return;
        update((list) => list.map((e) => (e.body.id === entry.body.id ? { ...e, refused } : e)));
      }
    }
  };

  const flush = () => {
    running ??= drain().finally(() => {
      running = null;
    });
    return running;
  };

  const submit = async (body: ChangeRequestDraft): Promise<SubmitOutcome> => {
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
    remove,
    stop: () => {
      stopped = true;
      options.target.removeEventListener('online', onOnline);
    },
  };
}
