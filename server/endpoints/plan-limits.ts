/**
 * The plan's limits, enforced where the data is written (the contract's plans are the one source:
 * the pricing page shows the same numbers). A workspace is on Free until subscriptions exist (the
 * money issue stores the plan); `workspacePlan` is the one place that will read it.
 */
import {
  activeProjectLimitMessage,
  DEFAULT_PLAN_ID,
  getPlan,
  UPGRADE_PATH,
  type Plan,
} from '#contract/entities/plan.ts';
import type { Queryable } from '../db/database.ts';
import { AppError, ErrorCode } from '../http/app-error.ts';

export { isActiveProject } from '#contract/entities/plan.ts';

export function workspacePlan(_tx: Queryable, _workspaceId: string): Promise<Plan> {
  return Promise.resolve(getPlan(DEFAULT_PLAN_ID));
}

/**
 * Refuses one more active project beyond the plan's limit. Call it after the workspace's change is
 * recorded: that row lock orders the workspace's writers, so two devices cannot both take the
 * last place.
 */
export async function requireActiveProjectRoom(
  tx: Queryable,
  workspaceId: string,
  exceptProjectId: string,
): Promise<void> {
  const plan = await workspacePlan(tx, workspaceId);
  const limit = plan.limits.activeProjects;
  if (limit === null) return;
  const { rows } = await tx.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM project
     WHERE workspace_id = $1 AND id <> $2 AND NOT archived AND status NOT IN ('completed', 'cancelled')`,
    [workspaceId, exceptProjectId],
  );
  if ((rows[0]?.n ?? 0) < limit) return;
  throw new AppError(ErrorCode.BUSINESS_RULE, activeProjectLimitMessage(plan), {
    details: {
      limit: 'activeProjects',
      plan: plan.id,
      max: limit,
      upgradePath: UPGRADE_PATH,
    },
  });
}
