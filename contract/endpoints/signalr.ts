import * as v from 'valibot';
import { text } from '../text.ts';
import { defineEndpoint, emptyQuerySchema } from '../define-endpoint.ts';
import { idSchema } from '../entities/ids.ts';
import { notificationGroupTypes } from '../realtime.ts';

/**
 * Spec section 7 sends who-and-where as headers (`x-user-id`, `x-workspace-id`) on
 * `POST /api/signalr/notification-connect`; the server folds them into these query keys, so the
 * contract's callers may use either. Both are claims to check, never the identity: the bearer
 * token is. Absent means "not claimed".
 */
export const notificationConnect = defineEndpoint({
  resource: 'signalr',
  operation: 'notification-connect',
  method: 'POST',
  auth: 'user',
  summary:
    'Connection info for the notification hub: its URL and a short-lived hub access token for you.',
  query: v.strictObject({
    userId: v.optional(idSchema),
    workspaceId: v.optional(idSchema),
  }),
  output: v.object({ url: text(), accessToken: text() }),
});

/** An optional workspace id; the original client sends '' or null when there is no workspace. */
const optionalWorkspaceId = v.nullish(
  v.union(
    [
      v.pipe(
        v.literal(''),
        v.transform(() => null),
      ),
      idSchema,
    ],
    'workspaceId must be a valid id, or empty when there is no workspace',
  ),
);

export const joinNotificationGroup = defineEndpoint({
  resource: 'signalr',
  operation: 'join-notification-group',
  method: 'POST',
  auth: 'user',
  summary:
    'Add your own live hub connection to your user group or to a workspace group you belong to; the membership ends with the connection.',
  query: emptyQuerySchema,
  body: v.strictObject({
    userId: idSchema,
    workspaceId: optionalWorkspaceId,
    connectionId: v.pipe(text(), v.minLength(1), v.maxLength(128)),
    groupType: v.picklist(notificationGroupTypes, 'groupType must be user or workspace'),
  }),
  output: v.object({ ok: v.literal(true) }),
});
