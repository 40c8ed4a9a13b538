import type { ProjectStatus } from '#contract/entities/project.ts';
import type { Queryable } from '../db/database.ts';
import { AppError, ErrorCode } from '../http/app-error.ts';
import type { ResourceHandlers } from '../http/endpoint-handler.ts';
import { buildPatch } from './build-patch.ts';
import { toProject, type ProjectRow } from './row-mappers.ts';
import { isActiveProject, requireActiveProjectRoom } from './plan-limits.ts';
import { requireWorkspaceRole } from './workspace-access.ts';

const COLUMNS =
  "id, workspace_id, client_id, name, description, status, to_char(start_date, 'YYYY-MM-DD') AS start_date, to_char(due_date, 'YYYY-MM-DD') AS due_date, budget::text AS budget, currency, billing_type, color, archived, created_at, created_by, updated_at, updated_by, version";

const NO_SUCH_PROJECT = 'No such project.';

const PATCH_COLUMNS = {
  clientId: 'client_id',
  name: 'name',
  description: 'description',
  status: 'status',
  startDate: 'start_date',
  dueDate: 'due_date',
  budget: 'budget',
  currency: 'currency',
  billingType: 'billing_type',
  color: 'color',
  archived: 'archived',
} as const;

/** A project's client must be a client of the same workspace. */
async function requireClientInWorkspace(
  tx: Queryable,
  clientId: string,
  workspaceId: string,
): Promise<void> {
  const { rowCount } = await tx.query('SELECT 1 FROM client WHERE id = $1 AND workspace_id = $2', [
    clientId,
    workspaceId,
  ]);
  if (rowCount === 0) {
    throw new AppError(ErrorCode.BUSINESS_RULE, 'The client does not exist in this workspace.', {
      details: [{ path: 'body.clientId', message: 'Unknown client' }],
    });
  }
}

export function createProjectHandlers(): ResourceHandlers<'project'> {
  async function lockProject(tx: Queryable, id: string, userId: string) {
    const { rows } = await tx.query<{
      workspace_id: string;
      start_date: string | null;
      due_date: string | null;
      status: ProjectStatus;
      archived: boolean;
    }>(
      "SELECT workspace_id, to_char(start_date, 'YYYY-MM-DD') AS start_date, to_char(due_date, 'YYYY-MM-DD') AS due_date, status, archived FROM project WHERE id = $1 FOR UPDATE",
      [id],
    );
    const row = rows[0];
    if (!row) throw new AppError(ErrorCode.NOT_FOUND, NO_SUCH_PROJECT);
    try {
      return { row, role: await requireWorkspaceRole(tx, row.workspace_id, userId) };
    } catch {
      throw new AppError(ErrorCode.NOT_FOUND, NO_SUCH_PROJECT);
    }
  }

  return {
    'project/create-project': async ({ body, identity, tx, changes }) => {
      await requireWorkspaceRole(tx, body.workspaceId, identity.userId);
      await requireClientInWorkspace(tx, body.clientId, body.workspaceId);
      const seq = await changes.record({
        workspaceId: body.workspaceId,
        table: 'projects',
        entityId: body.id,
        op: 'upsert',
      });
      if (isActiveProject({ status: body.status, archived: false })) {
        await requireActiveProjectRoom(tx, body.workspaceId, body.id);
      }
      const { rows } = await tx.query<ProjectRow>(
        `INSERT INTO project (id, workspace_id, client_id, name, description, status, start_date, due_date, budget,
           currency, billing_type, color, created_by, updated_by, version)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $13, $14)
         ON CONFLICT (id) DO NOTHING
         RETURNING ${COLUMNS}`,
        [
          body.id,
          body.workspaceId,
          body.clientId,
          body.name,
          body.description,
          body.status,
          body.startDate,
          body.dueDate,
          body.budget,
          body.currency,
          body.billingType,
          body.color,
          identity.userId,
          seq,
        ],
      );
      // An id taken anywhere (whichever workspace holds it) is a conflict, never an overwrite;
      // DO NOTHING answers it in the insert itself, with no read before every create.
      if (!rows[0])
        throw new AppError(ErrorCode.CONFLICT, 'A project with this id already exists.');
      return { project: toProject(rows[0]) };
    },

    'project/update-project': async ({ query, body, identity, tx, changes }) => {
      const { row } = await lockProject(tx, query.id, identity.userId);
      if (body.clientId !== undefined)
        await requireClientInWorkspace(tx, body.clientId, row.workspace_id);
      // The patch may move one date past the other one already stored.
      const start = body.startDate !== undefined ? body.startDate : row.start_date;
      const due = body.dueDate !== undefined ? body.dueDate : row.due_date;
      if (start && due && start > due) {
        throw new AppError(
          ErrorCode.VALIDATION_FAILED,
          'The due date must not be before the start date.',
          {
            details: [
              { path: 'body.dueDate', message: 'The due date must not be before the start date' },
            ],
          },
        );
      }
      const seq = await changes.record({
        workspaceId: row.workspace_id,
        table: 'projects',
        entityId: query.id,
        op: 'upsert',
      });
      // Back to active (unarchived, reopened): it takes a place the plan may not have.
      const becomesActive =
        !isActiveProject({ status: row.status, archived: row.archived }) &&
        isActiveProject({
          status: body.status ?? row.status,
          archived: body.archived ?? row.archived,
        });
      if (becomesActive) await requireActiveProjectRoom(tx, row.workspace_id, query.id);
      const patch = buildPatch(
        PATCH_COLUMNS,
        body,
        { startDate: { cast: 'date' }, dueDate: { cast: 'date' }, budget: { cast: 'numeric' } },
        4,
      );
      const { rows } = await tx.query<ProjectRow>(
        `UPDATE project SET ${[...patch.sets, 'updated_at = now()', 'updated_by = $2', 'version = $3'].join(', ')}
         WHERE id = $1 RETURNING ${COLUMNS}`,
        [query.id, identity.userId, seq, ...patch.values],
      );
      return { project: toProject(rows[0] as ProjectRow) };
    },

    'project/delete-project': async ({ query, identity, tx, changes }) => {
      const { row, role } = await lockProject(tx, query.id, identity.userId);
      if (role === 'member')
        throw new AppError(
          ErrorCode.FORBIDDEN,
          'Only a workspace owner or admin can delete projects.',
        );
      await changes.record({
        workspaceId: row.workspace_id,
        table: 'projects',
        entityId: query.id,
        op: 'delete',
      });
      await tx.query('DELETE FROM project WHERE id = $1', [query.id]);
      return { deleted: true, id: query.id };
    },

    'project/get-projects': async ({ query, identity, tx }) => {
      await requireWorkspaceRole(tx, query.workspaceId as string, identity.userId);
      const { rows } = await tx.query<ProjectRow>(
        `SELECT ${COLUMNS} FROM project
         WHERE workspace_id = $1 AND ($2::uuid IS NULL OR client_id = $2) AND ($3::text IS NULL OR status = $3)
         ORDER BY due_date NULLS LAST, lower(name), id`,
        [query.workspaceId, query.clientId ?? null, query.status ?? null],
      );
      return { projects: rows.map(toProject) };
    },

    'project/get-project': async ({ query, identity, tx }) => {
      const { rows } = await tx.query<ProjectRow>(`SELECT ${COLUMNS} FROM project WHERE id = $1`, [
        query.id,
      ]);
      const row = rows[0];
      if (!row) throw new AppError(ErrorCode.NOT_FOUND, NO_SUCH_PROJECT);
      try {
        await requireWorkspaceRole(tx, row.workspace_id, identity.userId);
      } catch {
        throw new AppError(ErrorCode.NOT_FOUND, NO_SUCH_PROJECT);
      }
      return { project: toProject(row) };
    },
  };
}
