/**
 * The one check of a caller's role for the members and invitation operations: the roles come from
 * the operation's declaration (contract/endpoints/workspace-invite.ts), never from the handler.
 */
import type { WithRoles } from '#contract/endpoints/workspace-invite.ts';
import type { EndpointDefinition } from '#contract/define-endpoint.ts';
import type { WorkspaceRole } from '#contract/entities/workspace.ts';
import type { Queryable } from '../db/database.ts';
import { requireWorkspaceRole } from './workspace-access.ts';

export function requireDeclaredRole(
  tx: Queryable,
  endpoint: WithRoles<EndpointDefinition>,
  workspaceId: string,
  userId: string,
): Promise<WorkspaceRole> {
  return requireWorkspaceRole(tx, workspaceId, userId, endpoint.roles);
}
