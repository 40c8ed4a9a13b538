import { v7 as uuidv7 } from 'uuid';
import { AppError, ErrorCode } from '../http/app-error.ts';
import type { ResourceHandlers } from '../http/endpoint-handler.ts';
import { toWorkspace, WORKSPACE_COLUMNS, type WorkspaceRow } from './row-mappers.ts';

export function createRegisterHandlers(): ResourceHandlers<'register'> {
  return {
    'register/register-user': async ({ body, identity, tx, changes }) => {
      // Security: a caller registers only themself; id and email must be the token's.
      if (body.id !== identity.userId) {
        throw new AppError(ErrorCode.FORBIDDEN, 'You can only register your own account.');
      }
      if (identity.email === null || body.email.toLowerCase() !== identity.email.toLowerCase()) {
        throw new AppError(ErrorCode.FORBIDDEN, "The email does not match your account's email.");
      }
      await tx.query(
        `INSERT INTO user_profile (id, email, first_name, last_name, profile_picture_url)
         VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (id) DO UPDATE SET email = EXCLUDED.email, updated_at = now()`,
        [identity.userId, identity.email, body.firstName, body.lastName, body.profilePictureUrl],
      );
      const name = body.firstName ? `${body.firstName}'s workspace` : 'My workspace';
      // Idempotent: the unique owner index makes a repeat (or a racing twin) keep the first one.
      const created = await tx.query<{ id: string }>(
        `INSERT INTO workspace (id, owner_id, name) VALUES ($1, $2, $3)
         ON CONFLICT (owner_id) DO NOTHING RETURNING id`,
        [uuidv7(), identity.userId, name],
      );
      const createdId = created.rows[0]?.id;
      if (createdId)
        await changes.record({
          workspaceId: createdId,
          table: 'workspaces',
          entityId: createdId,
          op: 'upsert',
        });
      const { rows } = await tx.query<WorkspaceRow>(
        `SELECT ${WORKSPACE_COLUMNS} FROM workspace WHERE owner_id = $1`,
        [identity.userId],
      );
      const workspace = rows[0];
      if (!workspace) throw new Error('workspace missing after insert');
      // Only with the workspace it creates: a repeat must not make someone who handed ownership
      // over and left (issue 17) the owner of their first workspace again.
      if (createdId)
        await tx.query(
          `INSERT INTO workspace_member (workspace_id, user_id, role) VALUES ($1, $2, 'owner')
           ON CONFLICT (workspace_id, user_id) DO NOTHING`,
          [workspace.id, identity.userId],
        );
      return { ok: true, data: { workspace: toWorkspace(workspace) } };
    },
  };
}
