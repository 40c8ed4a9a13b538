import * as v from 'valibot';

/**
 * The subscription plans, defined once: the pricing page shows them, billing sells them and the
 * server enforces their limits from this same data. Prices are in the currency's minor unit
 * (cents), so no float ever touches money.
 */
export const planIds = ['free', 'pro', 'agency'] as const;
export type PlanId = (typeof planIds)[number];
export const planIdSchema = v.picklist(planIds, 'Choose a plan');

export const billingIntervals = ['month', 'year'] as const;
export type BillingInterval = (typeof billingIntervals)[number];
export const billingIntervalSchema = v.picklist(billingIntervals, 'Choose monthly or yearly');

/**
 * How the client portal looks to a workspace's clients:
 * `satchel` Satchel's logo and colours; `workspace` the workspace's logo and accent colour with a
 * small "Shared through Satchel" line; `white-label` the workspace's brand and no Satchel mention.
 */
export const portalBrandings = ['satchel', 'workspace', 'white-label'] as const;
export type PortalBranding = (typeof portalBrandings)[number];

export const PLAN_CURRENCY = 'USD';

const GIB = 1024 ** 3;

export interface PlanLimits {
  /** Projects that are not archived, completed or cancelled; `null` is unlimited. */
  activeProjects: number | null;
  /** People who sign in to the workspace, the owner included. Clients never count. */
  members: number;
  /** Files across all projects, every version counted. */
  storageBytes: number;
  portalBranding: PortalBranding;
  /** Clients pay invoices by card in the portal (Stripe Checkout); without, the portal shows the
   * workspace's payment instructions. */
  cardPayments: boolean;
  /** Share links: a file sent to anyone by an expiring link (download cap, password). Without,
   * files reach a client through the portal only. */
  shareLinks: boolean;
}

export interface Plan {
  id: PlanId;
  name: string;
  /** One line: who the plan is for. */
  audience: string;
  /** Price per interval in cents of PLAN_CURRENCY; a yearly price is charged once a year. */
  prices: Record<BillingInterval, number>;
  limits: PlanLimits;
  /** Features beyond the limits, in display order; a dearer plan starts with "Everything in …". */
  highlights: readonly string[];
}

export const plans: readonly Plan[] = [
  {
    id: 'free',
    name: 'Free',
    audience: 'For trying Satchel with your first clients.',
    prices: { month: 0, year: 0 },
    limits: {
      activeProjects: 2,
      members: 1,
      storageBytes: 1 * GIB,
      portalBranding: 'satchel',
      cardPayments: false,
      shareLinks: false,
    },
    highlights: [
      'Unlimited clients',
      'Works offline, installs on any device',
      'Client portal with a password',
      'Milestone sign-off and change requests',
    ],
  },
  {
    id: 'pro',
    name: 'Pro',
    audience: 'For a freelancer with a full client list.',
    // Yearly is ten months' price: two months free.
    prices: { month: 1500, year: 15000 },
    limits: {
      activeProjects: null,
      members: 2,
      storageBytes: 50 * GIB,
      portalBranding: 'workspace',
      cardPayments: true,
      shareLinks: true,
    },
    highlights: [
      'Everything in Free',
      'Clients pay invoices by card through Stripe',
      'Expiring file links for clients',
    ],
  },
  {
    id: 'agency',
    name: 'Agency',
    audience: 'For a small studio working as a team.',
    prices: { month: 3900, year: 39000 },
    limits: {
      activeProjects: null,
      members: 10,
      storageBytes: 250 * GIB,
      portalBranding: 'white-label',
      cardPayments: true,
      shareLinks: true,
    },
    highlights: ['Everything in Pro', 'Room for a team that shares clients and projects'],
  },
];

/** The plan of every workspace until subscriptions are stored (the money issue). */
export const DEFAULT_PLAN_ID: PlanId = 'free';

/** Where the app offers an upgrade: Settings > Billing. */
export const UPGRADE_PATH = '/settings?tab=billing';

/**
 * The `details` of an error refusing an operation over the plan's limit
 * (server/endpoints/plan-limits.ts, server/files/file-records.ts): which limit, on which plan, its
 * allowance and, for storage, what was already used. The app words the refusal from these.
 */
export const planLimitRefusalSchema = v.object({
  limit: v.picklist(['activeProjects', 'members', 'storageBytes']),
  plan: planIdSchema,
  max: v.number(),
  used: v.optional(v.number()),
});
export type PlanLimitRefusal = v.InferOutput<typeof planLimitRefusalSchema>;

/** An error's `details` as a plan-limit refusal, or null when it is something else. */
export function planLimitRefusalOf(details: unknown): PlanLimitRefusal | null {
  const parsed = v.safeParse(planLimitRefusalSchema, details);
  return parsed.success ? parsed.output : null;
}

/** A project counts against `activeProjects` unless archived, completed or cancelled. */
export function isActiveProject(project: { status: string; archived: boolean }): boolean {
  return !project.archived && project.status !== 'completed' && project.status !== 'cancelled';
}

/** The words for a full active-project allowance, the same on the server and on the device. */
export function activeProjectLimitMessage(plan: Plan): string {
  return `The ${plan.name} plan includes ${plan.limits.activeProjects ?? 'unlimited'} active projects. Archive or complete one, or upgrade for unlimited projects.`;
}

/** The words for a plan without share links, the same on the server and on the device. */
export function shareLinksLimitMessage(plan: Plan): string {
  return `The ${plan.name} plan does not include share links. Share the file with your client in the client portal, or upgrade for expiring links.`;
}

export function getPlan(id: PlanId): Plan {
  const plan = plans.find((candidate) => candidate.id === id);
  if (!plan) throw new Error(`Unknown plan ${id}`);
  return plan;
}

/** What a year costs when paid monthly, minus the yearly price; 0 for a free plan. */
export function yearlySavings(plan: Plan): number {
  return Math.max(0, plan.prices.month * 12 - plan.prices.year);
}

/** The effective monthly price of an interval, in cents (a yearly price spread over 12 months). */
export function monthlyEquivalent(plan: Plan, interval: BillingInterval): number {
  return interval === 'year' ? Math.round(plan.prices.year / 12) : plan.prices.month;
}
