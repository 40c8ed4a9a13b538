import { Check, CreditCard } from 'lucide-react';
import {
  DEFAULT_PLAN_ID,
  getPlan,
  monthlyEquivalent,
  plans,
  yearlySavings,
  type BillingInterval,
  type Plan,
  type PlanId,
} from '#contract/entities/plan.ts';
import { TextLink } from '../../ui/text-link.tsx';
import { FormAlert } from '../auth/form-alert.tsx';
import {
  formatActiveProjects,
  formatMembers,
  formatPrice,
  formatStorage,
  portalBrandingLabels,
} from '../marketing/plan-format.ts';
import { SettingsSection } from './settings-section.tsx';

/**
 * The workspace's plan. The server has no subscriptions yet (no plan is stored, no payment provider
 * is connected), so every workspace is on Free until that exists; then this comes from the server.
 */
const currentPlanId: PlanId = DEFAULT_PLAN_ID;

export interface BillingSettingsProps {
  /** The plan picked on the pricing page (`?plan=pro&interval=year`), if any. */
  requested?: { planId: PlanId; interval: BillingInterval } | null;
}

/**
 * Settings > Billing, where the pricing page and the billing result pages send people. It shows
 * the plan in force and the plans from the contract, and says plainly that paid plans cannot be
 * bought yet: there is no checkout to offer, and a button that pretends would be worse than none.
 */
export function BillingSettings({ requested = null }: BillingSettingsProps) {
  const current = getPlan(currentPlanId);
  const wanted = requested && requested.planId !== currentPlanId ? requested : null;
  return (
    <div className="flex flex-col gap-6">
      <SettingsSection
        title="Your plan"
        description="Plans apply to your workspace. Your clients never need a plan or an account."
        icon={<CreditCard aria-hidden="true" size={20} />}
      >
        <div className="flex flex-col gap-4">
          <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
            <p className="text-2xl font-bold text-fg">{current.name}</p>
            <p className="text-sm text-fg-muted">
              {current.prices.month === 0
                ? 'Free, no card on file'
                : `${formatPrice(current.prices.month)} / month`}
            </p>
          </div>
          <PlanLimitsList plan={current} columns={2} />
          <FormAlert tone="info">
            Paid plans cannot be bought yet: this Satchel server has no payment provider connected,
            so nothing can be charged and there is no subscription to cancel. Everything in{' '}
            {current.name} stays yours, with no time limit.
          </FormAlert>
          {wanted ? (
            <p className="text-sm text-fg">
              You picked {getPlan(wanted.planId).name} (
              {wanted.interval === 'year' ? 'yearly' : 'monthly'}) on the pricing page. It will be
              offered here when payments open; to ask about it now,{' '}
              <TextLink href="/contact">write to us</TextLink>.
            </p>
          ) : null}
        </div>
      </SettingsSection>

      <section aria-labelledby="billing-plans-heading" className="flex flex-col gap-4">
        <div>
          <h2 id="billing-plans-heading" className="text-lg font-semibold text-fg">
            Plans
          </h2>
          <p className="mt-1 text-sm text-fg-muted">
            Prices in US dollars, taxes added where they apply. Compare them in full on the{' '}
            <TextLink href="/pricing">pricing page</TextLink>.
          </p>
        </div>
        <ul className="grid gap-4 lg:grid-cols-3">
          {plans.map((plan) => (
            <PlanSummary
              key={plan.id}
              plan={plan}
              isCurrent={plan.id === currentPlanId}
              isRequested={plan.id === wanted?.planId}
            />
          ))}
        </ul>
      </section>
    </div>
  );
}

function PlanLimitsList({ plan, columns = 1 }: { plan: Plan; columns?: 1 | 2 }) {
  const { limits } = plan;
  const items = [
    formatActiveProjects(limits.activeProjects),
    formatMembers(limits.members),
    `${formatStorage(limits.storageBytes)} of files`,
    portalBrandingLabels[limits.portalBranding],
  ];
  return (
    <ul className={`grid gap-2 text-sm text-fg ${columns === 2 ? 'sm:grid-cols-2' : ''}`}>
      {items.map((item) => (
        <li key={item} className="flex items-start gap-2">
          <Check aria-hidden="true" size={16} className="mt-0.5 shrink-0 text-success" />
          {item}
        </li>
      ))}
    </ul>
  );
}

function PlanSummary({
  plan,
  isCurrent,
  isRequested,
}: {
  plan: Plan;
  isCurrent: boolean;
  isRequested: boolean;
}) {
  const savings = yearlySavings(plan);
  const headingId = `billing-plan-${plan.id}`;
  return (
    <li
      aria-labelledby={headingId}
      className={`flex flex-col gap-3 rounded-2xl border bg-surface p-5 ${isCurrent || isRequested ? 'border-brand ring-1 ring-brand' : 'border-border'}`}
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id={headingId} className="text-base font-semibold text-fg">
          {plan.name}
        </h3>
        {isCurrent ? (
          <span className="rounded-full bg-brand px-2.5 py-0.5 text-xs font-semibold text-on-brand">
            Current plan
          </span>
        ) : isRequested ? (
          <span className="rounded-full bg-brand-soft px-2.5 py-0.5 text-xs font-semibold text-brand">
            Your pick
          </span>
        ) : null}
      </div>
      <p className="text-sm text-fg-muted">{plan.audience}</p>
      <p className="text-sm text-fg">
        {plan.prices.month === 0 ? (
          'Free'
        ) : (
          <>
            <span className="font-semibold">{formatPrice(plan.prices.month)}</span> / month, or{' '}
            <span className="font-semibold">{formatPrice(plan.prices.year)}</span> / year (
            {formatPrice(monthlyEquivalent(plan, 'year'))} a month, save {formatPrice(savings)})
          </>
        )}
      </p>
      <PlanLimitsList plan={plan} />
      {isCurrent ? null : (
        <p className="mt-auto text-sm font-medium text-fg-muted">
          {plan.prices.month === 0 ? 'Included with every account' : 'Not on sale yet'}
        </p>
      )}
    </li>
  );
}
