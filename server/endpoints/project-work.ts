/**
 * Milestones, board columns, tasks and notes: the derived CRUD of their declarations plus the
 * rules of each, explicit here:
 * - a task's column and milestone are rows of the task's project, its assignee a member of the
 *   workspace (a 422 naming the field otherwise; nothing applied);
 * - a column with tasks is not deleted (its tasks would have nowhere to be);
 * - a deleted milestone unlinks its tasks, each change recorded so every device sees it;
 * - a note body changed by two writers from the same base is merged (merge-text.ts).
 */
import { signOffEndedBy, type Milestone } from '#contract/entities/milestone.ts';
import { taskEntity } from '#contract/entities/task.ts';
import type { Queryable } from '../db/database.ts';
import { AppError, ErrorCode } from '../http/app-error.ts';
import type { EntityHooks } from './entity-handlers.ts';
import { mergeText } from './merge-text.ts';

type Row = Record<string, unknown>;

function refused(path: string, message: string, field: string): AppError {
  return new AppError(ErrorCode.BUSINESS_RULE, message, {
    details: [{ path: `body.${path}`, message: field }],
  });
}

async function requireInProject(
  tx: Queryable,
  table: 'kanban_column' | 'milestone',
  id: string,
  projectId: string,
): Promise<boolean> {
  const { rowCount } = await tx.query(`SELECT 1 FROM ${table} WHERE id = $1 AND project_id = $2`, [
    id,
    projectId,
  ]);
  return rowCount > 0;
}

async function checkTaskLinks(tx: Queryable, next: Row, changed: Row): Promise<void> {
  const projectId = String(next.projectId);
  if (typeof changed.columnId === 'string') {
    if (!(await requireInProject(tx, 'kanban_column', changed.columnId, projectId)))
      throw refused(
        'columnId',
        'The column is not a column of this project.',
        'Unknown column in this project',
      );
  }
  if (typeof changed.milestoneId === 'string') {
    if (!(await requireInProject(tx, 'milestone', changed.milestoneId, projectId)))
      throw refused(
        'milestoneId',
        'The milestone is not a milestone of this project.',
        'Unknown milestone in this project',
      );
  }
  if (typeof changed.assigneeId === 'string') {
    const { rowCount } = await tx.query(
      'SELECT 1 FROM workspace_member WHERE workspace_id = $1 AND user_id = $2',
      [next.workspaceId, changed.assigneeId],
    );
    if (rowCount === 0)
      throw refused(
        'assigneeId',
        'The assignee is not a member of this workspace.',
        'Not a member of this workspace',
      );
  }
}

export const taskHooks: EntityHooks = {
  beforeCreate: async ({ tx, body }) => checkTaskLinks(tx, body, body),
  beforeUpdate: async ({ tx, current, patch }) => {
    await checkTaskLinks(tx, { ...current, ...patch }, patch);
    return undefined;
  },
};

export const columnHooks: EntityHooks = {
  beforeDelete: async ({ tx, current }) => {
    const { rows } = await tx.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM task WHERE column_id = $1',
      [current.id],
    );
    const count = rows[0]?.n ?? 0;
    if (count > 0)
      throw new AppError(
        ErrorCode.CONFLICT,
        `This column has ${count} task${count === 1 ? '' : 's'}; move ${count === 1 ? 'it' : 'them'} to another column first.`,
        { details: { taskCount: count } },
      );
  },
};

export const milestoneHooks: EntityHooks = {
  beforeUpdate: ({ current, patch }) => {
    const ended = signOffEndedBy(current as Milestone, patch);
    return Promise.resolve(ended ? { ...patch, ...ended } : undefined);
  },
  beforeDelete: async ({ tx, current, identity, changes }) => {
    const { rows } = await tx.query<{ id: string }>(
      'SELECT id FROM task WHERE milestone_id = $1 ORDER BY id FOR UPDATE',
      [current.id],
    );
    for (const { id } of rows) {
      const seq = await changes.record({
        workspaceId: String(current.workspaceId),
        table: taskEntity.table,
        entityId: id,
        op: 'upsert',
      });
      await tx.query(
        'UPDATE task SET milestone_id = NULL, updated_at = now(), updated_by = $2, version = $3 WHERE id = $1',
        [id, identity.userId, seq],
      );
    }
  },
};

/** A body edited meanwhile by someone else is merged with theirs, never replaced by it. */
export const noteHooks: EntityHooks = {
  beforeUpdate: ({ current, patch, baseValues }) => {
    const base = baseValues?.body;
    if (typeof patch.body !== 'string' || typeof base !== 'string')
      return Promise.resolve(undefined);
    if (typeof current.body !== 'string' || current.body === base)
      return Promise.resolve(undefined);
    return Promise.resolve({ ...patch, body: mergeText(base, current.body, patch.body).text });
  },
};
