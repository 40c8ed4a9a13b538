/**
 * The main thread's handle on sync (the only sync module features and the app import). startSync
 * opens the user's database for the screens and joins the leader election for `sync:<userId>`;
 * the leader runs the engine in a dedicated worker (comlink). Every tab reports the same status
 * (counts from live queries, state from the engine) and followers wake the leader by broadcast.
 */
import { proxy, releaseProxy, wrap } from 'comlink';
import { createAppDatabase, type AppDatabase } from '../db/app-database.ts';
import { observeQuery } from '../db/live-query.ts';
import { applyLiveRows, type LiveRows } from './apply-live-rows.ts';
import { readSyncCounts } from '../db/sync-counts.ts';
import { electLeader, leaderLockName, type LockManagerLike } from './leader-election.ts';
import type { SyncEngineState, SyncStatus } from './sync-engine.ts';
import type { SyncWorkerApi } from './sync-worker-api.ts';

export { describeSyncStatus } from './sync-status.ts';
export { valueWords } from './describe-mutation.ts';
export {
  cancelQueuedChange,
  describeSyncIssueDetails,
  discardSyncIssue,
  keepSyncIssueCopy,
  retrySyncIssue,
  revertToTheirs,
} from './sync-issue-actions.ts';
export type { SyncEngineState, SyncStatus } from './sync-engine.ts';

export interface ClientSyncStatus {
  /** `local`: a device-only database (the demo): no engine runs and nothing is ever sent. */
  state: SyncEngineState | 'follower' | 'local';
  role: 'leader' | 'follower';
  waiting: number;
  failed: number;
  lastSyncedAt: number | null;
  lastError: string | null;
}

export interface WorkerConnection {
  engine: SyncWorkerApi;
  close(): void;
}

interface ChannelLike {
  postMessage(message: unknown): void;
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
  close(): void;
}

interface EnvironmentLike {
  addEventListener(type: string, listener: () => void): void;
  removeEventListener(type: string, listener: () => void): void;
}

export interface StartSyncOptions {
  userId: string;
  getAccessToken: () => Promise<string | null>;
  /** API origin; '' (default) is the page's own. */
  baseUrl?: string;
  /** Another tab upgraded the database: this one closed it; the app should offer a reload. */
  onVersionChange?: () => void;
  /** Injected in tests; defaults are the browser's. */
  db?: AppDatabase;
  locks?: LockManagerLike | null;
  connectWorker?: (
    config: { userId: string; baseUrl: string },
    getAccessToken: () => Promise<string | null>,
    onStatus: (status: SyncStatus) => void,
  ) => Promise<WorkerConnection>;
  openChannel?: (name: string) => ChannelLike | null;
  environment?: EnvironmentLike | null;
  isOnline?: () => boolean;
  isVisible?: () => boolean;
  /**
   * No transport (the demo): writes go to the tables and the outbox as usual, so every screen
   * and undo work, but no engine, worker or leader election starts and the outbox simply stays.
   */
  localOnly?: boolean;
}

export interface SyncHandle {
  /** The user's local database, for the screens' queries and writes. */
  readonly db: AppDatabase;
  getStatus(): ClientSyncStatus;
  subscribe(listener: (status: ClientSyncStatus) => void): () => void;
  /** Call after a local write (LocalWriteContext.onQueued): the leader pushes within ~20 ms. */
  notifyOutboxChanged(): void;
  /** Hub messages (wired by the app to src/realtime later); only the leader acts on them. */
  invalidate(message: { workspaceId: string; seq: number }): void;
  /** Hub rowsChanged: stored in this tab at once (apply-live-rows.ts), leader or not. */
  applyLiveRows(message: LiveRows): void;
  reconnect(): void;
  /** After a token refresh that followed a 401. */
  resumeAfterAuth(): void;
  isLeader(): boolean;
  /** Calls `listener` with the ids of the workspaces on this device, now and on each change. */
  observeWorkspaceIds(listener: (ids: string[]) => void): () => void;
  /** Sign-out or user switch: leaves the election, stops the worker, closes the database. */
  stop(): Promise<void>;
}

const OUTBOX_CHANGED = 'outbox-changed';

/** The default worker: a module worker built by Vite, driven through comlink. */
async function spawnWorker(
  config: { userId: string; baseUrl: string },
  getAccessToken: () => Promise<string | null>,
  onStatus: (status: SyncStatus) => void,
): Promise<WorkerConnection> {
  const worker = new Worker(new URL('./sync-worker.ts', import.meta.url), {
    type: 'module',
    name: 'satchel-sync',
  });
  const remote = wrap<SyncWorkerApi>(worker);
  await remote.init(config, proxy(getAccessToken), proxy(onStatus));
  return {
    engine: remote,
    close() {
      remote[releaseProxy]();
      worker.terminate();
    },
  };
}

function defaultChannel(name: string): ChannelLike | null {
  return typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(name);
}

function browserLocks(): LockManagerLike | null {
  const nav = globalThis.navigator as (Navigator & { locks?: LockManagerLike }) | undefined;
  return nav?.locks ?? null;
}

export function startSync(options: StartSyncOptions): SyncHandle {
  const db =
    options.db ??
    createAppDatabase(
      options.userId,
      options.onVersionChange ? { onVersionChange: options.onVersionChange } : {},
    );
  const environment =
    options.environment === undefined
      ? typeof window === 'undefined'
        ? null
        : window
      : options.environment;
  const isOnline = options.isOnline ?? (() => globalThis.navigator?.onLine ?? true);
  const isVisible =
    options.isVisible ??
    (() => typeof document === 'undefined' || document.visibilityState !== 'hidden');
  const connect = options.connectWorker ?? spawnWorker;
  const channel = (options.openChannel ?? defaultChannel)(leaderLockName(options.userId));
  const listeners = new Set<(status: ClientSyncStatus) => void>();

  let connection: WorkerConnection | null = null;
  let stopped = false;
  let engineStatus: SyncStatus | null = null;
  let counts = { waiting: 0, failed: 0 };
  let status: ClientSyncStatus = compose();

  function compose(): ClientSyncStatus {
    if (options.localOnly) {
      return { state: 'local', role: 'leader', ...counts, lastSyncedAt: null, lastError: null };
    }
    const leader = connection !== null;
    const state: ClientSyncStatus['state'] =
      leader && engineStatus ? engineStatus.state : isOnline() ? 'follower' : 'offline';
    return {
      state,
      role: leader ? 'leader' : 'follower',
      ...counts,
      lastSyncedAt: engineStatus?.lastSyncedAt ?? null,
      lastError: engineStatus?.lastError ?? null,
    };
  }

  function publish() {
    status = compose();
    for (const listener of listeners) listener(status);
  }

  const stopCounts = observeQuery(
    () => readSyncCounts(db),
    (next) => {
      counts = next;
      publish();
    },
  );

  /** Calls the engine if this tab leads; failures are the worker's to report via status. */
  function toEngine(call: (engine: SyncWorkerApi) => Promise<unknown>) {
    if (connection) call(connection.engine).catch(() => {});
  }

  const election = options.localOnly
    ? { stop: () => undefined }
    : electLeader({
        locks: options.locks === undefined ? browserLocks() : options.locks,
        name: leaderLockName(options.userId),
        async onLeader() {
          const opened = await connect(
            { userId: options.userId, baseUrl: options.baseUrl ?? '' },
            options.getAccessToken,
            (next) => {
              engineStatus = next;
              publish();
            },
          );
          if (stopped) {
            opened.close();
            return;
          }
          connection = opened;
          if (!isOnline()) await opened.engine.offline();
          if (!isVisible()) await opened.engine.hidden();
          await opened.engine.start();
          publish();
        },
      });

  channel?.addEventListener('message', (event: MessageEvent) => {
    if ((event.data as { type?: unknown } | null)?.type === OUTBOX_CHANGED) {
      toEngine((engine) => engine.enqueued());
    }
  });

  const onOnline = () => {
    toEngine((engine) => engine.online());
    publish();
  };
  const onOffline = () => {
    toEngine((engine) => engine.offline());
    publish();
  };
  const onVisibility = () => {
    toEngine((engine) => (isVisible() ? engine.visible() : engine.hidden()));
  };
  environment?.addEventListener('online', onOnline);
  environment?.addEventListener('offline', onOffline);
  environment?.addEventListener('visibilitychange', onVisibility);

  return {
    db,
    getStatus: () => status,
    subscribe(listener) {
      listeners.add(listener);
      listener(status);
      return () => listeners.delete(listener);
    },
    notifyOutboxChanged() {
      if (connection) toEngine((engine) => engine.enqueued());
      else channel?.postMessage({ type: OUTBOX_CHANGED });
    },
    invalidate(message) {
      toEngine((engine) => engine.invalidate(message));
    },
    applyLiveRows(message) {
      // An early copy only: a failure here (a closed database) leaves the pull to bring it.
      void applyLiveRows(db, message).catch(() => undefined);
    },
    reconnect() {
      toEngine((engine) => engine.reconnect());
    },
    resumeAfterAuth() {
      toEngine((engine) => engine.resumeAfterAuth());
    },
    isLeader: () => connection !== null,
    observeWorkspaceIds(listener) {
      return observeQuery(
        () => db.workspaces.toCollection().primaryKeys(),
        (ids) => listener(ids),
      );
    },
    async stop() {
      stopped = true;
      environment?.removeEventListener('online', onOnline);
      environment?.removeEventListener('offline', onOffline);
      environment?.removeEventListener('visibilitychange', onVisibility);
      stopCounts();
      channel?.close();
      const open = connection;
      connection = null;
      if (open) {
        await open.engine.stop().catch(() => {});
        open.close();
      }
      election.stop();
      listeners.clear();
      if (!options.db) db.close();
    },
  };
}
