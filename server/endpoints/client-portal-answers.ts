/**
 * What the client says in the portal: a milestone's sign-off, a change request, the answer to a
 * quote. Each is a write to a synced row made by someone with no account, so each:
 * - reads and locks only rows of the session's project (any other id is a 403, as for reads);
 * - records its change in the change log like a member's write, so every device pulls it, with
 *   an activity line whose actor is the client (actor id the client's, actor_name their name);
 * - notifies every member of the workspace (live through the hub, after the commit).
 *
 * Invariant: the client's decisions carry who (the client's name and the portal session), when,
 * and the address the session answered from; milestone_sign_off keeps every sign-off, the row only
 * the latest.
 */
import { randomUUID } from 'node:crypto';
import type { PortalChangeRequest, PortalMilestone } from '#contract/endpoints/client-portal.ts';
import type { ClientDecision } from '#contract/entities/change-request.ts';
import { entityNamed } from '#contract/synced-entities.ts';
import type { NotificationType } from '#contract/entities/notification.ts';
import type { Queryable } from '../db/database.ts';
import { AppError, ErrorCode } from '../http/app-error.ts';
import type { ResourceHandlers } from '../http/endpoint-handler.ts';
import type { RateLimiter, RateLimitRule } from '../http/rate-limiter.ts';
import type { PortalIdentity } from '../portal/portal-sessions.ts';
import type { NotificationScope, NotificationStore } from '../realtime/notification-store.ts';
import { writeActivity } from './entity-handlers.ts';
import { entitySql } from './entity-sql.ts';

type AnswerOps =
  | 'client-portal/sign-off-milestone'
  | 'client-portal/get-change-requests'
  | 'client-portal/create-change-request'
  | 'client-portal/decide-change-request';

/** A client asks for a handful of changes a day; a script asks for thousands. */
export const portalChangeRequestRateLimit: RateLimitRule = {
  name: 'portal-change-request',
  max: 30,
  windowMs: 60 * 60_000,
};

const milestoneEntity = entityNamed('milestone');
const changeRequestEntity = entityNamed('change-request');
const milestoneSql = entitySql(milestoneEntity);
const changeRequestSql = entitySql(changeRequestEntity);

type Row = Record<string, unknown>;

/** A milestone row (entity shape) as the portal shows it. */
export function toPortalMilestone(row: Row): PortalMilestone {
  const signOff = row.signOff as PortalMilestone['signOff'];
  return {
    id: String(row.id),
    title: String(row.title),
    description: (row.description as string | null) ?? null,
    dueDate: (row.dueDate as string | null) ?? null,
    amount: typeof row.amount === 'number' ? row.amount : null,
    currency: String(row.currency),
    status: row.status as PortalMilestone['status'],
    position: String(row.position),
    // The address stays with the members: the client knows where they were.
    signOff: signOff
      ? { decision: signOff.decision, by: signOff.by, at: signOff.at, comment: signOff.comment }
      : null,
  };
}

/** A change request row (entity shape) as the portal shows it: no creator ids, no address. */
/**
 * The portal's view of a request. `visibleFiles`: the project's files the client may see; an
 * attachment a member hid or deleted since is left out.
 */
export function toPortalChangeRequest(
  row: Row,
  visibleFiles: ReadonlySet<string>,
): PortalChangeRequest {
  const decision = row.clientDecision as ClientDecision | null;
  const attachments = Array.isArray(row.attachmentFileIds)
    ? (row.attachmentFileIds as unknown[])
    : [];
  return {
    id: String(row.id),
    title: String(row.title),
    description: (row.description as string | null) ?? null,
    desiredDate: (row.desiredDate as string | null) ?? null,
    status: row.status as PortalChangeRequest['status'],
    costImpact: typeof row.costImpact === 'number' ? row.costImpact : null,
    currency: String(row.currency),
    scheduleImpactDays: typeof row.scheduleImpactDays === 'number' ? row.scheduleImpactDays : null,
    answer: (row.answer as string | null) ?? null,
    clientDecision: decision
      ? { decision: decision.decision, at: decision.at, comment: decision.comment }
      : null,
    source: row.source as PortalChangeRequest['source'],
    attachmentFileIds: attachments.filter(
      (id): id is string => typeof id === 'string' && visibleFiles.has(id),
    ),
    createdAt: String(row.createdAt),
    updatedAt: String(row.updatedAt),
  };
}

/** The member's change request center, filtered to the project, with this request open. */
const changeRequestLink = (projectId: string, id: string) =>
  `/change-requests?projectId=${projectId}&request=${id}`;

/** Ids of the session project's files the client may see. */
async function visibleFileIds(tx: Queryable, portal: PortalIdentity): Promise<Set<string>> {
  const { rows } = await tx.query<{ id: string }>(
    `SELECT id FROM project_file
     WHERE project_id = $1 AND workspace_id = $2 AND visible_to_client`,
    [portal.projectId, portal.workspaceId],
  );
  return new Set(rows.map((row) => row.id));
}

interface ProjectOfSession {
  client_name: string;
  project_name: string;
  currency: string;
}

async function sessionProject(tx: Queryable, portal: PortalIdentity): Promise<ProjectOfSession> {
  const { rows } = await tx.query<ProjectOfSession>(
    `SELECT c.name AS client_name, p.name AS project_name, p.currency
     FROM project p JOIN client c ON c.id = p.client_id
     WHERE p.id = $1 AND p.workspace_id = $2`,
    [portal.projectId, portal.workspaceId],
  );
  const row = rows[0];
  if (!row) throw new AppError(ErrorCode.FORBIDDEN, 'This portal session opens another project.');
  return row;
}

function requireOwnProject(portal: PortalIdentity, projectId: string): void {
  if (projectId !== portal.projectId) {
    throw new AppError(ErrorCode.FORBIDDEN, 'This portal session opens another project.');
  }
}

type Notifications = Pick<NotificationStore, 'createNotification'>;

/** Every member of the session's workspace hears of what the client did. */
export async function notifyMembers(
  ctx: NotificationScope,
  notifications: Notifications,
  portal: Pick<PortalIdentity, 'workspaceId' | 'projectId'>,
  note: { type: NotificationType; title: string; body?: string; link: string },
): Promise<void> {
  const { rows } = await ctx.tx.query<{ user_id: string }>(
    'SELECT user_id FROM workspace_member WHERE workspace_id = $1 ORDER BY user_id',
    [portal.workspaceId],
  );
  for (const member of rows) {
    await notifications.createNotification(ctx, {
      userId: member.user_id,
      type: note.type,
      title: note.title,
      ...(note.body ? { body: note.body } : {}),
      link: note.link,
      workspaceId: portal.workspaceId,
      projectId: portal.projectId,
    });
  }
}

const clip = (value: string, max = 140) => (value.length > max ? `${value.slice(0, max)}…` : value);

export function createClientPortalAnswerHandlers(
  rateLimiter: RateLimiter,
  notifications: Notifications,
): Pick<ResourceHandlers<'client-portal'>, AnswerOps> {
  return {
    async 'client-portal/sign-off-milestone'(ctx) {
      const { body, portal, tx, changes, clientIp } = ctx;
      requireOwnProject(portal, body.projectId);
      const { rows } = await tx.query<Row>(
        `SELECT ${milestoneSql.select} FROM milestone
         WHERE id = $1 AND project_id = $2 AND workspace_id = $3 AND visible_to_client
         FOR UPDATE`,
        [body.milestoneId, portal.projectId, portal.workspaceId],
      );
      if (!rows[0]) {
        throw new AppError(ErrorCode.FORBIDDEN, 'This milestone is not shared in this portal.');
      }
      const current = milestoneSql.toRow(rows[0]);
      if (current.status === 'approved') {
        throw new AppError(ErrorCode.CONFLICT, 'This milestone is already approved.');
      }
      const project = await sessionProject(tx, portal);
      const comment = body.comment ? body.comment : null;
      const at = new Date().toISOString();
      const signOff = {
        decision: body.decision,
        by: project.client_name,
        at,
        comment,
        ip: clientIp,
      };
      const seq = await changes.record({
        workspaceId: portal.workspaceId,
        table: milestoneEntity.table as never,
        entityId: body.milestoneId,
        op: 'upsert',
      });
      const { rows: updatedRows } = await tx.query<Row>(
        `UPDATE milestone SET status = $2, sign_off = $3::jsonb, updated_at = now(),
                updated_by = $4, version = $5
         WHERE id = $1 RETURNING ${milestoneSql.select}`,
        [body.milestoneId, body.decision, JSON.stringify(signOff), portal.clientId, seq],
      );
      const updated = milestoneSql.toRow(updatedRows[0] as Row);
      await tx.query(
        `INSERT INTO milestone_sign_off (id, workspace_id, project_id, milestone_id,
           portal_session_id, client_name, decision, comment, ip, user_agent, at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
        [
          randomUUID(),
          portal.workspaceId,
          portal.projectId,
          body.milestoneId,
          portal.sessionId,
          project.client_name,
          body.decision,
          comment,
          clientIp,
          ctx.userAgent,
          at,
        ],
      );
      await writeActivity(tx, milestoneEntity, {
        workspaceId: portal.workspaceId,
        seq,
        row: updated,
        actorId: portal.clientId,
        actorName: project.client_name,
        op: 'sign-off',
        changes: {
          status: { from: current.status, to: updated.status },
          decision: { from: null, to: body.decision },
          ...(comment ? { comment: { from: null, to: comment } } : {}),
        },
      });
      const approved = body.decision === 'approved';
      await notifyMembers(ctx, notifications, portal, {
        type: 'milestone-signed-off',
        title: approved
          ? `${project.client_name} approved “${clip(String(updated.title))}”`
          : `${project.client_name} asked for changes to “${clip(String(updated.title))}”`,
        ...(comment ? { body: clip(comment, 500) } : {}),
        link: `/projects/${portal.projectId}/${portal.clientId}`,
      });
      return { milestone: toPortalMilestone(updated) };
    },

    async 'client-portal/get-change-requests'({ query, portal, tx }) {
      requireOwnProject(portal, query.projectId);
      const { rows } = await tx.query<Row>(
        `SELECT ${changeRequestSql.select} FROM change_request
         WHERE project_id = $1 AND workspace_id = $2
         ORDER BY created_at DESC, id`,
        [portal.projectId, portal.workspaceId],
      );
      const files = await visibleFileIds(tx, portal);
      return {
        changeRequests: rows.map((row) =>
          toPortalChangeRequest(changeRequestSql.toRow(row), files),
        ),
      };
    },

    async 'client-portal/create-change-request'(ctx) {
      const { body, portal, tx, changes } = ctx;
      requireOwnProject(portal, body.projectId);
      const { rows: existing } = await tx.query<Row>(
        `SELECT ${changeRequestSql.select} FROM change_request WHERE id = $1`,
        [body.id],
      );
      const found = existing[0];
      if (found) {
        const row = changeRequestSql.toRow(found);
        // The same request sent again (an offline queue retrying after a lost answer).
        if (row.projectId === portal.projectId && row.source === 'portal') {
          return { changeRequest: toPortalChangeRequest(row, await visibleFileIds(tx, portal)) };
        }
        throw new AppError(ErrorCode.CONFLICT, 'A change request with this id already exists.');
      }
      rateLimiter.consume(portalChangeRequestRateLimit, portal.projectId);
      const project = await sessionProject(tx, portal);
      const files = await visibleFileIds(tx, portal);
      const attachmentFileIds = [...new Set(body.attachmentFileIds ?? [])];
      const unknown = attachmentFileIds.findIndex((id) => !files.has(id));
      if (unknown >= 0) {
        // Another project's file, a hidden one, or one that never finished uploading.
        throw new AppError(
          ErrorCode.BUSINESS_RULE,
          'An attached file is not one of this project.',
          {
            details: [
              {
                path: `attachmentFileIds.${unknown}`,
                message: 'Upload the file again, then send the request.',
              },
            ],
          },
        );
      }
      const seq = await changes.record({
        workspaceId: portal.workspaceId,
        table: changeRequestEntity.table as never,
        entityId: body.id,
        op: 'upsert',
      });
      const { rows } = await tx.query<Row>(
        `INSERT INTO change_request (id, workspace_id, project_id, title, description,
           desired_date, status, currency, source, requested_by, attachment_file_ids,
           created_by, updated_by, version)
         VALUES ($1, $2, $3, $4, $5, $6::date, 'submitted', $7, 'portal', $8, $11::jsonb,
           $9, $9, $10)
         RETURNING ${changeRequestSql.select}`,
        [
          body.id,
          portal.workspaceId,
          portal.projectId,
          body.title,
          body.description ?? null,
          body.desiredDate ?? null,
          project.currency,
          project.client_name,
          portal.clientId,
          seq,
          JSON.stringify(attachmentFileIds),
        ],
      );
      const created = changeRequestSql.toRow(rows[0] as Row);
      await writeActivity(tx, changeRequestEntity, {
        workspaceId: portal.workspaceId,
        seq,
        row: created,
        actorId: portal.clientId,
        actorName: project.client_name,
        op: 'create',
      });
      await notifyMembers(ctx, notifications, portal, {
        type: 'change-request-submitted',
        title: `${project.client_name} asked for a change in ${clip(project.project_name)}: “${clip(body.title)}”`,
        ...(body.description ? { body: clip(body.description, 500) } : {}),
        link: changeRequestLink(portal.projectId, body.id),
      });
      return { changeRequest: toPortalChangeRequest(created, files) };
    },

    async 'client-portal/decide-change-request'(ctx) {
      const { body, portal, tx, changes, clientIp } = ctx;
      requireOwnProject(portal, body.projectId);
      const { rows } = await tx.query<Row>(
        `SELECT ${changeRequestSql.select} FROM change_request
         WHERE id = $1 AND project_id = $2 AND workspace_id = $3 FOR UPDATE`,
        [body.id, portal.projectId, portal.workspaceId],
      );
      if (!rows[0]) {
        throw new AppError(ErrorCode.FORBIDDEN, 'This change request is not in this portal.');
      }
      const current = changeRequestSql.toRow(rows[0]);
      if (current.status !== 'quoted') {
        throw new AppError(
          ErrorCode.CONFLICT,
          'This change request has no quote waiting for your answer.',
          { details: { status: current.status } },
        );
      }
      const project = await sessionProject(tx, portal);
      const decision: ClientDecision = {
        decision: body.decision,
        by: project.client_name,
        at: new Date().toISOString(),
        comment: body.comment ? body.comment : null,
        ip: clientIp,
      };
      const status = body.decision === 'accepted' ? 'accepted' : 'quote_declined';
      const seq = await changes.record({
        workspaceId: portal.workspaceId,
        table: changeRequestEntity.table as never,
        entityId: body.id,
        op: 'upsert',
      });
      const { rows: updatedRows } = await tx.query<Row>(
        `UPDATE change_request SET status = $2, client_decision = $3::jsonb, updated_at = now(),
                updated_by = $4, version = $5
         WHERE id = $1 RETURNING ${changeRequestSql.select}`,
        [body.id, status, JSON.stringify(decision), portal.clientId, seq],
      );
      const updated = changeRequestSql.toRow(updatedRows[0] as Row);
      await writeActivity(tx, changeRequestEntity, {
        workspaceId: portal.workspaceId,
        seq,
        row: updated,
        actorId: portal.clientId,
        actorName: project.client_name,
        op: 'update',
        changes: {
          status: { from: current.status, to: status },
          ...(decision.comment ? { clientComment: { from: null, to: decision.comment } } : {}),
        },
      });
      await notifyMembers(ctx, notifications, portal, {
        type: 'change-request-decided',
        title: `${project.client_name} ${body.decision === 'accepted' ? 'accepted' : 'declined'} the quote for “${clip(String(updated.title))}”`,
        ...(decision.comment ? { body: clip(decision.comment, 500) } : {}),
        link: changeRequestLink(portal.projectId, body.id),
      });
      return { changeRequest: toPortalChangeRequest(updated, await visibleFileIds(tx, portal)) };
    },
  };
}
