import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CallEndpoint, EndpointDefinition } from '#contract/define-endpoint.ts';
import type { Notification } from '#contract/entities/notification.ts';
import { createAppDatabase } from '../db/app-database.ts';
import { observeQuery } from '../db/live-query.ts';
import { useNotifications } from '../features/notifications/notifications-context.tsx';
import type {
  NotificationHub,
  NotificationHubOptions,
} from '../realtime/create-notification-hub.ts';
import type { SyncHandle } from '../sync/sync-client.ts';
import { RealtimeSession, type RealtimeServices } from './realtime-session.tsx';

afterEach(cleanup);

const notification: Notification = {
  id: 'n1',
  type: 'test',
  title: 'Hello',
  body: '',
  link: null,
  isRead: false,
  createdAt: '2025-01-01T00:00:00.000Z',
  actor: null,
  workspaceId: null,
  projectId: null,
};

function setup() {
  const calls: { operation: string; input: unknown }[] = [];
  const callEndpoint = ((endpoint: EndpointDefinition, input: unknown) => {
    calls.push({ operation: endpoint.operation, input });
    switch (endpoint.operation) {
      case 'get-notifications':
        return Promise.resolve({ notifications: [] });
      case 'get-unread-count':
        return Promise.resolve({ unreadCount: 0 });
      case 'notification-connect':
        return Promise.resolve({ url: 'http://x/hubs/notifications', accessToken: 'hub-token' });
      default:
        return Promise.resolve({ ok: true });
    }
  }) as CallEndpoint;
  const hubs: {
    options: NotificationHubOptions;
    hub: NotificationHub & { workspaces: string[][] };
    stop: () => Promise<void>;
  }[] = [];
  const services: RealtimeServices = {
    callEndpoint,
    hubUrl: 'http://localhost/hubs/notifications',
    openHub: (options) => {
      const workspaces: string[][] = [];
      const stop = vi.fn(() => Promise.resolve());
      const hub = {
        workspaces,
        getState: () => 'connected' as const,
        setWorkspaces: (ids: readonly string[]) => void workspaces.push([...ids]),
        stop,
      };
      hubs.push({ options, hub, stop });
      return Promise.resolve(hub);
    },
    log: { warn: vi.fn() },
  };
  return { services, hubs, calls };
}

function fakeHandle(userId: string) {
  const db = createAppDatabase(userId, { name: `realtime-session-${userId}-${Math.random()}` });
  const invalidate = vi.fn();
  const reconnect = vi.fn();
  const handle = {
    db,
    invalidate,
    reconnect,
    observeWorkspaceIds: (listener: (ids: string[]) => void) =>
      observeQuery(() => db.workspaces.toCollection().primaryKeys(), listener),
  } as unknown as SyncHandle;
  return { handle, db, invalidate, reconnect };
}

function Count() {
  const { unreadCount } = useNotifications();
  return <p>unread {unreadCount}</p>;
}

describe('RealtimeSession', () => {
  it('starts the hub for the user and feeds the store, sync and the workspace groups', async () => {
    const { services, hubs, calls } = setup();
    const { handle, db, invalidate, reconnect } = fakeHandle('user-1');
    await db.workspaces.put({
      id: 'ws-1',
      name: 'Mine',
      logoUrl: null,
      brandColor: null,
      currency: 'EUR',
      timeZone: 'UTC',
      locale: 'en',
      portalWelcomeText: null,
      settings: {},
      createdAt: '2025-01-01T00:00:00.000Z',
      updatedAt: '2025-01-01T00:00:00.000Z',
      _v: 1,
    });
    render(
      <RealtimeSession userId="user-1" handle={handle} services={services}>
        <Count />
      </RealtimeSession>,
    );
    await vi.waitFor(() => expect(hubs).toHaveLength(1));
    const { options, hub } = hubs[0]!;
    expect(options.userId).toBe('user-1');

    // Every hub token is a fresh notification-connect call, claiming the user.
    expect(await options.getHubToken()).toBe('hub-token');
    await options.joinGroup({
      userId: 'user-1',
      connectionId: 'c1',
      groupType: 'user',
      workspaceId: null,
    });
    expect(
      calls.filter(
        (c) => c.operation !== 'get-notifications' && c.operation !== 'get-unread-count',
      ),
    ).toEqual([
      { operation: 'notification-connect', input: { query: { userId: 'user-1' } } },
      {
        operation: 'join-notification-group',
        input: {
          query: {},
          body: { userId: 'user-1', connectionId: 'c1', groupType: 'user', workspaceId: null },
        },
      },
    ]);

    await vi.waitFor(() => expect(hub.workspaces.at(-1)).toEqual(['ws-1']));

    act(() => {
      options.onNotification?.(notification);
    });
    expect(screen.getByText('unread 1')).toBeTruthy();
    act(() => {
      options.onUnreadCount?.(4);
    });
    expect(screen.getByText('unread 4')).toBeTruthy();

    options.onTablesInvalidated?.({
      workspaceId: 'ws-1',
      tables: ['clients'],
      seq: 9,
      originClientId: null,
    });
    expect(invalidate).toHaveBeenCalledWith({ workspaceId: 'ws-1', seq: 9 });
    options.onReconnected?.();
    expect(reconnect).toHaveBeenCalledTimes(1);

    // Every connect reads the list and count again: pushes before the group join were missed.
    const countReads = () => calls.filter((c) => c.operation === 'get-unread-count').length;
    await new Promise((resolve) => setTimeout(resolve, 0));
    const before = countReads();
    act(() => options.onStateChange?.('connected'));
    await vi.waitFor(() => expect(countReads()).toBe(before + 1));
    db.close();
  });

  it('stops the hub on sign-out and starts a new one for another user', async () => {
    const { services, hubs } = setup();
    const view = render(
      <RealtimeSession userId="user-1" handle={null} services={services}>
        <Count />
      </RealtimeSession>,
    );
    await vi.waitFor(() => expect(hubs).toHaveLength(1));
    view.rerender(
      <RealtimeSession userId="user-2" handle={null} services={services}>
        <Count />
      </RealtimeSession>,
    );
    await vi.waitFor(() => expect(hubs).toHaveLength(2));
    expect(hubs[0]!.stop).toHaveBeenCalled();
    expect(hubs[1]!.options.userId).toBe('user-2');
    view.rerender(
      <RealtimeSession userId={null} handle={null} services={services}>
        <Count />
      </RealtimeSession>,
    );
    await vi.waitFor(() => expect(hubs[1]!.stop).toHaveBeenCalled());
    expect(screen.getByText('unread 0')).toBeTruthy();
  });
});
