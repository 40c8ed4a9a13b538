/**
 * The signed-in user's notifications (spec section 4): the first page of the list and the unread
 * count, read over the API and kept current by the hub's pushes. Marking and deleting change the
 * screen at once and then ask the server, whose answer (the unread count) wins. Failures are
 * logged (spec section 8); a first load that fails is also shown, so the page can offer a retry.
 * Not synced data: notifications live on the server only, so this is plain memory per session.
 */
import type { CallEndpoint } from '#contract/define-endpoint.ts';
import { NOTIFICATION_PAGE_SIZE, type Notification } from '#contract/entities/notification.ts';
import {
  deleteAllNotifications,
  deleteNotification,
  getNotifications,
  getUnreadCount,
  markAllNotificationsRead,
  markNotificationRead,
} from '#contract/endpoints/notifications.ts';

/** The hub connection as the screens show it (spec section 4's states). */
export type LiveConnectionState = 'disconnected' | 'connecting' | 'connected' | 'reconnecting';

export interface NotificationSnapshot {
  /** The list's loading state; `error` only until a load succeeds. */
  status: 'idle' | 'loading' | 'ready' | 'error';
  /** Newest first. */
  notifications: readonly Notification[];
  unreadCount: number;
  connection: LiveConnectionState;
}

export interface NotificationLog {
  warn(message: string, details?: unknown): void;
}

/** getSnapshot and subscribe are closures, for useSyncExternalStore. */
export interface NotificationStore {
  readonly getSnapshot: () => NotificationSnapshot;
  readonly subscribe: (listener: () => void) => () => void;
  /** Hears each notification that is new to this session (the toast). */
  onArrival(listener: (notification: Notification) => void): () => void;
  /**
   * Reads the list and the count. A call while a load is under way runs one more load after it
   * (whose answer may predate the call, e.g. the hub's group join); further calls share that one.
   */
  load(): Promise<void>;
  /** Hub: notificationReceived. */
  received(notification: Notification): void;
  /** Hub: notificationCountUpdated. */
  countUpdated(unreadCount: number): void;
  setConnection(state: LiveConnectionState): void;
  markRead(id: string): Promise<void>;
  markAllRead(): Promise<void>;
  remove(id: string): Promise<void>;
  removeAll(): Promise<void>;
}

export function createNotificationStore(deps: {
  callEndpoint: CallEndpoint;
  log: NotificationLog;
}): NotificationStore {
  const { callEndpoint, log } = deps;
  let snapshot: NotificationSnapshot = {
    status: 'idle',
    notifications: [],
    unreadCount: 0,
    connection: 'disconnected',
  };
  const listeners = new Set<() => void>();
  const arrivalListeners = new Set<(notification: Notification) => void>();
  let loading: Promise<void> | null = null;
  /** The load queued behind `loading`, shared by every call made while it runs. */
  let queued: Promise<void> | null = null;
  /** Pushed while a load was under way: the load's answer may predate them. */
  const arrivedDuringLoad = new Map<string, Notification>();
  /**
   * A push (notification or count) came while a load was under way: the load's count may predate
   * it, so the pushed count stays on screen and one more load, begun after the push, settles it.
   */
  let pushedDuringLoad = false;

  function update(patch: Partial<NotificationSnapshot>) {
    snapshot = { ...snapshot, ...patch };
    for (const listener of listeners) listener();
  }

  function localUnread(): number {
    return snapshot.notifications.filter((n) => !n.isRead).length;
  }

  async function readAll() {
    const [list, count] = await Promise.all([
      callEndpoint(getNotifications, {
        query: { page: '1', limit: String(NOTIFICATION_PAGE_SIZE) },
      }),
      callEndpoint(getUnreadCount, { query: {} }),
    ]);
    const listed = new Set(list.notifications.map((n) => n.id));
    const missed = [...arrivedDuringLoad.values()].filter((n) => !listed.has(n.id));
    update({
      status: 'ready',
      notifications: [...missed, ...list.notifications],
      unreadCount: pushedDuringLoad ? snapshot.unreadCount : count.unreadCount,
    });
  }

  function load(): Promise<void> {
    if (queued) return queued;
    if (loading) {
      queued = loading.then(() => {
        queued = null;
        return load();
      });
      return queued;
    }
    arrivedDuringLoad.clear();
    pushedDuringLoad = false;
    if (snapshot.status !== 'ready') update({ status: 'loading' });
    loading = readAll()
      .catch((error: unknown) => {
        log.warn('Could not load notifications', describe(error));
        // A list already on screen stays; only a first load shows the failure.
        if (snapshot.status !== 'ready') update({ status: 'error' });
      })
      .finally(() => {
        loading = null;
        if (pushedDuringLoad && !queued) void load();
      });
    return loading;
  }

  /**
   * Another tab (or device) read or deleted something: the pushed count disagrees with the list.
   * When the list holds all the user's notifications it can tell, and reloads quietly.
   */
  function reconcile() {
    if (
      snapshot.status === 'ready' &&
      !loading &&
      snapshot.notifications.length < NOTIFICATION_PAGE_SIZE &&
      localUnread() !== snapshot.unreadCount
    ) {
      void load();
    }
  }

  /** Runs a change on the server; its answer sets the count, a failure is logged and undone. */
  async function change(
    what: string,
    call: () => Promise<{ unreadCount: number }>,
    undo: () => void,
  ) {
    try {
      const { unreadCount } = await call();
      update({ unreadCount });
    } catch (error) {
      log.warn(`Could not ${what}`, describe(error));
      undo();
    }
  }

  return {
    getSnapshot: () => snapshot,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    onArrival(listener) {
      arrivalListeners.add(listener);
      return () => arrivalListeners.delete(listener);
    },
    load,

    received(notification) {
      if (snapshot.notifications.some((n) => n.id === notification.id)) return;
      if (loading) {
        arrivedDuringLoad.set(notification.id, notification);
        pushedDuringLoad = true;
      }
      update({
        notifications: [notification, ...snapshot.notifications],
        unreadCount: snapshot.unreadCount + (notification.isRead ? 0 : 1),
      });
      for (const listener of arrivalListeners) listener(notification);
    },

    countUpdated(unreadCount) {
      if (loading) pushedDuringLoad = true;
      update({ unreadCount });
      reconcile();
    },

    setConnection(connection) {
      if (connection !== snapshot.connection) update({ connection });
    },

    async markRead(id) {
      const target = snapshot.notifications.find((n) => n.id === id);
      if (!target || target.isRead) return;
      const setRead = (isRead: boolean) =>
        snapshot.notifications.map((n) => (n.id === id ? { ...n, isRead } : n));
      update({ notifications: setRead(true), unreadCount: Math.max(0, snapshot.unreadCount - 1) });
      await change(
        'mark the notification read',
        () => callEndpoint(markNotificationRead, { query: { id } }),
        () => void load(),
      );
    },

    async markAllRead() {
      update({
        notifications: snapshot.notifications.map((n) => (n.isRead ? n : { ...n, isRead: true })),
        unreadCount: 0,
      });
      await change(
        'mark all notifications read',
        () => callEndpoint(markAllNotificationsRead, { query: {} }),
        () => void load(),
      );
    },

    async remove(id) {
      const target = snapshot.notifications.find((n) => n.id === id);
      if (!target) return;
      update({
        notifications: snapshot.notifications.filter((n) => n.id !== id),
        unreadCount: Math.max(0, snapshot.unreadCount - (target.isRead ? 0 : 1)),
      });
      await change(
        'delete the notification',
        () => callEndpoint(deleteNotification, { query: { id } }),
        () => void load(),
      );
    },

    async removeAll() {
      update({ notifications: [], unreadCount: 0 });
      await change(
        'delete all notifications',
        () => callEndpoint(deleteAllNotifications, { query: {} }),
        () => void load(),
      );
    },
  };
}

function describe(error: unknown): unknown {
  return error instanceof Error ? error.message : error;
}
