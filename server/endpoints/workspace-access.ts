/**
 * Membership checks for workspace-scoped calls. A workspace that does not exist and one the caller
 * is not a member of get the same 403, so ids cannot be probed.
 */
import type { WorkspaceRole } from '#contract/entities/workspace.ts';
import type { Queryable } from '../db/database.ts';
import { AppError, ErrorCode } from '../http/app-error.ts';

export const NO_WORKSPACE_ACCESS = 'You do not have access to this workspace.';

/** The caller's role in the workspace; throws 403 unless it is one of `roles` (any role if omitted). */
export async function requireWorkspaceRole(
  tx: Queryable,
  workspaceId: string,
  userId: string,
  roles?: readonly WorkspaceRole[],
): Promise<WorkspaceRole> {
  const { rows } = await tx.query<{ role: WorkspaceRole }>(
    'SELECT role FROM workspace_member WHERE workspace_id = $1 AND user_id = $2',
    [workspaceId, userId],
  );
  const role = rows[0]?.role;
  if (!role) throw new AppError(ErrorCode.FORBIDDEN, NO_WORKSPACE_ACCESS);
  if (roles && !roles.includes(role)) {
    throw new AppError(ErrorCode.FORBIDDEN, `Only a workspace ${roles.join(' or ')} can do this.`);
  }
  return role;
}
