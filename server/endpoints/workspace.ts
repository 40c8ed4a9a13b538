import type { ResourceHandlers } from '../http/endpoint-handler.ts';
import {
  toWorkspace,
  toWorkspaceMember,
  WORKSPACE_COLUMNS,
  type WorkspaceMemberRow,
  type WorkspaceRow,
} from './row-mappers.ts';
import { requireWorkspaceRole } from './workspace-access.ts';

export function createWorkspaceHandlers(): ResourceHandlers<'workspace'> {
  return {
    'workspace/get-owned-workspace-id': async ({ identity, tx }) => {
      const { rows } = await tx.query<{ id: string }>(
        'SELECT id FROM workspace WHERE owner_id = $1',
        [identity.userId],
      );
      const member = await tx.query<{ workspace_id: string }>(
        'SELECT workspace_id FROM workspace_member WHERE user_id = $1 ORDER BY joined_at',
        [identity.userId],
      );
      return {
        workspaceId: rows[0]?.id ?? null,
        memberOf: member.rows.map((row) => row.workspace_id),
      };
    },

    'workspace/get-workspace-members': async ({ query, identity, tx }) => {
      await requireWorkspaceRole(tx, query.workspaceId, identity.userId);
      const { rows } = await tx.query<WorkspaceMemberRow>(
        `SELECT p.id, p.email, p.first_name, p.last_name, p.profile_picture_url, m.role, m.joined_at
         FROM workspace_member m JOIN user_profile p ON p.id = m.user_id
         WHERE m.workspace_id = $1
         ORDER BY CASE m.role WHEN 'owner' THEN 0 WHEN 'admin' THEN 1 ELSE 2 END, m.joined_at`,
        [query.workspaceId],
      );
      return { members: rows.map(toWorkspaceMember) };
    },

    'workspace/get-workspace-settings': async ({ query, identity, tx }) => {
      await requireWorkspaceRole(tx, query.workspaceId, identity.userId);
      const { rows } = await tx.query<WorkspaceRow>(
        `SELECT ${WORKSPACE_COLUMNS} FROM workspace WHERE id = $1`,
        [query.workspaceId],
      );
      return { workspace: toWorkspace(rows[0] as WorkspaceRow) };
    },

    'workspace/update-workspace-settings': async ({ query, body, identity, tx, changes }) => {
      await requireWorkspaceRole(tx, query.workspaceId, identity.userId, ['owner', 'admin']);
      await changes.record({
        workspaceId: query.workspaceId,
        table: 'workspaces',
        entityId: query.workspaceId,
        op: 'upsert',
      });
      // Only the fields present in the patch change; `settings` is merged key by key.
      const columns: Record<string, [string, unknown]> = {
        name: ['name', body.name],
        logoUrl: ['logo_url', body.logoUrl],
        brandColor: ['brand_color', body.brandColor],
        currency: ['currency', body.currency],
        timeZone: ['time_zone', body.timeZone],
        locale: ['locale', body.locale],
        portalWelcomeText: ['portal_welcome_text', body.portalWelcomeText],
      };
      const sets: string[] = [];
      const params: unknown[] = [query.workspaceId];
      for (const [key, [column, value]] of Object.entries(columns)) {
        if (!(key in body)) continue;
        params.push(value);
        sets.push(`${column} = $${params.length}`);
      }
      if (body.settings !== undefined) {
        params.push(JSON.stringify(body.settings));
        sets.push(`settings = settings || $${params.length}::jsonb`);
      }
      const { rows } = await tx.query<WorkspaceRow>(
        `UPDATE workspace SET ${[...sets, 'updated_at = now()'].join(', ')} WHERE id = $1 RETURNING ${WORKSPACE_COLUMNS}`,
        params,
      );
      return { workspace: toWorkspace(rows[0] as WorkspaceRow) };
    },
  };
}
