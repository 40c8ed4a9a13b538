/**
 * The upload runner: sends the queue's entries (upload-queue.ts) to the server with tus 1.0
 * (tus-js-client), one Upload per entry, several at once.
 *
 * Loop: whenever the entries change (this tab, another tab), the network comes back, or a
 * waiting entry's retry time comes, `reconcile` looks at every entry:
 * - sendable (queued, or "uploading" with nobody uploading it), online, not waiting out a retry,
 *   and not already sent by this tab: start it;
 * - sent here but paused, failed or removed since: abort it (removed: terminate it on the server).
 * A started upload resumes from the server's offset when the entry has an uploadUrl (saved from
 * onUploadUrlAvailable; tus-js-client's own localStorage fingerprints are off, the entry is the
 * one record). It ends in one of three ways: done (the file id the server answered is written),
 * refused (a 4xx other than 408/409/423/429: failed, with the server's message), or "try later"
 * (no network, 5xx...: tus-js-client retries a few times itself, then the entry waits here,
 * queued, for the network to come back or its next retry time).
 *
 * One tab per entry: the upload runs inside the Web Lock `satchel-upload:<id>` taken with
 * ifAvailable. Per entry rather than the sync leader's lock: any tab holding the bytes can send
 * them, so an upload started in this tab keeps going here even when another tab leads sync, and
 * when the tab closes the lock goes with it and another tab picks the entry up on its next look.
 * Without Web Locks (old Safari, jsdom) each tab sends alone; the worst case is two tabs
 * PATCHing one upload, which tus answers with 409 and a HEAD, and identical bytes the server
 * recognises.
 *
 * A done entry stays until its file row is in db.files (it arrives by pull), then goes, so the
 * list shows the upload until the file replaces it.
 *
 * tus-js-client (58 KiB) loads with the first upload, not with the app: uploads only run online,
 * and the service worker keeps the chunk once loaded (vite.config.ts, network-only modules). A
 * failed load waits and retries like a dropped connection.
 */
import type { HttpRequest, Upload, Upload as TusUpload, UploadOptions } from 'tus-js-client';
import { UPLOAD_PATH, UPLOADED_FILE_ID_HEADER } from '#contract/endpoints/file.ts';
import type { AppDatabase } from '../db/app-database.ts';
import { observeQuery } from '../db/live-query.ts';
import {
  isRetryableStatus,
  refusalMessage,
  refusalPlanLimit,
  statusOf,
  blobFileReader,
  type TusTransport,
} from './tus-transport.ts';
import {
  isSendable,
  isUploadDone,
  requeueUpload,
  uploadsTable,
  type StoredUpload,
} from './upload-queue.ts';
import type { UploadProgressStore } from './upload-progress.ts';

/** The part of the Web Locks API the runner uses. */
export interface UploadLocks {
  request(
    name: string,
    options: { ifAvailable: true },
    callback: (lock: unknown) => Promise<void>,
  ): Promise<unknown>;
}

export interface NetworkStatus {
  isOnline: () => boolean;
  /** Calls the listener when the browser goes on- or offline. */
  subscribe: (listener: () => void) => () => void;
}

export const browserNetwork: NetworkStatus = {
  isOnline: () => globalThis.navigator?.onLine ?? true,
  subscribe(listener) {
    globalThis.addEventListener?.('online', listener);
    globalThis.addEventListener?.('offline', listener);
    return () => {
      globalThis.removeEventListener?.('online', listener);
      globalThis.removeEventListener?.('offline', listener);
    };
  },
};

export function browserLocks(): UploadLocks | null {
  const locks = (globalThis.navigator as { locks?: UploadLocks } | undefined)?.locks;
  return locks && typeof locks.request === 'function' ? locks : null;
}

export interface UploadRunnerOptions {
  db: AppDatabase;
  getAccessToken: () => Promise<string | null>;
  progress: UploadProgressStore;
  /** Where uploads are created; UPLOAD_PATH on this origin by default. */
  endpoint?: string;
  transport?: TusTransport;
  locks?: UploadLocks | null;
  network?: NetworkStatus;
  /** tus-js-client's own quick retries within one attempt (ms). */
  retryDelays?: number[];
  /** After those, how long an entry waits before the next attempt (ms, by attempt). */
  waitDelays?: number[];
  now?: () => number;
  /** How often bytes sent are written to the entry at most (ms). */
  persistEveryMs?: number;
}

export interface UploadRunner {
  /** Looks at the queue again now (after a write the live query has not seen yet). */
  kick(): void;
  /** Terminates an upload on the server (Cancel); its entry is already gone. */
  terminate(uploadUrl: string): Promise<void>;
  /** Entries waiting out a failed attempt, with when they try again (ms since epoch). */
  retryAt(id: string): number | undefined;
  stop(): void;
}

interface Active {
  upload: Upload | null;
  /** Ends the run (the lock is released). */
  settle: () => void;
}

const DEFAULT_RETRY_DELAYS = [0, 1000, 3000];
const DEFAULT_WAIT_DELAYS = [5_000, 15_000, 30_000, 60_000];

export function startUploadRunner(options: UploadRunnerOptions): UploadRunner {
  const { db, progress } = options;
  const uploads = uploadsTable(db);
  const network = options.network ?? browserNetwork;
  const locks = options.locks === undefined ? browserLocks() : options.locks;
  const now = options.now ?? Date.now;
  const retryDelays = options.retryDelays ?? DEFAULT_RETRY_DELAYS;
  const waitDelays = options.waitDelays ?? DEFAULT_WAIT_DELAYS;
  const persistEveryMs = options.persistEveryMs ?? 1000;
  const endpoint =
    options.endpoint ?? new URL(UPLOAD_PATH, globalThis.location?.href ?? 'http://localhost').href;

  const active = new Map<string, Active>();
  /** Entries waiting after a failed attempt: when to try again, and how many attempts so far. */
  const waiting = new Map<string, { at: number; attempts: number }>();
  /** Entries another tab holds the lock of: look again after this time. */
  const elsewhere = new Map<string, number>();
  let entries: StoredUpload[] = [];
  let stopped = false;
  let wakeTimer: ReturnType<typeof setTimeout> | null = null;

  const tusOptions = (): Partial<UploadOptions> => ({
    endpoint,
    retryDelays,
    fileReader: blobFileReader,
    ...(options.transport?.httpStack ? { httpStack: options.transport.httpStack } : {}),
    storeFingerprintForResuming: false,
    removeFingerprintOnSuccess: false,
    fingerprint: () => Promise.resolve('satchel'),
    onBeforeRequest: async (request: HttpRequest) => {
      const token = await options.getAccessToken();
      if (token) request.setHeader('Authorization', `Bearer ${token}`);
    },
    onShouldRetry: (error) => isRetryableStatus(statusOf(error)) && network.isOnline(),
  });

  function reconcile() {
    if (stopped) return;
    const byId = new Map(entries.map((entry) => [entry.id, entry]));
    for (const [id, run] of active) {
      const entry = byId.get(id);
      if (!entry) {
        // Cancelled (in any tab): stop, and remove what the server holds.
        void run.upload?.abort(true).catch(() => undefined);
        finishRun(id);
      } else if (!isSendable(entry)) {
        void run.upload?.abort(false);
        finishRun(id);
      }
    }
    for (const id of waiting.keys()) if (!byId.has(id)) waiting.delete(id);

    const time = now();
    if (network.isOnline()) {
      for (const entry of entries) {
        if (!isSendable(entry) || active.has(entry.id)) continue;
        if ((waiting.get(entry.id)?.at ?? 0) > time) continue;
        if ((elsewhere.get(entry.id) ?? 0) > time) continue;
        start(entry.id);
      }
    }
    void removeArrived();
    scheduleWake();
  }

  /** Wakes for the next retry time (a timer, not a poll: nothing runs while nothing waits). */
  function scheduleWake() {
    if (wakeTimer) clearTimeout(wakeTimer);
    wakeTimer = null;
    const times = [...waiting.values()].map((wait) => wait.at).concat([...elsewhere.values()]);
    if (times.length === 0 || stopped) return;
    const delay = Math.max(50, Math.min(...times) - now());
    wakeTimer = setTimeout(reconcile, delay);
  }

  function finishRun(id: string) {
    const run = active.get(id);
    active.delete(id);
    run?.settle();
  }

  /** No answer (or no code to send with): the entry waits, queued, then tries again. */
  function retryLater(id: string) {
    const attempts = (waiting.get(id)?.attempts ?? 0) + 1;
    const delay = waitDelays[Math.min(attempts - 1, waitDelays.length - 1)] ?? 60_000;
    waiting.set(id, { at: now() + delay, attempts });
    void uploads.update(id, { status: 'queued', retryAt: now() + delay }).finally(() => {
      finishRun(id);
      scheduleWake();
    });
  }

  function start(id: string) {
    let settle = () => {};
    const settled = new Promise<void>((resolve) => {
      settle = resolve;
    });
    active.set(id, { upload: null, settle });
    const body = async (lock: unknown) => {
      if (lock === null) {
        // Another tab is sending it.
        active.delete(id);
        elsewhere.set(id, now() + 5_000);
        scheduleWake();
        return;
      }
      elsewhere.delete(id);
      if (!active.has(id)) return;
      await send(id);
      await settled;
    };
    const run = locks
      ? locks.request(`satchel-upload:${id}`, { ifAvailable: true }, body)
      : body(true);
    void Promise.resolve(run).catch(() => finishRun(id));
  }

  async function send(id: string) {
    // Read again inside the lock: another tab may have moved it on (done, a newer uploadUrl).
    const entry = await uploads.get(id);
    const run = active.get(id);
    if (!run) return;
    if (!entry || !isSendable(entry) || stopped) {
      finishRun(id);
      return;
    }
    await uploads.update(id, { status: 'uploading', retryAt: null });
    let Upload: typeof TusUpload;
    try {
      ({ Upload } = await import('tus-js-client'));
    } catch {
      // The code could not load (the server went away): as a connection dropped before it began.
      retryLater(id);
      return;
    }
    // Stopped or gone offline while it loaded: whoever ended the run has put the entry back.
    if (active.get(id) !== run || stopped) return;
    let lastWrite = 0;
    let restarted = false;
    const makeUpload = (uploadUrl: string | null): Upload => {
      const upload: Upload = new Upload(entry.blob, {
        ...tusOptions(),
        uploadUrl,
        uploadSize: entry.size,
        metadata: {
          projectId: entry.projectId,
          filename: entry.name,
          filetype: entry.type,
          fileId: entry.id,
          folder: entry.folder,
        },
        onUploadUrlAvailable: () => {
          if (upload.url && active.get(id)?.upload === upload) {
            void db.uploads.update(id, { uploadUrl: upload.url });
          }
        },
        onProgress: (sent, total) => {
          if (active.get(id)?.upload !== upload) return;
          progress.set(id, { sent, total });
          const time = now();
          if (time - lastWrite >= persistEveryMs) {
            lastWrite = time;
            void uploads.update(id, { bytesSent: sent });
          }
        },
        onSuccess: ({ lastResponse }) => {
          if (active.get(id)?.upload !== upload) return;
          const fileId = lastResponse.getHeader(UPLOADED_FILE_ID_HEADER) || id;
          waiting.delete(id);
          progress.set(id, { sent: entry.size, total: entry.size });
          void uploads
            .update(id, { fileId, bytesSent: entry.size, error: null, retryAt: null })
            .finally(() => {
              finishRun(id);
              void removeArrived();
            });
        },
        onError: (error) => {
          if (active.get(id)?.upload !== upload) return;
          const status = statusOf(error);
          if ((status === 404 || status === 410) && uploadUrl !== null && !restarted) {
            // The partial upload expired or was cleaned: start it over, once.
            restarted = true;
            void uploads.update(id, { uploadUrl: null, bytesSent: 0 }).then(() => {
              const fresh = makeUpload(null);
              const current = active.get(id);
              if (!current) return;
              current.upload = fresh;
              fresh.start();
            });
            return;
          }
          if (isRetryableStatus(status)) {
            retryLater(id);
            return;
          }
          waiting.delete(id);
          progress.clear(id);
          void uploads
            .update(id, {
              status: 'failed',
              error: refusalMessage(error),
              planLimit: refusalPlanLimit(error),
              retryAt: null,
            })
            .finally(() => finishRun(id));
        },
      });
      return upload;
    };
    const upload = makeUpload(entry.uploadUrl);
    run.upload = upload;
    if (entry.bytesSent) progress.set(id, { sent: entry.bytesSent, total: entry.size });
    upload.start();
  }

  /** Done entries whose file row is here: the file takes their place in the list. */
  async function removeArrived() {
    const done = entries.filter(isUploadDone);
    if (done.length === 0) return;
    const arrived = await db.files.bulkGet(done.map((entry) => entry.fileId ?? ''));
    const gone = done.filter((_, index) => arrived[index] !== undefined).map((entry) => entry.id);
    if (gone.length === 0) return;
    await db.uploads.bulkDelete(gone);
    for (const id of gone) progress.clear(id);
  }

  const stopEntries = observeQuery(
    () => uploads.toArray(),
    (next) => {
      entries = next;
      reconcile();
    },
  );
  // A file row arriving by pull lets a done entry go.
  const stopFiles = observeQuery(
    () => db.files.count(),
    () => void removeArrived(),
  );
  const stopNetwork = network.subscribe(() => {
    if (network.isOnline()) {
      // Back online: what waited for the network goes now, not at its retry time.
      waiting.clear();
      elsewhere.clear();
    } else {
      // Offline: stop what is sending rather than wait for a dead connection to time out (an
      // XHR on a dropped Wi-Fi can hang for minutes); it resumes from the server's offset.
      for (const [id, run] of active) {
        void run.upload?.abort(false);
        finishRun(id);
        void requeueUpload(db, id);
      }
    }
    reconcile();
  });

  return {
    kick: () => {
      void uploads.toArray().then((next) => {
        entries = next;
        reconcile();
      });
    },
    async terminate(uploadUrl) {
      await import('tus-js-client')
        .then(({ Upload }) =>
          Upload.terminate(uploadUrl, { ...tusOptions(), retryDelays: [0, 1000] }),
        )
        .catch(() => undefined);
    },
    retryAt: (id) => waiting.get(id)?.at,
    stop() {
      stopped = true;
      stopEntries();
      stopFiles();
      stopNetwork();
      if (wakeTimer) clearTimeout(wakeTimer);
      for (const [id, run] of active) {
        void run.upload?.abort(false);
        finishRun(id);
      }
    },
  };
}
