/**
 * The plan's limits, enforced where the data is written (the contract's plans are the one source:
 * the pricing page shows the same numbers). `workspacePlan` is the one place that reads which plan
 * a workspace is on: its subscription as Stripe's webhooks left it (server/stripe/), Free without
 * one. Where each limit is enforced:
 * - activeProjects: creating or reopening a project (requireActiveProjectRoom, project.ts);
 * - storageBytes: accepting an upload (requireStorageRoom, server/files/file-records.ts);
 * - members: accepting an invitation (requireMemberRoom, in the acceptance's transaction);
 * - portalBranding: the portal's workspace settings (client-portal.ts) show the workspace's brand
 *   only on a plan that includes it;
 * - cardPayments: the portal's invoices are payable by card, and pay-invoice opens a Checkout,
 *   only on a plan that includes it (portal-invoices.ts);
 * - shareLinks: making a share link (requireShareLinks, file-share-link.ts). Links made before a
 *   downgrade keep working until they expire or are turned off: a client already holding one is
 *   not cut off by the freelancer's billing.
 */
import {
  activeProjectLimitMessage,
  DEFAULT_PLAN_ID,
  shareLinksLimitMessage,
  getPlan,
  UPGRADE_PATH,
  type Plan,
  type PlanId,
} from '#contract/entities/plan.ts';
import type { Queryable } from '../db/database.ts';
import { AppError, ErrorCode } from '../http/app-error.ts';

export { isActiveProject } from '#contract/entities/plan.ts';

export async function workspacePlan(tx: Queryable, workspaceId: string): Promise<Plan> {
  const { rows } = await tx.query<{ plan_id: PlanId; status: string }>(
    'SELECT plan_id, status FROM workspace_subscription WHERE workspace_id = $1',
    [workspaceId],
  );
  const row = rows[0];
  // past_due keeps the paid plan: Stripe is still retrying the card (Smart Retries, for up to a
  // few weeks) and the subscription has not ended; taking the limits away at the first failed
  // charge would lock a workspace out of its own projects over an expired card. When the retries
  // run out Stripe cancels it (or marks it unpaid), and that event takes the plan back to Free.
  if (row && (row.status === 'active' || row.status === 'past_due')) return getPlan(row.plan_id);
  return getPlan(DEFAULT_PLAN_ID);
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

/** Refuses a new share link on a plan without them (after the caller checked membership, so a
 * stranger learns nothing of the workspace's plan). */
export async function requireShareLinks(tx: Queryable, workspaceId: string): Promise<void> {
  const plan = await workspacePlan(tx, workspaceId);
  if (plan.limits.shareLinks) return;
  throw new AppError(ErrorCode.BUSINESS_RULE, shareLinksLimitMessage(plan), {
    details: { limit: 'shareLinks', plan: plan.id, upgradePath: UPGRADE_PATH },
  });
}

/** The words for a full member allowance. */
export function memberLimitMessage(plan: Plan): string {
  return `The ${plan.name} plan includes ${plan.limits.members} ${plan.limits.members === 1 ? 'member' : 'members'}, the owner included. Upgrade for room for more people.`;
}

/**
 * Refuses one more member beyond the plan's limit. Call it in the transaction that inserts the
 * member row, before the insert; the workspace row is locked first so two invitations accepted at
 * once cannot both take the last place.
 */
export async function requireMemberRoom(tx: Queryable, workspaceId: string): Promise<void> {
  await tx.query('SELECT 1 FROM workspace WHERE id = $1 FOR UPDATE', [workspaceId]);
  const plan = await workspacePlan(tx, workspaceId);
  const limit = plan.limits.members;
  const { rows } = await tx.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM workspace_member WHERE workspace_id = $1',
    [workspaceId],
  );
  if ((rows[0]?.n ?? 0) < limit) return;
  throw new AppError(ErrorCode.BUSINESS_RULE, memberLimitMessage(plan), {
    details: { limit: 'members', plan: plan.id, max: limit, upgradePath: UPGRADE_PATH },
  });
}
