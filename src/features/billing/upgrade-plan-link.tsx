/**
 * The way out of a plan's limit: a link to Settings > Billing (UPGRADE_PATH, the path the server
 * puts in a limit refusal's details), wherever the app says a limit is reached. Also the plan this
 * device knows for a workspace, following every answer saved (workspace-plan.ts).
 */
import { useEffect, useState, type ReactNode } from 'react';
import { getPlan, UPGRADE_PATH, type Plan } from '#contract/entities/plan.ts';
import { TextLink } from '../../ui/text-link.tsx';
import { knownWorkspacePlan, onSubscriptionSaved } from './workspace-plan.ts';

export interface UpgradePlanLinkProps {
  children?: ReactNode;
  /** Also on press (a dialog closes itself). */
  onPress?: () => void;
  className?: string;
}

export function UpgradePlanLink({
  children = 'Upgrade plan',
  onPress,
  className,
}: UpgradePlanLinkProps) {
  return (
    <TextLink href={UPGRADE_PATH} {...(onPress ? { onPress } : {})} className={className ?? ''}>
      {children}
    </TextLink>
  );
}

/** The workspace's plan as last seen on this device (Free when never seen). */
export function useKnownPlan(workspaceId: string): Plan {
  const [planId, setPlanId] = useState(() => knownWorkspacePlan(workspaceId));
  useEffect(() => {
    setPlanId(knownWorkspacePlan(workspaceId));
    return onSubscriptionSaved((data) => {
      if (data.workspaceId === workspaceId) setPlanId(data.plan);
    });
  }, [workspaceId]);
  return getPlan(planId);
}

/** "1 member", "10 members". */
export const membersText = (count: number) => `${count} ${count === 1 ? 'member' : 'members'}`;
