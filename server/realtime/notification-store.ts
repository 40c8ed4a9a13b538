/**
 * Stored notifications and the pushes that follow every change to them. Later features create
 * notifications through `createNotification` inside their own transaction; the hub hears about it
 * only after that transaction commits.
 *
 * Ordering: every change takes a per-user transaction lock first, so changes to one user's
 * notifications commit one after another and the unread count read at the end of each is exact;
 * the pushes then leave in commit order (each after-commit effect starts right after its commit).
 * Reads take no lock.
 */
import { v7 as uuidv7 } from 'uuid';
import * as v from 'valibot';
import { idSchema } from '#contract/entities/ids.ts';
import {
  notificationTypes,
  type Notification,
  type NotificationType,
} from '#contract/entities/notification.ts';
import type { Queryable } from '../db/database.ts';
import type { RealtimePublisher } from './realtime-publisher.ts';

/** The transaction a change runs in and its after-commit hook (a HandlerContext fits). */
export interface NotificationScope {
  tx: Queryable;
  afterCommit: (effect: () => Promise<void>) => void;
}

export const newNotificationSchema = v.object({
  userId: idSchema,
  type: v.picklist(notificationTypes),
  title: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(200)),
  body: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(2000)), ''),
  /** An app path such as `/projects/<id>`; never an absolute or protocol-relative URL. */
  link: v.nullish(
    v.pipe(
      v.string(),
      v.maxLength(2048),
      v.check((link) => link.startsWith('/') && !link.startsWith('//'), 'Must be an app path'),
    ),
  ),
  actorId: v.nullish(idSchema),
  workspaceId: v.nullish(idSchema),
  projectId: v.nullish(idSchema),
});
export type NewNotification = v.InferInput<typeof newNotificationSchema> & {
  type: NotificationType;
};

export interface NotificationStore {
  /** Stores a notification; after commit pushes notificationReceived and the new unread count. */
  createNotification(scope: NotificationScope, input: NewNotification): Promise<Notification>;
  list(
    tx: Queryable,
    userId: string,
    page: { page: number; limit: number },
  ): Promise<Notification[]>;
  unreadCount(tx: Queryable, userId: string): Promise<number>;
  /** null: the user has no notification with that id. */
  markRead(scope: NotificationScope, userId: string, id: string): Promise<number | null>;
  markAllRead(scope: NotificationScope, userId: string): Promise<number>;
  remove(scope: NotificationScope, userId: string, id: string): Promise<number | null>;
  removeAll(scope: NotificationScope, userId: string): Promise<number>;
}

interface NotificationRow {
  id: string;
  type: string;
  title: string;
  body: string;
  link: string | null;
  is_read: boolean;
  created_at: Date;
  workspace_id: string | null;
  project_id: string | null;
  actor_id: string | null;
  actor_first_name: string | null;
  actor_last_name: string | null;
  actor_picture: string | null;
}

const ACTOR_COLUMNS =
  'p.first_name AS actor_first_name, p.last_name AS actor_last_name, p.profile_picture_url AS actor_picture';

function toNotification(row: NotificationRow): Notification {
  return {
    id: row.id,
    type: row.type,
    title: row.title,
    body: row.body,
    link: row.link,
    isRead: row.is_read,
    createdAt: row.created_at.toISOString(),
    // An actor whose profile is gone (ON DELETE SET NULL) shows as no actor.
    actor:
      row.actor_id === null || row.actor_first_name === null
        ? null
        : {
            id: row.actor_id,
            firstName: row.actor_first_name,
            lastName: row.actor_last_name ?? '',
            profilePictureUrl: row.actor_picture,
          },
    workspaceId: row.workspace_id,
    projectId: row.project_id,
  };
}

export function createNotificationStore(deps: { publisher: RealtimePublisher }): NotificationStore {
  const { publisher } = deps;

  /** Serialises this user's notification changes until the transaction ends. */
  async function lockUser(tx: Queryable, userId: string): Promise<void> {
    await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [
      `notification:${userId}`,
    ]);
  }

  async function unreadCount(tx: Queryable, userId: string): Promise<number> {
    const { rows } = await tx.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM notification WHERE user_id = $1 AND NOT is_read',
      [userId],
    );
    return rows[0]?.n ?? 0;
  }

  /** Reads the count inside the change's transaction and pushes it once that commits. */
  async function countAfterChange(scope: NotificationScope, userId: string): Promise<number> {
    const count = await unreadCount(scope.tx, userId);
    scope.afterCommit(() => publisher.notificationCountUpdated(userId, count));
    return count;
  }

  return {
    async createNotification(scope, input) {
      const values = v.parse(newNotificationSchema, input);
      await lockUser(scope.tx, values.userId);
      const { rows } = await scope.tx.query<NotificationRow>(
        `WITH inserted AS (
           INSERT INTO notification
             (id, user_id, type, title, body, link, actor_id, workspace_id, project_id)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
           RETURNING *
         )
         SELECT i.*, ${ACTOR_COLUMNS} FROM inserted i LEFT JOIN user_profile p ON p.id = i.actor_id`,
        [
          uuidv7(),
          values.userId,
          values.type,
          values.title,
          values.body,
          values.link ?? null,
          values.actorId ?? null,
          values.workspaceId ?? null,
          values.projectId ?? null,
        ],
      );
      const notification = toNotification(rows[0] as NotificationRow);
      const count = await unreadCount(scope.tx, values.userId);
      // One effect, so the notification always arrives before the count that includes it.
      scope.afterCommit(async () => {
        await publisher.notificationReceived(values.userId, notification);
        await publisher.notificationCountUpdated(values.userId, count);
      });
      return notification;
    },

    async list(tx, userId, { page, limit }) {
      const { rows } = await tx.query<NotificationRow>(
        `SELECT n.*, ${ACTOR_COLUMNS}
         FROM notification n LEFT JOIN user_profile p ON p.id = n.actor_id
         WHERE n.user_id = $1
         ORDER BY n.created_at DESC, n.id DESC
         LIMIT $2 OFFSET $3`,
        [userId, limit, (page - 1) * limit],
      );
      return rows.map(toNotification);
    },

    unreadCount,

    async markRead(scope, userId, id) {
      await lockUser(scope.tx, userId);
      const { rows } = await scope.tx.query<{ is_read: boolean }>(
        'SELECT is_read FROM notification WHERE id = $1 AND user_id = $2',
        [id, userId],
      );
      const found = rows[0];
      if (!found) return null;
      if (found.is_read) return unreadCount(scope.tx, userId);
      await scope.tx.query('UPDATE notification SET is_read = true WHERE id = $1', [id]);
      return countAfterChange(scope, userId);
    },

    async markAllRead(scope, userId) {
      await lockUser(scope.tx, userId);
      const { rowCount } = await scope.tx.query(
        'UPDATE notification SET is_read = true WHERE user_id = $1 AND NOT is_read',
        [userId],
      );
      return rowCount > 0 ? countAfterChange(scope, userId) : 0;
    },

    async remove(scope, userId, id) {
      await lockUser(scope.tx, userId);
      const { rowCount } = await scope.tx.query(
        'DELETE FROM notification WHERE id = $1 AND user_id = $2',
        [id, userId],
      );
      if (rowCount === 0) return null;
      return countAfterChange(scope, userId);
    },

    async removeAll(scope, userId) {
      await lockUser(scope.tx, userId);
      const { rowCount } = await scope.tx.query('DELETE FROM notification WHERE user_id = $1', [
        userId,
      ]);
      return rowCount > 0 ? countAfterChange(scope, userId) : 0;
    },
  };
}
