/**
 * Chat rules beside the derived CRUD (contract/entities/chat.ts; synced-entity-handlers.ts):
 * - a message's mentions are members of its workspace, its reply is a message of the same
 *   project, its attachments are files of that project (each a 422 naming the entry);
 * - only the author edits or deletes a message (403), a deleted one stays deleted, and a changed
 *   text is stamped `editedAt`; `{deleted: true}` clears the text and mentions in the same write;
 * - a mentioned member is notified once, after commit (on create, and when an edit adds them);
 * - a reaction is one per member, message and emoji, on a message of the project it names, and
 *   only its member removes it;
 * - a read marker's id is the member's own (`chatReadId`) and its position only moves forward.
 * Membership and the parent checks are the derived handler's.
 */
import { chatReadId } from '#contract/entities/chat.ts';
import type { Queryable } from '../db/database.ts';
import { AppError, ErrorCode } from '../http/app-error.ts';
import type { NotificationStore } from '../realtime/notification-store.ts';
import type { EntityHooks } from './entity-handlers.ts';

type Row = Record<string, unknown>;
type Notifications = Pick<NotificationStore, 'createNotification'>;

const NOT_YOURS = 'You can edit and delete only your own messages.';
const MENTION_PREVIEW_CHARS = 140;

function businessRule(message: string, path: string, detail: string): AppError {
  return new AppError(ErrorCode.BUSINESS_RULE, message, {
    details: [{ path, message: detail }],
  });
}

async function requireMembers(tx: Queryable, workspaceId: string, ids: readonly string[]) {
  if (ids.length === 0) return;
  const { rows } = await tx.query<{ user_id: string }>(
    'SELECT user_id FROM workspace_member WHERE workspace_id = $1 AND user_id = ANY($2::uuid[])',
    [workspaceId, ids],
  );
  const members = new Set(rows.map((row) => row.user_id));
  const index = ids.findIndex((id) => !members.has(id));
  if (index >= 0) {
    throw businessRule(
      'Only members of this workspace can be mentioned.',
      `body.mentions.${index}`,
      'Not a member of this workspace',
    );
  }
}

async function requireReply(tx: Queryable, replyToId: string, projectId: string) {
  const { rowCount } = await tx.query(
    'SELECT 1 FROM chat_message WHERE id = $1 AND project_id = $2',
    [replyToId, projectId],
  );
  if (rowCount === 0) {
    throw businessRule(
      'The message this replies to is not in this project.',
      'body.replyToId',
      'Unknown message in this project',
    );
  }
}

async function requireProjectFiles(tx: Queryable, ids: readonly string[], projectId: string) {
  if (ids.length === 0) return;
  const { rows } = await tx.query<{ id: string }>(
    'SELECT id FROM project_file WHERE id = ANY($1::uuid[]) AND project_id = $2',
    [ids, projectId],
  );
  const found = new Set(rows.map((row) => row.id));
  const index = ids.findIndex((id) => !found.has(id));
  if (index >= 0) {
    throw businessRule(
      'Attach files of this project only.',
      `body.attachmentFileIds.${index}`,
      'Unknown file in this project',
    );
  }
}

const unique = (ids: unknown): string[] =>
  Array.isArray(ids) ? [...new Set(ids.filter((id): id is string => typeof id === 'string'))] : [];

/** Tells each newly mentioned member (never the author) once the message is committed. */
async function notifyMentioned(
  tx: Queryable,
  notifications: Notifications | null,
  afterCommit: (effect: () => Promise<void>) => void,
  message: { workspaceId: string; projectId: string; text: string; authorId: string },
  userIds: readonly string[],
) {
  const recipients = userIds.filter((id) => id !== message.authorId);
  if (!notifications || recipients.length === 0) return;
  const { rows } = await tx.query<{ name: string; client_id: string; author: string | null }>(
    `SELECT p.name, p.client_id,
            NULLIF(trim(concat_ws(' ', u.first_name, u.last_name)), '') AS author
       FROM project p LEFT JOIN user_profile u ON u.id = $2
      WHERE p.id = $1`,
    [message.projectId, message.authorId],
  );
  const project = rows[0];
  if (!project) return;
  const preview =
    message.text.length > MENTION_PREVIEW_CHARS
      ? `${message.text.slice(0, MENTION_PREVIEW_CHARS)}…`
      : message.text;
  for (const userId of recipients) {
    // In the same transaction as the message: a mention is never notified for a message that
    // did not commit (the store pushes it to the hub after commit).
    await notifications.createNotification(
      { tx, afterCommit },
      {
        userId,
        type: 'mentioned',
        title: `${project.author ?? 'A member'} mentioned you in ${project.name}`,
        body: preview,
        link: `/projects/${message.projectId}/${project.client_id}?tab=chat`,
        actorId: message.authorId,
        workspaceId: message.workspaceId,
        projectId: message.projectId,
      },
    );
  }
}

export function createChatMessageHooks(notifications: Notifications | null): EntityHooks {
  return {
    async beforeCreate({ tx, body, identity, afterCommit }) {
      const workspaceId = String(body.workspaceId);
      const projectId = String(body.projectId);
      body.mentions = unique(body.mentions);
      body.attachmentFileIds = unique(body.attachmentFileIds);
      await requireMembers(tx, workspaceId, body.mentions as string[]);
      if (typeof body.replyToId === 'string') await requireReply(tx, body.replyToId, projectId);
      await requireProjectFiles(tx, body.attachmentFileIds as string[], projectId);
      await notifyMentioned(
        tx,
        notifications,
        afterCommit,
        { workspaceId, projectId, text: String(body.text), authorId: identity.userId },
        body.mentions as string[],
      );
    },
    async beforeUpdate({ tx, current, patch, identity, afterCommit }) {
      if (current.createdBy !== identity.userId || current.authorKind !== 'member') {
        throw new AppError(ErrorCode.FORBIDDEN, NOT_YOURS);
      }
      if (current.deleted === true) {
        throw businessRule('This message was deleted.', 'body', 'A deleted message cannot change');
      }
      if (patch.deleted === true) return { deleted: true, text: '', mentions: [] };
      const next: Row = { ...patch };
      if ('mentions' in next) {
        next.mentions = unique(next.mentions);
        await requireMembers(tx, String(current.workspaceId), next.mentions as string[]);
        const before = new Set(unique(current.mentions));
        await notifyMentioned(
          tx,
          notifications,
          afterCommit,
          {
            workspaceId: String(current.workspaceId),
            projectId: String(current.projectId),
            text: String(next.text ?? current.text),
            authorId: identity.userId,
          },
          (next.mentions as string[]).filter((id) => !before.has(id)),
        );
      }
      if (typeof next.text === 'string' && next.text !== current.text) {
        next.editedAt = new Date().toISOString();
      }
      return next;
    },
    beforeDelete({ current, identity }) {
      if (current.createdBy !== identity.userId || current.authorKind !== 'member') {
        return Promise.reject(new AppError(ErrorCode.FORBIDDEN, NOT_YOURS));
      }
      return Promise.resolve();
    },
  };
}

export const chatReactionHooks: EntityHooks = {
  async beforeCreate({ tx, body, identity }) {
    const { rows } = await tx.query<{ project_id: string; deleted: boolean }>(
      'SELECT project_id, deleted FROM chat_message WHERE id = $1',
      [body.messageId],
    );
    const message = rows[0];
    if (!message || message.project_id !== body.projectId) {
      throw businessRule(
        'The message is not in this project.',
        'body.projectId',
        "Not the message's project",
      );
    }
    if (message.deleted) {
      throw businessRule('This message was deleted.', 'body.messageId', 'A deleted message');
    }
    const { rowCount } = await tx.query(
      'SELECT 1 FROM chat_reaction WHERE message_id = $1 AND created_by = $2 AND emoji = $3',
      [body.messageId, identity.userId, body.emoji],
    );
    if (rowCount > 0) {
      throw new AppError(ErrorCode.CONFLICT, `You already reacted with ${String(body.emoji)}.`);
    }
  },
  beforeDelete({ current, identity }) {
    if (current.createdBy === identity.userId) return Promise.resolve();
    return Promise.reject(
      new AppError(ErrorCode.FORBIDDEN, 'You can remove only your own reactions.'),
    );
  },
};

export const chatReadHooks: EntityHooks = {
  async beforeCreate({ tx, body, identity, seq }) {
    if (body.id !== chatReadId(String(body.projectId), identity.userId)) {
      throw businessRule(
        "A read marker's id is derived from the project and its member.",
        'body.id',
        'Use chatReadId(projectId, your user id)',
      );
    }
    // Two devices of the member each start the marker (both offline, say): the second create
    // moves the first one's marker forward instead of failing as a taken id.
    const { rows } = await tx.query<Row>(
      `UPDATE chat_read SET last_read_seq = GREATEST(last_read_seq, $2::bigint), updated_at = now(),
              updated_by = $3, version = $4
        WHERE id = $1 AND created_by = $3
        RETURNING id, workspace_id, project_id, last_read_seq, created_at, created_by,
                  updated_at, updated_by, version`,
      [body.id, body.lastReadSeq, identity.userId, seq],
    );
    return rows[0];
  },
  beforeUpdate({ current, patch, identity }) {
    if (current.createdBy !== identity.userId) {
      return Promise.reject(
        new AppError(ErrorCode.FORBIDDEN, 'A read marker is changed only by its member.'),
      );
    }
    // Forward only: a device that read less (offline, behind) never moves it back.
    const lastReadSeq = Math.max(Number(current.lastReadSeq), Number(patch.lastReadSeq ?? 0));
    return Promise.resolve({ ...patch, lastReadSeq });
  },
  beforeDelete({ current, identity }) {
    if (current.createdBy === identity.userId) return Promise.resolve();
    return Promise.reject(
      new AppError(ErrorCode.FORBIDDEN, 'A read marker is changed only by its member.'),
    );
  },
};
