import { AppError, ErrorCode } from '../http/app-error.ts';
import type { ResourceHandlers } from '../http/endpoint-handler.ts';
import type { NotificationStore } from '../realtime/notification-store.ts';

// Another user's notification id gets the same answer as one that does not exist.
const NOT_FOUND = 'You have no notification with this id.';

export function createNotificationHandlers(deps: {
  notifications: NotificationStore;
}): ResourceHandlers<'notifications'> {
  const store = deps.notifications;
  return {
    'notifications/get-notifications': async ({ query, identity, tx }) => ({
      notifications: await store.list(tx, identity.userId, query),
    }),

    'notifications/get-unread-count': async ({ identity, tx }) => ({
      unreadCount: await store.unreadCount(tx, identity.userId),
    }),

    'notifications/mark-read': async (ctx) => {
      const unreadCount = await store.markRead(ctx, ctx.identity.userId, ctx.query.id);
      if (unreadCount === null) throw new AppError(ErrorCode.NOT_FOUND, NOT_FOUND);
      return { unreadCount };
    },

    'notifications/mark-all-read': async (ctx) => ({
      unreadCount: await store.markAllRead(ctx, ctx.identity.userId),
    }),

    'notifications/delete-notification': async (ctx) => {
      const unreadCount = await store.remove(ctx, ctx.identity.userId, ctx.query.id);
      if (unreadCount === null) throw new AppError(ErrorCode.NOT_FOUND, NOT_FOUND);
      return { unreadCount };
    },

    'notifications/delete-all-notifications': async (ctx) => ({
      unreadCount: await store.removeAll(ctx, ctx.identity.userId),
    }),

    'notifications/send-test-notification': async (ctx) => ({
      notification: await store.createNotification(ctx, {
        userId: ctx.identity.userId,
        type: 'test',
        title: 'Test notification',
        body: 'Notifications reach you: this one was sent from your settings.',
        link: '/notifications',
      }),
    }),
  };
}
