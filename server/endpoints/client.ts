import { AppError, ErrorCode } from '../http/app-error.ts';
import type { ResourceHandlers } from '../http/endpoint-handler.ts';
import { buildPatch } from './build-patch.ts';
import { toClient, type ClientRow } from './row-mappers.ts';
import { requireWorkspaceRole } from './workspace-access.ts';

const COLUMNS =
  'id, workspace_id, name, company, email, phone, address, website, notes_summary, tags, status, currency, locale, time_zone, archived, created_at, created_by, updated_at, updated_by, version';

const NO_SUCH_CLIENT = 'No such client.';

const PATCH_COLUMNS = {
  name: 'name',
  company: 'company',
  email: 'email',
  phone: 'phone',
  address: 'address',
  website: 'website',
  notesSummary: 'notes_summary',
  tags: 'tags',
  status: 'status',
  currency: 'currency',
  locale: 'locale',
  timeZone: 'time_zone',
  archived: 'archived',
} as const;

export function createClientHandlers(): ResourceHandlers<'client'> {
  /**
   * The client's workspace after checking the caller is a member of it. A client in a workspace
   * the caller cannot see answers exactly like a missing one.
   */
  async function lockClient(
    tx: Parameters<typeof requireWorkspaceRole>[0],
    id: string,
    userId: string,
  ) {
    const { rows } = await tx.query<{ workspace_id: string }>(
      'SELECT workspace_id FROM client WHERE id = $1 FOR UPDATE',
      [id],
    );
    const workspaceId = rows[0]?.workspace_id;
    if (!workspaceId) throw new AppError(ErrorCode.NOT_FOUND, NO_SUCH_CLIENT);
    try {
      return { workspaceId, role: await requireWorkspaceRole(tx, workspaceId, userId) };
    } catch {
      throw new AppError(ErrorCode.NOT_FOUND, NO_SUCH_CLIENT);
    }
  }

  return {
    'client/create-client': async ({ body, identity, tx, changes }) => {
      await requireWorkspaceRole(tx, body.workspaceId, identity.userId);
      const seq = await changes.record({
        workspaceId: body.workspaceId,
        table: 'clients',
        entityId: body.id,
        op: 'upsert',
      });
      const { rows } = await tx.query<ClientRow>(
        `INSERT INTO client (id, workspace_id, name, company, email, phone, address, website, notes_summary, tags,
           status, currency, locale, time_zone, created_by, updated_by, version)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::jsonb, $11, $12, $13, $14, $15, $15, $16)
         ON CONFLICT (id) DO NOTHING
         RETURNING ${COLUMNS}`,
        [
          body.id,
          body.workspaceId,
          body.name,
          body.company,
          body.email,
          body.phone,
          body.address,
          body.website,
          body.notesSummary,
          JSON.stringify(body.tags),
          body.status,
          body.currency,
          body.locale,
          body.timeZone,
          identity.userId,
          seq,
        ],
      );
      // An id taken anywhere (whichever workspace holds it) is a conflict, never an overwrite;
      // DO NOTHING answers it in the insert itself, with no read before every create.
      if (!rows[0]) throw new AppError(ErrorCode.CONFLICT, 'A client with this id already exists.');
      return { client: toClient(rows[0]) };
    },

    'client/update-client': async ({ query, body, identity, tx, changes }) => {
      const { workspaceId } = await lockClient(tx, query.id, identity.userId);
      const seq = await changes.record({
        workspaceId,
        table: 'clients',
        entityId: query.id,
        op: 'upsert',
      });
      const patch = buildPatch(
        PATCH_COLUMNS,
        body,
        { tags: { encode: (tags: string[]) => JSON.stringify(tags), cast: 'jsonb' } },
        4,
      );
      const { rows } = await tx.query<ClientRow>(
        `UPDATE client SET ${[...patch.sets, 'updated_at = now()', 'updated_by = $2', 'version = $3'].join(', ')}
         WHERE id = $1 RETURNING ${COLUMNS}`,
        [query.id, identity.userId, seq, ...patch.values],
      );
      return { client: toClient(rows[0] as ClientRow) };
    },

    'client/delete-client': async ({ query, identity, tx, changes }) => {
      const { workspaceId, role } = await lockClient(tx, query.id, identity.userId);
      if (role === 'member')
        throw new AppError(
          ErrorCode.FORBIDDEN,
          'Only a workspace owner or admin can delete clients.',
        );
      const projects = await tx.query<{ id: string }>(
        'SELECT id FROM project WHERE client_id = $1 FOR UPDATE',
        [query.id],
      );
      if (projects.rowCount > 0 && query.cascade !== 'true') {
        throw new AppError(
          ErrorCode.CONFLICT,
          `This client has ${projects.rowCount} project${projects.rowCount === 1 ? '' : 's'}; delete them too with cascade=true.`,
          { details: { projectCount: projects.rowCount } },
        );
      }
      for (const project of projects.rows) {
        await changes.record({
          workspaceId,
          table: 'projects',
          entityId: project.id,
          op: 'delete',
        });
      }
      await tx.query('DELETE FROM project WHERE client_id = $1', [query.id]);
      await changes.record({ workspaceId, table: 'clients', entityId: query.id, op: 'delete' });
      await tx.query('DELETE FROM client WHERE id = $1', [query.id]);
      return { deleted: true, id: query.id };
    },

    'client/get-clients': async ({ query, identity, tx }) => {
      await requireWorkspaceRole(tx, query.workspaceId as string, identity.userId);
      const { rows } = await tx.query<ClientRow>(
        `SELECT ${COLUMNS} FROM client WHERE workspace_id = $1 AND ($2::text IS NULL OR status = $2) ORDER BY lower(name), id`,
        [query.workspaceId, query.status ?? null],
      );
      return { clients: rows.map(toClient) };
    },

    'client/get-client': async ({ query, identity, tx }) => {
      const { rows } = await tx.query<ClientRow>(`SELECT ${COLUMNS} FROM client WHERE id = $1`, [
        query.id,
      ]);
      const row = rows[0];
      if (!row) throw new AppError(ErrorCode.NOT_FOUND, NO_SUCH_CLIENT);
      try {
        await requireWorkspaceRole(tx, row.workspace_id, identity.userId);
      } catch {
        throw new AppError(ErrorCode.NOT_FOUND, NO_SUCH_CLIENT);
      }
      return { client: toClient(row) };
    },
  };
}
