import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CallEndpoint, EndpointDefinition } from '#contract/define-endpoint.ts';
import type { Notification } from '#contract/entities/notification.ts';
import { createNotificationStore } from './notification-store.ts';
import { NotificationsProvider } from './notifications-context.tsx';
import { NotificationsScreen } from './notifications-screen.tsx';

afterEach(cleanup);

const item = (id: string, isRead: boolean): Notification => ({
  id,
  type: 'test',
  title: `Title ${id}`,
  body: `Body ${id}`,
  link: null,
  isRead,
  createdAt: new Date().toISOString(),
  actor: { id: 'u2', firstName: 'Grace', lastName: 'Hopper', profilePictureUrl: null },
  workspaceId: null,
  projectId: null,
});

function renderScreen(handlers: Record<string, () => unknown>) {
  const calls: string[] = [];
  const callEndpoint = ((endpoint: EndpointDefinition) => {
    calls.push(endpoint.operation);
    const handler = handlers[endpoint.operation];
    try {
      return handler
        ? Promise.resolve(handler())
        : Promise.reject(new Error(`no ${endpoint.operation}`));
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }) as CallEndpoint;
  const store = createNotificationStore({ callEndpoint, log: { warn: vi.fn() } });
  render(
    <NotificationsProvider store={store}>
      <NotificationsScreen />
    </NotificationsProvider>,
  );
  return { store, calls };
}

describe('NotificationsScreen', () => {
  it('shows loading, then the list grouped by day with unread ones marked', async () => {
    renderScreen({
      'get-notifications': () => ({ notifications: [item('a', false), item('b', true)] }),
      'get-unread-count': () => ({ unreadCount: 1 }),
    });
    expect(screen.getByText('Loading notifications…')).toBeTruthy();
    const today = await screen.findByRole('region', { name: 'Today' });
    const rows = within(today).getAllByRole('listitem');
    expect(rows).toHaveLength(2);
    expect(rows[0]?.getAttribute('data-unread')).toBe('true');
    expect(rows[0]?.textContent).toContain('Unread: Title a');
    expect(rows[0]?.textContent).toContain('Grace Hopper');
    expect(rows[1]?.getAttribute('data-unread')).toBeNull();
    expect(screen.getByText('1 unread')).toBeTruthy();
  });

  it('shows the empty state', async () => {
    renderScreen({
      'get-notifications': () => ({ notifications: [] }),
      'get-unread-count': () => ({ unreadCount: 0 }),
    });
    expect(await screen.findByText('You’re all caught up')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Mark all as read' }).hasAttribute('disabled')).toBe(
      true,
    );
  });

  it('shows an error with a retry that loads again', async () => {
    let fail = true;
    renderScreen({
      'get-notifications': () => {
        if (fail) throw new Error('offline');
        return { notifications: [item('a', false)] };
      },
      'get-unread-count': () => ({ unreadCount: 1 }),
    });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('could not be loaded');
    fail = false;
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Title a')).toBeTruthy();
  });

  it('marks one read and all read, and updates live when a notification is pushed', async () => {
    const { store, calls } = renderScreen({
      'get-notifications': () => ({ notifications: [item('a', false), item('b', false)] }),
      'get-unread-count': () => ({ unreadCount: 2 }),
      'mark-read': () => ({ unreadCount: 1 }),
      'mark-all-read': () => ({ unreadCount: 0 }),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Mark “Title a” as read' }));
    expect(await screen.findByText('1 unread')).toBeTruthy();
    expect(calls).toContain('mark-read');

    act(() => store.received(item('c', false)));
    expect(screen.getByText('Title c')).toBeTruthy();
    expect(screen.getByText('2 unread')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Mark all as read' }));
    expect(await screen.findByText('No unread notifications')).toBeTruthy();
    expect(document.querySelectorAll('li[data-unread]')).toHaveLength(0);
  });

  it('keeps focus on the notifications as they are read and deleted, then on the heading', async () => {
    renderScreen({
      'get-notifications': () => ({ notifications: [item('a', false), item('b', true)] }),
      'get-unread-count': () => ({ unreadCount: 1 }),
      'mark-read': () => ({ unreadCount: 0 }),
      'delete-notification': () => ({ unreadCount: 0 }),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Mark “Title a” as read' }));
    // The check mark is gone: focus is on the same notification's Delete.
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Delete “Title a”' })),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Delete “Title a”' }));
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Delete “Title b”' })),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Delete “Title b”' }));
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('heading', { level: 1 })),
    );
  });

  it('says so, unobtrusively, when live updates are not connected', async () => {
    const { store } = renderScreen({
      'get-notifications': () => ({ notifications: [] }),
      'get-unread-count': () => ({ unreadCount: 0 }),
    });
    await screen.findByText('You’re all caught up');
    act(() => store.setConnection('reconnecting'));
    expect(screen.getByText(/Reconnecting…/)).toBeTruthy();
    act(() => store.setConnection('connected'));
    expect(screen.queryByText(/Reconnecting…/)).toBeNull();
  });
});
