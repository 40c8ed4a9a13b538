/**
 * The app's connection to the notification hub (/hubs/notifications) for one signed-in user: it
 * connects, joins the user's groups after every connect and reconnect (memberships end with a
 * connection, and a reconnect gets a new connection id), checks every pushed event against the
 * contract and hands it on typed. It never gives up: SignalR's automatic reconnect first, then a
 * schedule of its own, and at once when the browser comes back online.
 */
import * as v from 'valibot';
import type { Notification } from '#contract/entities/notification.ts';
import {
  hubEvents,
  hubEventSchemas,
  realtimeClientTimings,
  type HubEventName,
  type HubEventPayload,
  type NotificationGroupType,
} from '#contract/realtime.ts';
import {
  buildHubConnection,
  type HubConnectionConfig,
  type HubConnectionLike,
} from './build-hub-connection.ts';
import {
  nextHubConnectionState,
  type HubConnectionEvent,
  type HubConnectionState,
} from './hub-connection-state.ts';
import {
  automaticReconnectDelayMs,
  connectRetryDelayMs,
  defaultHubRetryTimings,
  type HubRetryTimings,
} from './hub-retry-schedule.ts';

export type { HubConnectionState } from './hub-connection-state.ts';

/** One join-notification-group call. */
export interface HubGroupJoin {
  userId: string;
  connectionId: string;
  groupType: NotificationGroupType;
  /** The workspace of a workspace group; null for the user group. */
  workspaceId: string | null;
}

export type TablesInvalidated = HubEventPayload<'tablesInvalidated'>;
export type RowsChanged = HubEventPayload<'rowsChanged'>;

export interface HubLog {
  warn(message: string, details?: unknown): void;
}

interface OnlineEvents {
  addEventListener(type: 'online', listener: () => void): void;
  removeEventListener(type: 'online', listener: () => void): void;
}

export interface HubTimings extends HubRetryTimings {
  /** A connect attempt (token, negotiate, WebSocket, handshake, joins) that takes longer fails. */
  connectionTimeoutMs: number;
  serverTimeoutMs: number;
  keepAliveIntervalMs: number;
}

export const defaultHubTimings: HubTimings = {
  ...defaultHubRetryTimings,
  connectionTimeoutMs: realtimeClientTimings.connectionTimeoutMs,
  serverTimeoutMs: realtimeClientTimings.serverTimeoutMs,
  keepAliveIntervalMs: realtimeClientTimings.keepAliveIntervalMs,
};

export interface NotificationHubOptions {
  /** Absolute URL of /hubs/notifications. */
  hubUrl: string;
  userId: string;
  /** A fresh hub token (notification-connect); called on every connect, as tokens last 10 minutes. */
  getHubToken: () => Promise<string>;
  /** join-notification-group; rejects when the server refuses. */
  joinGroup: (join: HubGroupJoin) => Promise<void>;
  /** Workspaces whose groups to join besides the user's own; see also setWorkspaces. */
  workspaceIds?: readonly string[];
  onNotification?: (notification: Notification) => void;
  onUnreadCount?: (unreadCount: number) => void;
  onTablesInvalidated?: (message: TablesInvalidated) => void;
  /** A live entity's committed rows (chat messages): store them without waiting for a pull. */
  onRowsChanged?: (message: RowsChanged) => void;
  /** The workspace's plan or subscription changed: read it again. */
  onSubscriptionChanged?: (workspaceId: string) => void;
  /** The account was deleted on another device: sign out and drop this device's data. */
  onAccountDeleted?: (userId: string) => void;
  onStateChange?: (state: HubConnectionState) => void;
  /**
   * Connected again after having been connected (groups re-joined): pushes sent meanwhile were
   * missed, so the caller refreshes what they would have told it.
   */
  onReconnected?: () => void;
  log?: HubLog;
  timings?: Partial<HubTimings>;
  /** Injected in tests; defaults are the browser's and the real SignalR client. */
  connect?: (config: HubConnectionConfig) => HubConnectionLike;
  environment?: OnlineEvents | null;
  isOnline?: () => boolean;
}

export interface NotificationHub {
  getState(): HubConnectionState;
  /** The user's workspaces now: groups of new ones are joined on the live connection. */
  setWorkspaces(workspaceIds: readonly string[]): void;
  /** Ends the session: no more events or retries. */
  stop(): Promise<void>;
}

/** Spec section 8: the message logged for every failed connect. */
export const CONNECT_FAILED_MESSAGE = 'Failed to get SignalR notification connection info';

const USER_GROUP = 'user';
const workspaceGroupKey = (workspaceId: string) => `workspace:${workspaceId}`;

export function createNotificationHub(options: NotificationHubOptions): NotificationHub {
  const timings: HubTimings = { ...defaultHubTimings, ...options.timings };
  const log = options.log ?? { warn: () => {} };
  const environment =
    options.environment === undefined
      ? typeof window === 'undefined'
        ? null
        : window
      : options.environment;
  const isOnline = options.isOnline ?? (() => globalThis.navigator?.onLine ?? true);

  let state: HubConnectionState = 'disconnected';
  let stopped = false;
  let everConnected = false;
  /** Failed connects in a row; picks the next delay. */
  let failures = 0;
  let retryTimer: ReturnType<typeof setTimeout> | null = null;
  /** The connect, re-join or join under way; callbacks of SignalR during it are its business. */
  let attempt: Promise<void> | null = null;
  let workspaces: readonly string[] = [...new Set(options.workspaceIds ?? [])];
  /** Groups joined on `joinedOn` (a connection id); a new id starts from none. */
  let joinedOn: string | null = null;
  const joined = new Set<string>();

  const connection = (options.connect ?? buildHubConnection)({
    hubUrl: options.hubUrl,
    accessTokenFactory: () => options.getHubToken(),
    reconnectDelayMs: (previous) => automaticReconnectDelayMs(timings, previous),
    requestTimeoutMs: timings.connectionTimeoutMs,
    serverTimeoutMs: timings.serverTimeoutMs,
    keepAliveIntervalMs: timings.keepAliveIntervalMs,
  });

  function move(event: HubConnectionEvent) {
    const next = nextHubConnectionState(state, event);
    if (next === null || next === state) return;
    state = next;
    options.onStateChange?.(state);
  }

  /** Registers a typed handler; a payload that breaks the contract is logged and dropped. */
  function listen<E extends HubEventName>(event: E, handle: (payload: HubEventPayload<E>) => void) {
    connection.on(event, (payload) => {
      if (stopped) return;
      const parsed = v.safeParse(hubEventSchemas[event], payload);
      if (parsed.success) handle(parsed.output);
      else
        log.warn(`Ignored a malformed ${event} message from the hub`, v.summarize(parsed.issues));
    });
  }
  listen(hubEvents.notificationReceived, ({ notification }) =>
    options.onNotification?.(notification),
  );
  listen(hubEvents.notificationCountUpdated, ({ unreadCount }) =>
    options.onUnreadCount?.(unreadCount),
  );
  listen(hubEvents.tablesInvalidated, (message) => options.onTablesInvalidated?.(message));
  listen(hubEvents.rowsChanged, (message) => options.onRowsChanged?.(message));
  listen(hubEvents.subscriptionChanged, ({ workspaceId }) =>
    options.onSubscriptionChanged?.(workspaceId),
  );
  listen(hubEvents.accountDeleted, ({ userId }) => options.onAccountDeleted?.(userId));

  /** Joins every wanted group not yet joined on this connection (repeats if the list changed). */
  async function joinGroups(connectionId: string) {
    if (joinedOn !== connectionId) {
      joinedOn = connectionId;
      joined.clear();
    }
    const pending = () => [
      ...(joined.has(USER_GROUP) ? [] : [{ key: USER_GROUP, workspaceId: null }]),
      ...workspaces
        .filter((id) => !joined.has(workspaceGroupKey(id)))
        .map((id) => ({ key: workspaceGroupKey(id), workspaceId: id })),
    ];
    for (let batch = pending(); batch.length > 0 && !stopped; batch = pending()) {
      // Never spin on a connection that is no longer the one being joined.
      if (joinedOn !== connectionId) throw new Error('The hub connection changed while joining');
      await Promise.all(
        batch.map(async ({ key, workspaceId }) => {
          await options.joinGroup({
            userId: options.userId,
            connectionId,
            groupType: workspaceId === null ? 'user' : 'workspace',
            workspaceId,
          });
          if (joinedOn === connectionId) joined.add(key);
        }),
      );
    }
  }

  function withTimeout<T>(work: Promise<T>): Promise<T> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error('The hub did not answer in time')),
        timings.connectionTimeoutMs,
      );
    });
    return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
  }

  /**
   * Runs one attempt (connect, or join after SignalR reconnected). Success: connected. Failure:
   * the connection is stopped, so the next try starts from a clean negotiate, and a retry is
   * scheduled. One attempt at a time.
   */
  function runAttempt(open: () => Promise<string>, kind: 'connect' | 'join' = 'connect') {
    if (stopped || attempt) return;
    clearRetry();
    attempt = (async () => {
      try {
        await withTimeout(
          (async () => {
            await joinGroups(await open());
          })(),
        );
        if (stopped || kind === 'join') return;
        failures = 0;
        const reconnected = everConnected;
        everConnected = true;
        move('open');
        if (reconnected) options.onReconnected?.();
      } catch (error) {
        if (stopped) return;
        log.warn(CONNECT_FAILED_MESSAGE, error instanceof Error ? error.message : error);
        failures += 1;
        move('fail');
        // Its onclose, if any, fires inside this attempt and is ignored there.
        await connection.stop().catch(() => undefined);
        scheduleRetry(connectRetryDelayMs(timings, failures));
      }
    })().finally(() => {
      attempt = null;
    });
  }

  function connect() {
    runAttempt(async () => {
      await connection.start();
      const id = connection.connectionId;
      if (!id) throw new Error('The hub gave no connection id');
      return id;
    });
  }

  function clearRetry() {
    if (retryTimer !== null) clearTimeout(retryTimer);
    retryTimer = null;
  }

  function scheduleRetry(delayMs: number) {
    clearRetry();
    if (stopped) return;
    retryTimer = setTimeout(() => {
      retryTimer = null;
      // Offline, an attempt can only fail: keep waiting (the `online` event cuts it short).
      if (isOnline()) connect();
      else scheduleRetry(timings.steadyRetryMs);
    }, delayMs);
  }

  connection.onreconnecting(() => {
    if (!stopped) move('drop');
  });
  connection.onreconnected((connectionId) => {
    // After an attempt still finishing (a join racing the drop), unless that one gave up on
    // this connection.
    void (attempt ?? Promise.resolve()).then(() => {
      if (stopped || !connectionId || connection.connectionId !== connectionId) return;
      runAttempt(() => Promise.resolve(connectionId));
    });
  });
  connection.onclose(() => {
    // Our own stops (stop(), a failed attempt) are not losses; anything else is.
    if (stopped || attempt) return;
    move('drop');
    // SignalR's automatic reconnect is spent (or the server ended the connection): keep going
    // on the steady schedule.
    failures = Math.max(failures, timings.connectRetries);
    scheduleRetry(timings.steadyRetryMs);
  });

  // Only when a retry of ours is waiting: during SignalR's own reconnect it is not ours to start.
  const onOnline = () => {
    if (stopped || attempt || retryTimer === null) return;
    connect();
  };
  environment?.addEventListener('online', onOnline);

  move('start');
  if (isOnline()) connect();
  else scheduleRetry(timings.steadyRetryMs);

  return {
    getState: () => state,
    setWorkspaces(workspaceIds) {
      workspaces = [...new Set(workspaceIds)];
      const id = connection.connectionId;
      // While connecting, the attempt under way joins them before it reports connected.
      if (state === 'connected' && id) runAttempt(() => Promise.resolve(id), 'join');
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      clearRetry();
      environment?.removeEventListener('online', onOnline);
      move('stop');
      await connection.stop().catch(() => undefined);
    },
  };
}
