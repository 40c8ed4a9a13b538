/**
 * Live updates for the signed-in user: creates their notification store (provided to the screens)
 * and starts the notification hub, stopping both on sign-out or a user switch. Hub pushes go to the
 * store (notifications, unread count) and to the sync engine (tablesInvalidated -> a pull); after a
 * connect or reconnect, when pushes may have been missed, the engine pulls and the store reloads.
 */
import { useEffect, useRef, useState, type ReactNode } from 'react';
import type { CallEndpoint } from '#contract/define-endpoint.ts';
import { joinNotificationGroup, notificationConnect } from '#contract/endpoints/signalr.ts';
import { refreshSubscription } from '../features/billing/workspace-plan.ts';
import {
  createNotificationStore,
  type NotificationStore,
} from '../features/notifications/notification-store.ts';
import { NotificationsProvider } from '../features/notifications/notifications-context.tsx';
import type {
  HubLog,
  NotificationHub,
  NotificationHubOptions,
} from '../realtime/create-notification-hub.ts';
import type { SyncHandle } from '../sync/sync-client.ts';

export interface RealtimeServices {
  callEndpoint: CallEndpoint;
  /** Absolute URL of the notification hub (same origin in the app). */
  hubUrl: string;
  /** Starts the hub; the app loads src/realtime (and SignalR) here, on first sign-in. */
  openHub: (options: NotificationHubOptions) => Promise<NotificationHub>;
  log: HubLog;
  /** The account was deleted on another device: sign out, then drop this device's data. */
  onAccountDeleted?: (userId: string) => void;
}

export interface RealtimeSessionProps {
  userId: string | null;
  /** The user's sync handle once it is open; invalidations before that are moot (it pulls on start). */
  handle: SyncHandle | null;
  services: RealtimeServices | null;
  children: ReactNode;
}

export function RealtimeSession({ userId, handle, services, children }: RealtimeSessionProps) {
  const [session, setSession] = useState<{
    store: NotificationStore;
    hub: NotificationHub | null;
  } | null>(null);
  // Read by hub callbacks, which outlive renders: the handle may open after the hub connects.
  const handleRef = useRef(handle);
  useEffect(() => {
    handleRef.current = handle;
  }, [handle]);

  useEffect(() => {
    if (!userId || !services) return;
    let active = true;
    let hub: NotificationHub | null = null;
    const store = createNotificationStore({
      callEndpoint: services.callEndpoint,
      log: services.log,
    });
    setSession({ store, hub: null });
    void store.load();
    services
      .openHub({
        hubUrl: services.hubUrl,
        userId,
        // Hub tokens last 10 minutes: a fresh one for every connect.
        getHubToken: async () =>
          (await services.callEndpoint(notificationConnect, { query: { userId } })).accessToken,
        joinGroup: async (join) => {
          await services.callEndpoint(joinNotificationGroup, { query: {}, body: join });
        },
        onNotification: (notification) => store.received(notification),
        onUnreadCount: (count) => store.countUpdated(count),
        onTablesInvalidated: ({ workspaceId, seq }) =>
          handleRef.current?.invalidate({ workspaceId, seq }),
        onRowsChanged: (message) => handleRef.current?.applyLiveRows(message),
        onSubscriptionChanged: (workspaceId) =>
          void refreshSubscription(services.callEndpoint, workspaceId),
        onAccountDeleted: (deletedId) => {
          if (deletedId === userId) services.onAccountDeleted?.(deletedId);
        },
        onStateChange: (state) => {
          store.setConnection(state);
          // Pushes reach this tab only once its groups are joined: a notification made between
          // the first load and the join (or while reconnecting) is read now. This also loads a
          // list that could not load while offline.
          if (state === 'connected') void store.load();
        },
        onReconnected: () => handleRef.current?.reconnect(),
        log: services.log,
      })
      .then(
        (opened) => {
          if (!active) {
            void opened.stop();
            return;
          }
          hub = opened;
          setSession((current) => (current?.store === store ? { store, hub: opened } : current));
        },
        (error: unknown) =>
          services.log.warn(
            'Live updates could not start',
            error instanceof Error ? error.message : error,
          ),
      );
    return () => {
      active = false;
      void hub?.stop();
      setSession((current) => (current?.store === store ? null : current));
    };
  }, [userId, services]);

  // The workspace groups follow the user's workspaces as sync knows them (a first pull, a new
  // membership).
  const hub = session?.hub ?? null;
  useEffect(() => {
    if (!hub || !handle) return;
    // Through the handle: a direct live query here would pull Dexie into the entry bundle.
    return handle.observeWorkspaceIds((ids) => hub.setWorkspaces(ids));
  }, [hub, handle]);

  // Always the same element, so the router below never remounts when the session changes.
  return <NotificationsProvider store={session?.store ?? null}>{children}</NotificationsProvider>;
}
