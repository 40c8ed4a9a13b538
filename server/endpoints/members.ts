/**
 * Membership changes (contract/endpoints/workspace-invite.ts): change a role, remove someone,
 * leave, hand ownership over. The caller's role is checked against the operation's declaration;
 * the rules about the target (the owner is never removed or demoted here, the owner leaves only
 * after a transfer) follow. A removed member keeps nothing: their next pull of the workspace is
 * answered with `scope_remove` (server/sync/pull-changes.ts) and their devices drop its data.
 */
import {
  changeMemberRole,
  leaveWorkspace,
  removeMember,
  transferOwnership,
} from '#contract/endpoints/workspace-invite.ts';
import type { WorkspaceMember, WorkspaceRole } from '#contract/entities/workspace.ts';
import type { Queryable } from '../db/database.ts';
import { AppError, ErrorCode } from '../http/app-error.ts';
import type { ResourceHandlers } from '../http/endpoint-handler.ts';
import type { ChangeRecorder } from '../sync/change-recorder.ts';
import { requireDeclaredRole } from './members-access.ts';
import { toWorkspaceMember, type WorkspaceMemberRow } from './row-mappers.ts';
import { forgetWorkspaceRoles } from './workspace-access.ts';

const NO_SUCH_MEMBER = 'That person is not a member of this workspace.';
const OWNER_BY_TRANSFER =
  "The owner's role changes only by handing ownership over (Transfer ownership).";

export async function listMembers(tx: Queryable, workspaceId: string): Promise<WorkspaceMember[]> {
  const { rows } = await tx.query<WorkspaceMemberRow>(
    `SELECT p.id, p.email, p.first_name, p.last_name, p.profile_picture_url, m.role, m.joined_at
     FROM workspace_member m JOIN user_profile p ON p.id = m.user_id
     WHERE m.workspace_id = $1
     ORDER BY CASE m.role WHEN 'owner' THEN 0 WHEN 'admin' THEN 1 ELSE 2 END, m.joined_at`,
    [workspaceId],
  );
  return rows.map(toWorkspaceMember);
}

/** The target's role, read with its row locked; a non-member is a 404. */
async function targetRole(
  tx: Queryable,
  workspaceId: string,
  userId: string,
): Promise<WorkspaceRole> {
  const { rows } = await tx.query<{ role: WorkspaceRole }>(
    'SELECT role FROM workspace_member WHERE workspace_id = $1 AND user_id = $2 FOR UPDATE',
    [workspaceId, userId],
  );
  const role = rows[0]?.role;
  if (!role) throw new AppError(ErrorCode.NOT_FOUND, NO_SUCH_MEMBER);
  return role;
}

/**
 * Membership changes of one workspace run one at a time: the role checks that follow read what the
 * previous change committed, so two transfers at once cannot both pass as the owner.
 */
async function lockWorkspace(tx: Queryable, workspaceId: string): Promise<void> {
  await tx.query('SELECT 1 FROM workspace WHERE id = $1 FOR UPDATE', [workspaceId]);
}

/** Membership changed: the members' devices (the removed one's too) hear of it and pull. */
async function recordMembershipChange(changes: ChangeRecorder, workspaceId: string) {
  await changes.record({ workspaceId, table: 'workspaces', entityId: workspaceId, op: 'upsert' });
}

export function createMembersHandlers(): ResourceHandlers<'workspace-member'> {
  return {
    async 'workspace-member/change-member-role'({ query, body, identity, tx, changes }) {
      await lockWorkspace(tx, query.workspaceId);
      await requireDeclaredRole(tx, changeMemberRole, query.workspaceId, identity.userId);
      if (body.role === 'owner') throw new AppError(ErrorCode.BUSINESS_RULE, OWNER_BY_TRANSFER);
      const current = await targetRole(tx, query.workspaceId, body.userId);
      if (current === 'owner') throw new AppError(ErrorCode.FORBIDDEN, OWNER_BY_TRANSFER);
      if (current !== body.role) {
        await tx.query(
          'UPDATE workspace_member SET role = $3 WHERE workspace_id = $1 AND user_id = $2',
          [query.workspaceId, body.userId, body.role],
        );
        forgetWorkspaceRoles(tx);
        await recordMembershipChange(changes, query.workspaceId);
      }
      return { members: await listMembers(tx, query.workspaceId) };
    },

    async 'workspace-member/remove-member'({ query, body, identity, tx, changes }) {
      await lockWorkspace(tx, query.workspaceId);
      await requireDeclaredRole(tx, removeMember, query.workspaceId, identity.userId);
      if (body.userId === identity.userId) {
        throw new AppError(
          ErrorCode.BUSINESS_RULE,
          'To remove yourself, use Leave workspace instead.',
        );
      }
      const role = await targetRole(tx, query.workspaceId, body.userId);
      if (role === 'owner') {
        throw new AppError(ErrorCode.FORBIDDEN, 'The owner cannot be removed from the workspace.');
      }
      await tx.query('DELETE FROM workspace_member WHERE workspace_id = $1 AND user_id = $2', [
        query.workspaceId,
        body.userId,
      ]);
      forgetWorkspaceRoles(tx);
      await recordMembershipChange(changes, query.workspaceId);
      return { members: await listMembers(tx, query.workspaceId) };
    },

    async 'workspace-member/leave-workspace'({ query, identity, tx, changes }) {
      await lockWorkspace(tx, query.workspaceId);
      const role = await requireDeclaredRole(
        tx,
        leaveWorkspace,
        query.workspaceId,
        identity.userId,
      );
      if (role === 'owner') {
        throw new AppError(
          ErrorCode.BUSINESS_RULE,
          'The owner cannot leave: hand ownership to another member first (Transfer ownership).',
        );
      }
      await tx.query('DELETE FROM workspace_member WHERE workspace_id = $1 AND user_id = $2', [
        query.workspaceId,
        identity.userId,
      ]);
      forgetWorkspaceRoles(tx);
      await recordMembershipChange(changes, query.workspaceId);
      return { left: true as const };
    },

    async 'workspace-member/transfer-ownership'({ query, body, identity, tx, changes }) {
      await lockWorkspace(tx, query.workspaceId);
      await requireDeclaredRole(tx, transferOwnership, query.workspaceId, identity.userId);
      if (body.userId === identity.userId) {
        throw new AppError(ErrorCode.BUSINESS_RULE, 'You already own this workspace.');
      }
      await targetRole(tx, query.workspaceId, body.userId);
      // Demote first: one owner per workspace is a unique index (migration 0017).
      await tx.query(
        `UPDATE workspace_member SET role = 'admin' WHERE workspace_id = $1 AND user_id = $2`,
        [query.workspaceId, identity.userId],
      );
      await tx.query(
        `UPDATE workspace_member SET role = 'owner' WHERE workspace_id = $1 AND user_id = $2`,
        [query.workspaceId, body.userId],
      );
      forgetWorkspaceRoles(tx);
      await recordMembershipChange(changes, query.workspaceId);
      return { members: await listMembers(tx, query.workspaceId) };
    },
  };
}
