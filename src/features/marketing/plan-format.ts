import {
  PLAN_CURRENCY,
  type BillingInterval,
  type Plan,
  type PlanId,
  type PlanLimits,
  type PortalBranding,
} from '#contract/entities/plan.ts';

const wholeDollars = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: PLAN_CURRENCY,
  maximumFractionDigits: 0,
});
const withCents = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: PLAN_CURRENCY,
  minimumFractionDigits: 2,
});

/** "$15", or "$12.50" when there are cents. */
export function formatPrice(cents: number): string {
  return cents % 100 === 0 ? wholeDollars.format(cents / 100) : withCents.format(cents / 100);
}

const GIB = 1024 ** 3;

export function formatStorage(bytes: number): string {
  return bytes >= 1024 * GIB ? `${bytes / (1024 * GIB)} TB` : `${bytes / GIB} GB`;
}

export function formatActiveProjects(limit: PlanLimits['activeProjects']): string {
  if (limit === null) return 'Unlimited active projects';
  return limit === 1 ? '1 active project' : `${limit} active projects`;
}

export function formatMembers(members: number): string {
  return members === 1 ? '1 member (just you)' : `Up to ${members} members`;
}

export const portalBrandingLabels: Record<PortalBranding, string> = {
  satchel: 'Portal in Satchel colours',
  workspace: 'Portal with your logo and colours',
  'white-label': 'Portal in your brand, no Satchel mention',
};

/**
 * Where a plan's button leads. Billing lives in Settings; a visitor signs up first and lands
 * there with the plan and interval picked (the sign-up page honours a same-origin returnTo).
 */
export function planActionHref(
  planId: PlanId,
  interval: BillingInterval,
  isSignedIn: boolean,
): string {
  if (planId === 'free') return isSignedIn ? '/settings?tab=billing' : '/signup';
  const billing = `/settings?tab=billing&plan=${planId}&interval=${interval}`;
  return isSignedIn ? billing : `/signup?returnTo=${encodeURIComponent(billing)}`;
}

export function planPriceLine(plan: Plan, interval: BillingInterval): string {
  if (plan.prices.month === 0) return 'Free, no card needed';
  return interval === 'year'
    ? `${formatPrice(plan.prices.year)} billed once a year`
    : 'Billed monthly, cancel any time';
}
