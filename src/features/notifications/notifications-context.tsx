/**
 * The signed-in user's notification store for the screens. The composition root (src/app) creates
 * one per user and provides it; screens read it from here, so tests can provide their own.
 */
import { createContext, use, useSyncExternalStore, type ReactNode } from 'react';
import type { NotificationSnapshot, NotificationStore } from './notification-store.ts';

const NotificationsContext = createContext<NotificationStore | null>(null);

export function NotificationsProvider({
  store,
  children,
}: {
  /** Null while nobody is signed in: the bell shows no count, the page a loading state. */
  store: NotificationStore | null;
  children: ReactNode;
}) {
  return <NotificationsContext value={store}>{children}</NotificationsContext>;
}

export function useNotificationStore(): NotificationStore | null {
  return use(NotificationsContext);
}

const noSnapshot: NotificationSnapshot = {
  status: 'idle',
  notifications: [],
  unreadCount: 0,
  connection: 'disconnected',
};
const noSubscription = () => () => {};

/** The store's current state, re-rendering on change; an idle empty state without a store. */
export function useNotifications(): NotificationSnapshot {
  const store = useNotificationStore();
  return useSyncExternalStore(
    store?.subscribe ?? noSubscription,
    store?.getSnapshot ?? (() => noSnapshot),
    store?.getSnapshot ?? (() => noSnapshot),
  );
}
