/**
 * Membership checks for workspace-scoped calls. A workspace that does not exist and one the caller
 * is not a member of get the same 403, so ids cannot be probed.
 */
import type { WorkspaceRole } from '#contract/entities/workspace.ts';
import type { Queryable } from '../db/database.ts';
import { AppError, ErrorCode } from '../http/app-error.ts';

export const NO_WORKSPACE_ACCESS = 'You do not have access to this workspace.';

/**
 * Roles read in a transaction, kept for the rest of it: a sync push applies up to 100 mutations of
 * one workspace in one transaction, and a statement per mutation was a fifth of its cost. No
 * operation changes membership and then checks it again in the same transaction; one that does
 * must call `forgetWorkspaceRoles(tx)` first.
 */
const rolesSeen = new WeakMap<Queryable, Map<string, WorkspaceRole>>();

export function forgetWorkspaceRoles(tx: Queryable): void {
  rolesSeen.delete(tx);
}

/** The caller's role in the workspace; throws 403 unless it is one of `roles` (any role if omitted). */
export async function requireWorkspaceRole(
  tx: Queryable,
  workspaceId: string,
  userId: string,
  roles?: readonly WorkspaceRole[],
): Promise<WorkspaceRole> {
  const key = `${workspaceId}/${userId}`;
  let known = rolesSeen.get(tx);
  let role = known?.get(key);
  if (!role) {
    const { rows } = await tx.query<{ role: WorkspaceRole }>(
      'SELECT role FROM workspace_member WHERE workspace_id = $1 AND user_id = $2',
      [workspaceId, userId],
    );
    role = rows[0]?.role;
    // Only a transaction remembers: the database itself (autocommit) lives for ever.
    if (role && !('transaction' in tx)) {
      known ??= new Map();
      known.set(key, role);
      rolesSeen.set(tx, known);
    }
  }
  if (!role) throw new AppError(ErrorCode.FORBIDDEN, NO_WORKSPACE_ACCESS);
  if (roles && !roles.includes(role)) {
    throw new AppError(ErrorCode.FORBIDDEN, `Only a workspace ${roles.join(' or ')} can do this.`);
  }
  return role;
}

/**
 * A project the caller may work on: its workspace and client. A project that does not exist and
 * one of another workspace answer the same 404 with `message`, so project ids cannot be probed.
 */
export async function requireProjectMember(
  tx: Queryable,
  projectId: string,
  userId: string,
  message: string,
): Promise<{ workspaceId: string; clientId: string }> {
  const { rows } = await tx.query<{ workspace_id: string; client_id: string }>(
    'SELECT workspace_id, client_id FROM project WHERE id = $1',
    [projectId],
  );
  const project = rows[0];
  if (!project) throw new AppError(ErrorCode.NOT_FOUND, message);
  try {
    await requireWorkspaceRole(tx, project.workspace_id, userId);
  } catch {
    throw new AppError(ErrorCode.NOT_FOUND, message);
  }
  return { workspaceId: project.workspace_id, clientId: project.client_id };
}
