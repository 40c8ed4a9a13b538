import * as v from 'valibot';
import { text } from '../text.ts';
import { defineEndpoint, emptyQuerySchema } from '../define-endpoint.ts';
import { idSchema } from '../entities/ids.ts';
import {
  MAX_NOTIFICATION_PAGE_SIZE,
  NOTIFICATION_PAGE_SIZE,
  notificationSchema,
  unreadCountSchema,
} from '../entities/notification.ts';

/** A whole number from the query string, within [1, max]. */
const positiveIntQuery = (label: string, max: number) =>
  v.pipe(
    text(`${label} must be a number`),
    v.regex(/^\d{1,9}$/, `${label} must be a whole number`),
    v.transform(Number),
    v.minValue(1, `${label} must be at least 1`),
    v.maxValue(max, `${label} must be at most ${max}`),
  );

const idQuery = v.strictObject({ id: idSchema });
/** Every change answers with the caller's unread count afterwards (the hub pushes it too). */
const unreadCountOutput = v.object({ unreadCount: unreadCountSchema });

export const getNotifications = defineEndpoint({
  resource: 'notifications',
  operation: 'get-notifications',
  method: 'GET',
  auth: 'user',
  summary: 'Your notifications, newest first, one page at a time (spec: page=1, limit=50).',
  query: v.strictObject({
    page: v.optional(positiveIntQuery('page', 100_000), '1'),
    limit: v.optional(
      positiveIntQuery('limit', MAX_NOTIFICATION_PAGE_SIZE),
      String(NOTIFICATION_PAGE_SIZE),
    ),
  }),
  output: v.object({ notifications: v.array(notificationSchema) }),
});

export const getUnreadCount = defineEndpoint({
  resource: 'notifications',
  operation: 'get-unread-count',
  method: 'GET',
  auth: 'user',
  summary: 'How many of your notifications are unread.',
  query: emptyQuerySchema,
  output: unreadCountOutput,
});

export const markNotificationRead = defineEndpoint({
  resource: 'notifications',
  operation: 'mark-read',
  method: 'PUT',
  auth: 'user',
  summary: 'Mark one of your notifications read; another user’s id is a 404.',
  query: idQuery,
  output: unreadCountOutput,
});

export const markAllNotificationsRead = defineEndpoint({
  resource: 'notifications',
  operation: 'mark-all-read',
  method: 'PUT',
  auth: 'user',
  summary: 'Mark all your notifications read.',
  query: emptyQuerySchema,
  output: unreadCountOutput,
});

export const deleteNotification = defineEndpoint({
  resource: 'notifications',
  operation: 'delete-notification',
  method: 'DELETE',
  auth: 'user',
  summary: 'Delete one of your notifications; another user’s id is a 404.',
  query: idQuery,
  output: unreadCountOutput,
});

export const deleteAllNotifications = defineEndpoint({
  resource: 'notifications',
  operation: 'delete-all-notifications',
  method: 'DELETE',
  auth: 'user',
  summary: 'Delete all your notifications.',
  query: emptyQuerySchema,
  output: unreadCountOutput,
});

export const sendTestNotification = defineEndpoint({
  resource: 'notifications',
  operation: 'send-test-notification',
  method: 'POST',
  auth: 'user',
  summary: 'Create a notification for yourself, to check that delivery works (settings).',
  query: emptyQuerySchema,
  output: v.object({ notification: notificationSchema }),
  status: 201,
});
