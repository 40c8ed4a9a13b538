/**
 * Calendar event rules beside the derived CRUD (synced-entity-handlers.ts):
 * - the optional project link names a project of the event's own workspace (a 422 naming
 *   `body.projectId` otherwise: the workspace comes from the row, never from the client);
 * - a deleted project leaves its events, unlinked: each event's change is recorded so every
 *   device drops the link (the foreign key's SET NULL alone would leave devices stale). A client
 *   deleted with its projects does the same for all of them.
 * The membership check and the start/end rules are the derived handler's (the contract's rules).
 */
import { calendarEventEntity } from '#contract/entities/calendar-event.ts';
import type { Identity } from '../auth/identity.ts';
import type { Queryable } from '../db/database.ts';
import { AppError, ErrorCode } from '../http/app-error.ts';
import type { ChangeRecorder } from '../sync/change-recorder.ts';
import type { EntityHooks } from './entity-handlers.ts';

type Row = Record<string, unknown>;

async function requireProjectOfWorkspace(
  tx: Queryable,
  projectId: string,
  workspaceId: string,
): Promise<void> {
  const { rowCount } = await tx.query('SELECT 1 FROM project WHERE id = $1 AND workspace_id = $2', [
    projectId,
    workspaceId,
  ]);
  if (rowCount === 0) {
    throw new AppError(ErrorCode.BUSINESS_RULE, 'The project does not exist in this workspace.', {
      details: [{ path: 'body.projectId', message: 'Unknown project in this workspace' }],
    });
  }
}

export const calendarEventHooks: EntityHooks = {
  async beforeCreate({ tx, body }) {
    if (typeof body.projectId === 'string')
      await requireProjectOfWorkspace(tx, body.projectId, String(body.workspaceId));
  },
  async beforeUpdate({ tx, current, patch }) {
    if (typeof patch.projectId === 'string' && patch.projectId !== current.projectId)
      await requireProjectOfWorkspace(tx, patch.projectId, String(current.workspaceId));
    return undefined;
  },
};

/**
 * Unlinks an entity's rows from a project about to go (`project_id` is a link, not a parent):
 * each row's change is recorded, so every device sees it unlinked rather than pointing nowhere.
 */
export async function unlinkFromProjects(
  entity: { sqlTable: string; table: string },
  ctx: { tx: Queryable; current: Row; identity: Identity; changes: ChangeRecorder },
  where: string,
  id: string,
): Promise<void> {
  const { tx } = ctx;
  const { rows } = await tx.query<{ id: string }>(
    `SELECT id FROM ${entity.sqlTable} WHERE ${where} ORDER BY id FOR UPDATE`,
    [id],
  );
  for (const row of rows) {
    const seq = await ctx.changes.record({
      workspaceId: String(ctx.current.workspaceId),
      table: entity.table as never,
      entityId: row.id,
      op: 'upsert',
    });
    await tx.query(
      `UPDATE ${entity.sqlTable} SET project_id = NULL, updated_at = now(), updated_by = $2, version = $3 WHERE id = $1`,
      [row.id, ctx.identity.userId, seq],
    );
  }
}

export const unlinkProjectEvents: NonNullable<EntityHooks['beforeDelete']> = (ctx) =>
  unlinkFromProjects(calendarEventEntity, ctx, 'project_id = $1', String(ctx.current.id));

export const unlinkClientEvents: NonNullable<EntityHooks['beforeDelete']> = (ctx) =>
  unlinkFromProjects(
    calendarEventEntity,
    ctx,
    'project_id IN (SELECT id FROM project WHERE client_id = $1)',
    String(ctx.current.id),
  );
