import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Notification } from '#contract/entities/notification.ts';
import type { HubConnectionConfig, HubConnectionLike } from './build-hub-connection.ts';
import {
  CONNECT_FAILED_MESSAGE,
  createNotificationHub,
  type HubConnectionState,
  type HubGroupJoin,
  type NotificationHubOptions,
} from './create-notification-hub.ts';

/** A SignalR HubConnection stand-in that tests drive by hand. */
function createFakeConnection() {
  const handlers = new Map<string, (payload: unknown) => void>();
  let onClose: (error?: Error) => void = () => {};
  let onReconnecting: (error?: Error) => void = () => {};
  let onReconnected: (id?: string) => void = () => {};
  let next = 0;
  const fake = {
    connectionId: null as string | null,
    /** Makes the next start() calls reject (one entry per call). */
    failures: [] as Error[],
    start: vi.fn(async () => {
      await Promise.resolve();
      const failure = fake.failures.shift();
      if (failure) throw failure;
      next += 1;
      fake.connectionId = `conn-${next}`;
    }),
    stop: vi.fn(() => {
      const wasOpen = fake.connectionId !== null;
      fake.connectionId = null;
      if (wasOpen) onClose();
      return Promise.resolve();
    }),
    on: (event: string, handler: (payload: unknown) => void) => {
      handlers.set(event.toLowerCase(), handler);
    },
    onclose: (callback: (error?: Error) => void) => {
      onClose = callback;
    },
    onreconnecting: (callback: (error?: Error) => void) => {
      onReconnecting = callback;
    },
    onreconnected: (callback: (id?: string) => void) => {
      onReconnected = callback;
    },
    push(event: string, payload: unknown) {
      handlers.get(event.toLowerCase())?.(payload);
    },
    /** The socket dropped; SignalR starts its automatic reconnect. */
    drop() {
      fake.connectionId = null;
      onReconnecting(new Error('WebSocket closed with status code: 1006'));
    },
    /** SignalR's automatic reconnect succeeded with a new connection id. */
    reconnect(id: string) {
      fake.connectionId = id;
      onReconnected(id);
    },
    /** SignalR's automatic reconnect is spent. */
    giveUp() {
      fake.connectionId = null;
      onClose(new Error('gave up'));
    },
  } satisfies HubConnectionLike & Record<string, unknown>;
  return fake;
}

const notification: Notification = {
  id: 'n1',
  type: 'test',
  title: 'Test notification',
  body: 'Hello',
  link: '/notifications',
  isRead: false,
  createdAt: '2025-01-01T10:00:00.000Z',
  actor: null,
  workspaceId: null,
  projectId: null,
};

class FakeEnvironment {
  private readonly listeners = new Set<() => void>();
  addEventListener(_type: 'online', listener: () => void) {
    this.listeners.add(listener);
  }
  removeEventListener(_type: 'online', listener: () => void) {
    this.listeners.delete(listener);
  }
  goOnline() {
    for (const listener of this.listeners) listener();
  }
  get size() {
    return this.listeners.size;
  }
}

/** Lets the hub's promise chains settle without moving the clock. */
const settle = () => vi.advanceTimersByTimeAsync(0);

function setup(
  overrides: Partial<NotificationHubOptions> = {},
  prepare: (connection: ReturnType<typeof createFakeConnection>) => void = () => {},
) {
  const connection = createFakeConnection();
  prepare(connection);
  let config: HubConnectionConfig | null = null;
  const joins: HubGroupJoin[] = [];
  const states: HubConnectionState[] = [];
  const environment = new FakeEnvironment();
  let online = true;
  const spies = {
    getHubToken: vi.fn(() => Promise.resolve('hub-token')),
    onNotification: vi.fn(),
    onUnreadCount: vi.fn(),
    onTablesInvalidated: vi.fn(),
    onAccountDeleted: vi.fn(),
    onReconnected: vi.fn(),
    warn: vi.fn(),
  };
  const options: NotificationHubOptions = {
    hubUrl: 'http://localhost/hubs/notifications',
    userId: 'user-1',
    workspaceIds: ['ws-1'],
    getHubToken: spies.getHubToken,
    joinGroup: vi.fn((join: HubGroupJoin) => {
      joins.push(join);
      return Promise.resolve();
    }),
    onStateChange: (state) => states.push(state),
    onNotification: spies.onNotification,
    onUnreadCount: spies.onUnreadCount,
    onTablesInvalidated: spies.onTablesInvalidated,
    onAccountDeleted: spies.onAccountDeleted,
    onReconnected: spies.onReconnected,
    log: { warn: spies.warn },
    connect: (given) => {
      config = given;
      return connection;
    },
    environment,
    isOnline: () => online,
    ...overrides,
  };
  const hub = createNotificationHub(options);
  return {
    hub,
    connection,
    spies,
    joins,
    states,
    environment,
    setOnline: (value: boolean) => {
      online = value;
    },
    config: () => {
      if (!config) throw new Error('no connection built');
      return config;
    },
  };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('createNotificationHub', () => {
  it('connects, joins the user and workspace groups with its connection id, then reports connected', async () => {
    const { hub, joins, states, connection } = setup();
    expect(hub.getState()).toBe('connecting');
    await settle();
    expect(connection.start).toHaveBeenCalledTimes(1);
    expect(joins).toEqual([
      { userId: 'user-1', connectionId: 'conn-1', groupType: 'user', workspaceId: null },
      { userId: 'user-1', connectionId: 'conn-1', groupType: 'workspace', workspaceId: 'ws-1' },
    ]);
    expect(states).toEqual(['connecting', 'connected']);
    expect(hub.getState()).toBe('connected');
  });

  it('asks for a fresh hub token on every negotiate and WebSocket open', async () => {
    const { config, spies } = setup();
    await settle();
    await config().accessTokenFactory();
    await config().accessTokenFactory();
    expect(spies.getHubToken).toHaveBeenCalledTimes(2);
  });

  it('configures SignalR with the spec timings: reconnect 0, 2, 10, 30 s then hand over', () => {
    const { config } = setup();
    const delays = [0, 1, 2, 3, 4].map((n) => config().reconnectDelayMs(n));
    expect(delays).toEqual([0, 2_000, 10_000, 30_000, null]);
    expect(config()).toMatchObject({
      requestTimeoutMs: 10_000,
      serverTimeoutMs: 30_000,
      keepAliveIntervalMs: 15_000,
    });
  });

  it('hands on contract-valid events typed, and drops malformed ones with a warning', async () => {
    const { connection, spies } = setup();
    await settle();
    connection.push('notificationReceived', { notification });
    connection.push('NOTIFICATIONCOUNTUPDATED', { unreadCount: 3 });
    connection.push('tablesInvalidated', {
      workspaceId: 'ws-1',
      tables: ['clients'],
      seq: 12,
      originClientId: null,
    });
    expect(spies.onNotification).toHaveBeenCalledWith(notification);
    expect(spies.onUnreadCount).toHaveBeenCalledWith(3);
    expect(spies.onTablesInvalidated).toHaveBeenCalledWith({
      workspaceId: 'ws-1',
      tables: ['clients'],
      seq: 12,
      originClientId: null,
    });
    connection.push('accountDeleted', { userId: 'user-1' });
    expect(spies.onAccountDeleted).toHaveBeenCalledWith('user-1');

    connection.push('notificationCountUpdated', { unreadCount: -1 });
    connection.push('tablesInvalidated', { workspaceId: 'ws-1' });
    connection.push('notificationReceived', { notification: { id: 'n2' } });
    expect(spies.onUnreadCount).toHaveBeenCalledTimes(1);
    expect(spies.onTablesInvalidated).toHaveBeenCalledTimes(1);
    expect(spies.onNotification).toHaveBeenCalledTimes(1);
    connection.push('accountDeleted', {});
    expect(spies.onAccountDeleted).toHaveBeenCalledTimes(1);
    expect(spies.warn).toHaveBeenCalledTimes(4);
  });

  it('retries a failed connect 5 times, 5 s x the attempt apart, logging each, then every 30 s', async () => {
    const { connection, spies, hub } = setup({}, (fake) => {
      fake.failures.push(...Array.from({ length: 7 }, () => new Error('negotiate 503')));
    });
    await settle();
    expect(connection.start).toHaveBeenCalledTimes(1);
    expect(spies.warn).toHaveBeenLastCalledWith(CONNECT_FAILED_MESSAGE, 'negotiate 503');

    const waits = [5_000, 10_000, 15_000, 20_000, 25_000, 30_000, 30_000];
    for (const [index, wait] of waits.entries()) {
      await vi.advanceTimersByTimeAsync(wait - 1);
      expect(connection.start).toHaveBeenCalledTimes(index + 1);
      await vi.advanceTimersByTimeAsync(1);
      expect(connection.start).toHaveBeenCalledTimes(index + 2);
    }
    expect(spies.warn).toHaveBeenCalledTimes(7);
    expect(hub.getState()).toBe('connected');
    // Never connected before this session: the first success is not a reconnect.
    expect(spies.onReconnected).not.toHaveBeenCalled();
  });

  it('after a drop, re-joins with the new connection id, then reports reconnected once', async () => {
    const { connection, joins, states, spies, hub } = setup();
    await settle();
    joins.length = 0;
    connection.drop();
    expect(hub.getState()).toBe('reconnecting');
    connection.reconnect('conn-9');
    await settle();
    expect(joins.map((join) => [join.connectionId, join.groupType])).toEqual([
      ['conn-9', 'user'],
      ['conn-9', 'workspace'],
    ]);
    expect(states).toEqual(['connecting', 'connected', 'reconnecting', 'connected']);
    expect(spies.onReconnected).toHaveBeenCalledTimes(1);
  });

  it('keeps trying every 30 s once SignalR gives up, and at once when the browser is back online', async () => {
    const { connection, spies, hub, environment, setOnline } = setup();
    await settle();
    connection.drop();
    setOnline(false);
    connection.giveUp();
    expect(hub.getState()).toBe('reconnecting');
    const starts = connection.start.mock.calls.length;

    // Offline, attempts can only fail: none is made.
    await vi.advanceTimersByTimeAsync(90_000);
    expect(connection.start).toHaveBeenCalledTimes(starts);

    setOnline(true);
    connection.failures.push(new Error('still down'));
    environment.goOnline();
    await settle();
    expect(connection.start).toHaveBeenCalledTimes(starts + 1);
    expect(hub.getState()).toBe('reconnecting');

    await vi.advanceTimersByTimeAsync(30_000);
    expect(connection.start).toHaveBeenCalledTimes(starts + 2);
    expect(hub.getState()).toBe('connected');
    expect(spies.onReconnected).toHaveBeenCalledTimes(1);
  });

  it('ignores `online` while SignalR runs its own reconnect', async () => {
    const { connection, environment } = setup();
    await settle();
    connection.drop();
    environment.goOnline();
    await settle();
    expect(connection.start).toHaveBeenCalledTimes(1);
  });

  it('a refused join stops the connection and starts over with a new one', async () => {
    let refuse = true;
    const { connection, hub, spies } = setup({
      joinGroup: vi.fn(() => {
        if (refuse) {
          refuse = false;
          return Promise.reject(new Error('403'));
        }
        return Promise.resolve();
      }),
    });
    await settle();
    expect(connection.stop).toHaveBeenCalledTimes(1);
    expect(hub.getState()).toBe('connecting');
    expect(spies.warn).toHaveBeenCalledWith(CONNECT_FAILED_MESSAGE, '403');
    await vi.advanceTimersByTimeAsync(5_000);
    expect(connection.start).toHaveBeenCalledTimes(2);
    expect(hub.getState()).toBe('connected');
  });

  it('fails an attempt that hangs past the connection timeout', async () => {
    const { hub, spies } = setup({}, (fake) => {
      fake.start.mockImplementationOnce(() => new Promise<void>(() => {}));
    });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(spies.warn).toHaveBeenCalledWith(
      CONNECT_FAILED_MESSAGE,
      'The hub did not answer in time',
    );
    await vi.advanceTimersByTimeAsync(5_000);
    expect(hub.getState()).toBe('connected');
  });

  it('joins only the new workspace group on a live connection, without a reconnect', async () => {
    const { connection, hub, joins, spies } = setup();
    await settle();
    joins.length = 0;
    hub.setWorkspaces(['ws-1', 'ws-2']);
    await settle();
    expect(joins).toEqual([
      { userId: 'user-1', connectionId: 'conn-1', groupType: 'workspace', workspaceId: 'ws-2' },
    ]);
    expect(connection.start).toHaveBeenCalledTimes(1);
    expect(spies.onReconnected).not.toHaveBeenCalled();
    expect(hub.getState()).toBe('connected');
  });

  it('stop ends the session: disconnected, no retries, no events, no listeners', async () => {
    const { connection, hub, spies, environment, states } = setup({}, (fake) => {
      fake.failures.push(new Error('down'));
    });
    await settle();
    await hub.stop();
    expect(hub.getState()).toBe('disconnected');
    expect(states.at(-1)).toBe('disconnected');
    expect(environment.size).toBe(0);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(connection.start).toHaveBeenCalledTimes(1);
    connection.push('notificationCountUpdated', { unreadCount: 1 });
    expect(spies.onUnreadCount).not.toHaveBeenCalled();
  });

  it('starting offline waits for the browser to come online', async () => {
    const environment = new FakeEnvironment();
    let online = false;
    const connection = createFakeConnection();
    createNotificationHub({
      hubUrl: 'http://localhost/hubs/notifications',
      userId: 'user-1',
      getHubToken: () => Promise.resolve('t'),
      joinGroup: () => Promise.resolve(),
      connect: () => connection,
      environment,
      isOnline: () => online,
    });
    await settle();
    expect(connection.start).not.toHaveBeenCalled();
    online = true;
    environment.goOnline();
    await settle();
    expect(connection.start).toHaveBeenCalledTimes(1);
  });
});
