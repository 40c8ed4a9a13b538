/**
 * The client's part in a project's chat (contract/endpoints/portal-chat.ts). Off until a member
 * turns it on (project_portal.chat_enabled): off, reading answers `enabled: false` and writing is
 * a 403, so a switched-off chat shows nothing and stores nothing.
 *
 * A client's message is a chat_message row like a member's, written with the session's project,
 * workspace and client (never ids from the body but the message's own), `author_kind` 'client'
 * and the client's name; its change is recorded like a member's write, so every device pulls it,
 * the workspace's open apps get the row live after commit, and each member is notified. The
 * client reads members by name only: no user ids, mentions or attachments leave the workspace.
 */
import type { PortalChatMessage } from '#contract/endpoints/portal-chat.ts';
import { PORTAL_CHAT_PAGE } from '#contract/endpoints/portal-chat.ts';
import { entityNamed } from '#contract/synced-entities.ts';
import type { Queryable } from '../db/database.ts';
import { AppError, ErrorCode } from '../http/app-error.ts';
import type { ResourceHandlers } from '../http/endpoint-handler.ts';
import type { RateLimiter, RateLimitRule } from '../http/rate-limiter.ts';
import type { PortalIdentity } from '../portal/portal-sessions.ts';
import type { NotificationStore } from '../realtime/notification-store.ts';
import { notifyMembers } from './client-portal-answers.ts';
import type { PublishRows } from './entity-handlers.ts';
import { entitySql } from './entity-sql.ts';

type ChatOps = 'client-portal/get-chat-messages' | 'client-portal/send-chat-message';

/** A conversation, not a flood: a script sending thousands is stopped. */
export const portalChatRateLimit: RateLimitRule = {
  name: 'portal-chat',
  max: 120,
  windowMs: 10 * 60_000,
};

const OTHER_PROJECT = 'This portal session opens another project.';
const CHAT_OFF = 'Chat with the team is not turned on for this project.';
const PREVIEW_CHARS = 140;

const chatMessageEntity = entityNamed('chat-message');
const chatMessageSql = entitySql(chatMessageEntity);

interface MessageRow {
  id: string;
  text: string;
  deleted: boolean;
  author_kind: 'member' | 'client';
  author_name: string;
  member_name: string | null;
  seq: string | number;
  created_at: Date;
  edited_at: string | null;
}

const MESSAGE_COLUMNS = `m.id, m.text, m.deleted, m.author_kind, m.author_name, m.seq, m.created_at,
  m.edited_at, NULLIF(trim(concat_ws(' ', u.first_name, u.last_name)), '') AS member_name`;

function toPortalMessage(row: MessageRow): PortalChatMessage {
  return {
    id: row.id,
    text: row.deleted ? null : row.text,
    authorKind: row.author_kind,
    authorName:
      row.author_kind === 'client'
        ? row.author_name || 'You'
        : (row.member_name ?? 'A team member'),
    seq: Number(row.seq),
    createdAt: row.created_at.toISOString(),
    editedAt: row.edited_at,
  };
}

function requireOwnProject(portal: PortalIdentity, projectId: string): void {
  if (projectId !== portal.projectId) throw new AppError(ErrorCode.FORBIDDEN, OTHER_PROJECT);
}

async function chatEnabled(tx: Queryable, portal: PortalIdentity): Promise<boolean> {
  const { rows } = await tx.query<{ chat_enabled: boolean }>(
    'SELECT chat_enabled FROM project_portal WHERE project_id = $1 AND workspace_id = $2',
    [portal.projectId, portal.workspaceId],
  );
  return rows[0]?.chat_enabled ?? false;
}

async function readMessage(tx: Queryable, id: string): Promise<MessageRow | undefined> {
  const { rows } = await tx.query<MessageRow>(
    `SELECT ${MESSAGE_COLUMNS} FROM chat_message m LEFT JOIN user_profile u ON u.id = m.created_by
     WHERE m.id = $1`,
    [id],
  );
  return rows[0];
}

export function createPortalChatHandlers(deps: {
  rateLimiter: RateLimiter;
  notifications: Pick<NotificationStore, 'createNotification'>;
  publishRows: PublishRows;
}): Pick<ResourceHandlers<'client-portal'>, ChatOps> {
  return {
    async 'client-portal/get-chat-messages'({ query, portal, tx }) {
      requireOwnProject(portal, query.projectId);
      if (!(await chatEnabled(tx, portal)))
        return { enabled: false, messages: [], hasOlder: false };
      const { rows } = await tx.query<MessageRow>(
        `SELECT ${MESSAGE_COLUMNS}
         FROM chat_message m LEFT JOIN user_profile u ON u.id = m.created_by
         WHERE m.project_id = $1 AND m.workspace_id = $2 AND ($3::bigint IS NULL OR m.seq < $3)
         ORDER BY m.seq DESC LIMIT $4`,
        [portal.projectId, portal.workspaceId, query.before ?? null, PORTAL_CHAT_PAGE + 1],
      );
      const page = rows.slice(0, PORTAL_CHAT_PAGE).reverse();
      return {
        enabled: true,
        messages: page.map(toPortalMessage),
        hasOlder: rows.length > PORTAL_CHAT_PAGE,
      };
    },

    async 'client-portal/send-chat-message'(ctx) {
      const { body, portal, tx, changes, afterCommit } = ctx;
      requireOwnProject(portal, body.projectId);
      if (!(await chatEnabled(tx, portal))) throw new AppError(ErrorCode.FORBIDDEN, CHAT_OFF);
      const existing = await tx.query<{ project_id: string; author_kind: string }>(
        'SELECT project_id, author_kind FROM chat_message WHERE id = $1',
        [body.id],
      );
      const found = existing.rows[0];
      if (found) {
        // The same message sent again (a retry after a lost answer) is stored once.
        const same = found.project_id === portal.projectId && found.author_kind === 'client';
        const again = same ? await readMessage(tx, body.id) : undefined;
        if (again) return { message: toPortalMessage(again) };
        throw new AppError(ErrorCode.CONFLICT, 'A message with this id already exists.');
      }
      deps.rateLimiter.consume(portalChatRateLimit, portal.projectId);
      const { rows: named } = await tx.query<{ client_name: string; project_name: string }>(
        `SELECT c.name AS client_name, p.name AS project_name
         FROM project p JOIN client c ON c.id = p.client_id
         WHERE p.id = $1 AND p.workspace_id = $2`,
        [portal.projectId, portal.workspaceId],
      );
      const project = named[0];
      if (!project) throw new AppError(ErrorCode.FORBIDDEN, OTHER_PROJECT);
      const version = await changes.record({
        workspaceId: portal.workspaceId,
        table: chatMessageEntity.table as never,
        entityId: body.id,
        op: 'upsert',
      });
      const { rows } = await tx.query<Record<string, unknown>>(
        `INSERT INTO chat_message (id, workspace_id, project_id, text, author_kind, author_name,
           created_by, updated_by, version)
         VALUES ($1, $2, $3, $4, 'client', $5, $6, $6, $7)
         RETURNING ${chatMessageSql.select}`,
        [
          body.id,
          portal.workspaceId,
          portal.projectId,
          body.text,
          project.client_name,
          portal.clientId,
          version,
        ],
      );
      const row = chatMessageSql.toRow(rows[0] as Record<string, unknown>);
      afterCommit(() =>
        deps.publishRows({
          workspaceId: portal.workspaceId,
          table: chatMessageEntity.table,
          rows: [row],
        }),
      );
      const preview =
        body.text.length > PREVIEW_CHARS ? `${body.text.slice(0, PREVIEW_CHARS)}…` : body.text;
      await notifyMembers(ctx, deps.notifications, portal, {
        type: 'chat-message',
        title: `${project.client_name} wrote in ${project.project_name}`,
        body: preview,
        link: `/projects/${portal.projectId}/${portal.clientId}?tab=chat`,
      });
      const message = await readMessage(tx, body.id);
      if (!message) throw new Error('The message just written could not be read back.');
      return { message: toPortalMessage(message) };
    },
  };
}
