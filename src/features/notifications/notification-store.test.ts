import { describe, expect, it, vi } from 'vitest';
import type { CallEndpoint, EndpointDefinition } from '#contract/define-endpoint.ts';
import type { Notification } from '#contract/entities/notification.ts';
import { createNotificationStore } from './notification-store.ts';

function notification(id: string, isRead = false): Notification {
  return {
    id,
    type: 'test',
    title: `Title ${id}`,
    body: 'Body',
    link: '/notifications',
    isRead,
    createdAt: '2025-03-01T10:00:00.000Z',
    actor: null,
    workspaceId: null,
    projectId: null,
  };
}

type Handler = (query: Record<string, unknown>) => unknown;

/** A fake API: one handler per operation; an unknown operation rejects. */
function fakeApi(handlers: Record<string, Handler>) {
  const calls: string[] = [];
  const callEndpoint = ((
    endpoint: EndpointDefinition,
    input: { query: Record<string, unknown> },
  ) => {
    calls.push(`${endpoint.operation}${'id' in input.query ? `:${String(input.query.id)}` : ''}`);
    const handler = handlers[endpoint.operation];
    if (!handler) return Promise.reject(new Error(`no ${endpoint.operation}`));
    try {
      return Promise.resolve(handler(input.query));
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }) as CallEndpoint;
  return { callEndpoint, calls };
}

function setup(handlers: Record<string, Handler>) {
  const api = fakeApi(handlers);
  const warn = vi.fn();
  const store = createNotificationStore({ callEndpoint: api.callEndpoint, log: { warn } });
  return { store, calls: api.calls, warn };
}

const listOf = (...items: Notification[]) => ({
  'get-notifications': () => ({ notifications: items }),
});

describe('notification store', () => {
  it('loads page 1 of 50 and the unread count; shows loading, then ready', async () => {
    const seen: Record<string, unknown>[] = [];
    const { store, calls } = setup({
      'get-notifications': (query) => {
        seen.push(query);
        return { notifications: [notification('b'), notification('a', true)] };
      },
      'get-unread-count': () => ({ unreadCount: 1 }),
    });
    expect(store.getSnapshot().status).toBe('idle');
    const loading = store.load();
    expect(store.getSnapshot().status).toBe('loading');
    await loading;
    expect(seen).toEqual([{ page: '1', limit: '50' }]);
    expect(calls.sort()).toEqual(['get-notifications', 'get-unread-count']);
    expect(store.getSnapshot()).toMatchObject({ status: 'ready', unreadCount: 1 });
    expect(store.getSnapshot().notifications.map((n) => n.id)).toEqual(['b', 'a']);
  });

  it('a failed first load is logged and shown as an error; a later failure keeps the list', async () => {
    let fail = true;
    const { store, warn } = setup({
      'get-notifications': () => {
        if (fail) throw new Error('offline');
        return { notifications: [notification('a')] };
      },
      'get-unread-count': () => ({ unreadCount: 1 }),
    });
    await store.load();
    expect(store.getSnapshot().status).toBe('error');
    expect(warn).toHaveBeenCalledWith('Could not load notifications', 'offline');
    fail = false;
    await store.load();
    expect(store.getSnapshot().status).toBe('ready');
    fail = true;
    await store.load();
    expect(store.getSnapshot().status).toBe('ready');
    expect(store.getSnapshot().notifications).toHaveLength(1);
  });

  it('notificationReceived adds a new id and raises the count if unread; a known id changes nothing', async () => {
    const { store } = setup({
      ...listOf(notification('a')),
      'get-unread-count': () => ({ unreadCount: 1 }),
    });
    await store.load();
    const arrivals: string[] = [];
    store.onArrival((n) => arrivals.push(n.id));
    store.received(notification('b'));
    store.received(notification('b'));
    store.received(notification('a'));
    store.received(notification('c', true));
    expect(store.getSnapshot().notifications.map((n) => n.id)).toEqual(['c', 'b', 'a']);
    expect(store.getSnapshot().unreadCount).toBe(2);
    expect(arrivals).toEqual(['b', 'c']);
  });

  it('notificationCountUpdated sets the count', () => {
    const { store } = setup({});
    store.countUpdated(7);
    expect(store.getSnapshot().unreadCount).toBe(7);
  });

  it('keeps a notification pushed while a load was under way that the load did not see', async () => {
    let answer: (value: unknown) => void = () => {};
    const { store } = setup({
      'get-notifications': () => new Promise((resolve) => (answer = resolve)),
      'get-unread-count': () => ({ unreadCount: 1 }),
    });
    const loading = store.load();
    store.received(notification('new'));
    answer({ notifications: [notification('old')] });
    await loading;
    expect(store.getSnapshot().notifications.map((n) => n.id)).toEqual(['new', 'old']);
  });

  it('a count pushed during a load outlives the load’s older answer, and one more load settles it', async () => {
    let count = 0;
    let answer: (value: unknown) => void = () => {};
    const { store, calls } = setup({
      'get-notifications': () => new Promise((resolve) => (answer = resolve)),
      'get-unread-count': () => ({ unreadCount: count }),
    });
    const loading = store.load();
    // The server read the count (0) before the notification was made; then the pushes come.
    count = 1;
    store.received(notification('new'));
    store.countUpdated(1);
    answer({ notifications: [] });
    await loading;
    expect(store.getSnapshot().unreadCount).toBe(1);
    await vi.waitFor(() => expect(calls.filter((c) => c === 'get-unread-count')).toHaveLength(2));
    answer({ notifications: [notification('new')] });
    await vi.waitFor(() => expect(store.getSnapshot().notifications).toHaveLength(1));
    expect(store.getSnapshot().unreadCount).toBe(1);
  });

  it('a load asked for during a load runs once more after it, so it sees what the first missed', async () => {
    let count = 0;
    let answer: (value: unknown) => void = () => {};
    const { store, calls } = setup({
      'get-notifications': () => new Promise((resolve) => (answer = resolve)),
      'get-unread-count': () => ({ unreadCount: count }),
    });
    const first = store.load();
    // The hub joined the user's group only now, after a notification was made.
    count = 1;
    const second = store.load();
    const third = store.load();
    expect(third).toBe(second);
    answer({ notifications: [] });
    await first;
    await new Promise((resolve) => setTimeout(resolve, 0));
    answer({ notifications: [notification('new')] });
    await second;
    expect(calls.filter((c) => c === 'get-unread-count')).toHaveLength(2);
    expect(store.getSnapshot().unreadCount).toBe(1);
    expect(store.getSnapshot().notifications.map((n) => n.id)).toEqual(['new']);
  });

  it('marks one read at once, then takes the server’s count', async () => {
    const { store, calls } = setup({
      ...listOf(notification('a'), notification('b')),
      'get-unread-count': () => ({ unreadCount: 2 }),
      'mark-read': () => ({ unreadCount: 1 }),
    });
    await store.load();
    const marking = store.markRead('a');
    expect(store.getSnapshot().notifications.find((n) => n.id === 'a')?.isRead).toBe(true);
    expect(store.getSnapshot().unreadCount).toBe(1);
    await marking;
    expect(calls).toContain('mark-read:a');
    expect(store.getSnapshot().unreadCount).toBe(1);
  });

  it('a failed mark read is logged and undone by reloading from the server', async () => {
    const { store, warn } = setup({
      ...listOf(notification('a')),
      'get-unread-count': () => ({ unreadCount: 1 }),
      'mark-read': () => {
        throw new Error('503');
      },
    });
    await store.load();
    await store.markRead('a');
    await vi.waitFor(() => expect(store.getSnapshot().unreadCount).toBe(1));
    expect(store.getSnapshot().notifications[0]?.isRead).toBe(false);
    expect(warn).toHaveBeenCalledWith('Could not mark the notification read', '503');
  });

  it('marks all read, deletes one and deletes all', async () => {
    const { store, calls } = setup({
      ...listOf(notification('a'), notification('b', true)),
      'get-unread-count': () => ({ unreadCount: 1 }),
      'mark-all-read': () => ({ unreadCount: 0 }),
      'delete-notification': () => ({ unreadCount: 0 }),
      'delete-all-notifications': () => ({ unreadCount: 0 }),
    });
    await store.load();
    await store.markAllRead();
    expect(store.getSnapshot().notifications.every((n) => n.isRead)).toBe(true);
    expect(store.getSnapshot().unreadCount).toBe(0);
    await store.remove('b');
    expect(store.getSnapshot().notifications.map((n) => n.id)).toEqual(['a']);
    await store.removeAll();
    expect(store.getSnapshot().notifications).toEqual([]);
    expect(calls).toEqual(
      expect.arrayContaining([
        'mark-all-read',
        'delete-notification:b',
        'delete-all-notifications',
      ]),
    );
  });

  it('reloads quietly when a pushed count disagrees with a complete list (read in another tab)', async () => {
    let read = false;
    const { store, calls } = setup({
      'get-notifications': () => ({ notifications: [notification('a', read)] }),
      'get-unread-count': () => ({ unreadCount: read ? 0 : 1 }),
    });
    await store.load();
    read = true;
    store.countUpdated(0);
    await vi.waitFor(() => expect(store.getSnapshot().notifications[0]?.isRead).toBe(true));
    expect(calls.filter((c) => c === 'get-notifications')).toHaveLength(2);
    // A count that agrees with the list reloads nothing.
    store.countUpdated(0);
    expect(calls.filter((c) => c === 'get-notifications')).toHaveLength(2);
  });

  it('tells subscribers about every change and the connection state', () => {
    const { store } = setup({});
    const listener = vi.fn();
    const unsubscribe = store.subscribe(listener);
    store.setConnection('connecting');
    store.setConnection('connecting');
    store.countUpdated(1);
    expect(listener).toHaveBeenCalledTimes(2);
    expect(store.getSnapshot().connection).toBe('connecting');
    unsubscribe();
    store.countUpdated(2);
    expect(listener).toHaveBeenCalledTimes(2);
  });
});
