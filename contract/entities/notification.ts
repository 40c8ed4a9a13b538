import * as v from 'valibot';
import { text } from '../text.ts';

/**
 * Kinds of notification the server creates (issue 5). The wire `type` stays a plain string so an
 * app cached before a new kind shipped still loads the list; it simply shows the new kind plainly.
 */
export const notificationTypes = [
  'test',
  'task-assigned',
  'mentioned',
  'change-request-submitted',
  'change-request-decided',
  'milestone-signed-off',
  'portal-opened',
  'payment-recorded',
  'chat-message',
  'member-joined',
] as const;
export type NotificationType = (typeof notificationTypes)[number];

/** Who caused the notification, as they are named now (joined at read time), or null (system). */
export const notificationActorSchema = v.object({
  id: text(),
  firstName: text(),
  lastName: text(),
  profilePictureUrl: v.nullable(text()),
});
export type NotificationActor = v.InferOutput<typeof notificationActorSchema>;

/** Spec section 3 names id and isRead; the rest follows issue 5. `link` is an app path. */
export const notificationSchema = v.object({
  id: text(),
  type: text(),
  title: text(),
  body: text(),
  link: v.nullable(text()),
  isRead: v.boolean(),
  createdAt: text(),
  actor: v.nullable(notificationActorSchema),
  workspaceId: v.nullable(text()),
  projectId: v.nullable(text()),
});
export type Notification = v.InferOutput<typeof notificationSchema>;

export const unreadCountSchema = v.pipe(v.number(), v.integer(), v.minValue(0));

/** Spec section 9: the list is read in pages of 50, page 1 first. */
export const NOTIFICATION_PAGE_SIZE = 50;
export const MAX_NOTIFICATION_PAGE_SIZE = 100;
