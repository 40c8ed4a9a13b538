/**
 * The real-time hub as the app sees it: where it lives, the events it pushes with their payload
 * schemas, and the client timings of spec section 9. The wire protocol itself (ASP.NET Core
 * SignalR, JSON hub protocol) is spoken by `@microsoft/signalr` in the app and server/realtime.
 */
import * as v from 'valibot';
import { text } from './text.ts';
import { notificationSchema, unreadCountSchema } from './entities/notification.ts';

/** Path of the notification hub on the server's origin. */
export const NOTIFICATION_HUB_PATH = '/hubs/notifications';

/** Server-to-client hub events (SignalR invocation targets; the client matches them case-insensitively). */
export const hubEvents = {
  notificationReceived: 'notificationReceived',
  notificationCountUpdated: 'notificationCountUpdated',
  tablesInvalidated: 'tablesInvalidated',
  rowsChanged: 'rowsChanged',
  subscriptionChanged: 'subscriptionChanged',
  accountDeleted: 'accountDeleted',
} as const;
export type HubEventName = (typeof hubEvents)[keyof typeof hubEvents];

/** A new notification for you; raise the unread count if it is unread and its id is new. */
export const notificationReceivedSchema = v.object({ notification: notificationSchema });

/** Your unread count after any change to your notifications: set it. */
export const notificationCountUpdatedSchema = v.object({ unreadCount: unreadCountSchema });

/**
 * Something in a workspace changed: pull once (debounced) unless `seq` is not beyond your cursor.
 * `tables` names the app's synced tables; unknown names are to be ignored, not rejected.
 * `originClientId` is the device that made the change (null when none did).
 */
export const tablesInvalidatedSchema = v.object({
  workspaceId: text(),
  tables: v.array(text()),
  seq: v.pipe(v.number(), v.integer(), v.minValue(0)),
  originClientId: v.nullable(text()),
});

/**
 * Rows of a live entity (chat messages) as they committed: store each at once unless the device
 * already has that version or a newer one. Rows are the synced table's contract rows, checked by
 * the app against that table's row schema; a table this build does not know is ignored. Pulls
 * still bring the same rows (this saves the wait, it is not the record).
 */
export const rowsChangedSchema = v.object({
  workspaceId: text(),
  table: text(),
  rows: v.array(v.looseObject({ id: text(), version: v.number() })),
});

/**
 * The workspace's plan or subscription changed (Stripe's webhook stored a new state): read it
 * again with get-subscription, whose answer depends on the reader's role, so it is not sent here.
 */
export const subscriptionChangedSchema = v.object({ workspaceId: text() });

/**
 * Your account was deleted (on another device): sign out here and delete this device's copy of
 * its data. Sent to the user's group before their sessions end and their connections close.
 */
export const accountDeletedSchema = v.object({ userId: text() });

/** Each event's single argument. */
export const hubEventSchemas = {
  notificationReceived: notificationReceivedSchema,
  notificationCountUpdated: notificationCountUpdatedSchema,
  tablesInvalidated: tablesInvalidatedSchema,
  rowsChanged: rowsChangedSchema,
  subscriptionChanged: subscriptionChangedSchema,
  accountDeleted: accountDeletedSchema,
} as const satisfies Record<HubEventName, v.GenericSchema>;

export type HubEventPayload<E extends HubEventName> = v.InferOutput<(typeof hubEventSchemas)[E]>;

/** Groups a connection joins through join-notification-group. */
export const notificationGroupTypes = ['user', 'workspace'] as const;
export type NotificationGroupType = (typeof notificationGroupTypes)[number];

/** Client-side timings, spec sections 4 and 9. The server pings at least every 15 s. */
export const realtimeClientTimings = {
  connectionTimeoutMs: 10_000,
  serverTimeoutMs: 30_000,
  keepAliveIntervalMs: 15_000,
  /** Automatic reconnect delays after a drop, then give up (spec: 0, 2, 10, 30 s). */
  reconnectDelaysMs: [0, 2_000, 10_000, 30_000],
  /** A failed connect (connection info or start) is retried this many times, 5 s x attempt apart. */
  connectRetries: 5,
  connectRetryDelayMs: 5_000,
} as const;
