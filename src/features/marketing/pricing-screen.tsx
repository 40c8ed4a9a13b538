import { Check, Minus } from 'lucide-react';
import { useState } from 'react';
import { ToggleButton, ToggleButtonGroup, type Key } from 'react-aria-components';
import {
  monthlyEquivalent,
  plans,
  yearlySavings,
  type BillingInterval,
  type Plan,
  type PlanId,
} from '#contract/entities/plan.ts';
import { LinkButton } from '../../ui/link-button.tsx';
import { TextLink } from '../../ui/text-link.tsx';
import { usePageTitle } from '../../ui/use-page-title.ts';
import { CallToAction, PageHeader, SectionHeading } from './marketing-blocks.tsx';
import {
  formatActiveProjects,
  formatMembers,
  formatPrice,
  formatStorage,
  planActionHref,
  planPriceLine,
  portalBrandingLabels,
} from './plan-format.ts';
import { sitePageTitle } from './site-pages.ts';
import { useTakeOverPrerenderedPage } from './use-prerendered-takeover.ts';

export interface PricingScreenProps {
  /** The signed-in user's plan, or null for a visitor. */
  currentPlanId: PlanId | null;
}

/** Plans side by side, monthly or yearly, with what each includes and the way to get it. */
export function PricingScreen({ currentPlanId }: PricingScreenProps) {
  usePageTitle(sitePageTitle('/pricing'));
  useTakeOverPrerenderedPage();
  const [interval, setBillingInterval] = useState<BillingInterval>('month');
  const isSignedIn = currentPlanId !== null;
  return (
    <>
      <PageHeader
        eyebrow="Plans for freelancers and agencies"
        title="Pricing"
        lead="Start free. Pay when you outgrow two active projects, and only for what you use. Your clients never need a plan."
        align="center"
      >
        <div className="mt-8 flex flex-col items-center gap-2">
          <IntervalToggle value={interval} onChange={setBillingInterval} />
          <p className="text-sm text-fg-muted">
            Prices in US dollars. Taxes added where they apply.
          </p>
        </div>
      </PageHeader>

      <section aria-label="Plans" className="mx-auto max-w-6xl px-4 py-12 sm:px-6 sm:py-16">
        <ul className="grid gap-6 lg:grid-cols-3">
          {plans.map((plan) => (
            <PlanCard
              key={plan.id}
              plan={plan}
              interval={interval}
              isCurrent={plan.id === currentPlanId}
              isSignedIn={isSignedIn}
            />
          ))}
        </ul>
      </section>

      <section aria-labelledby="compare-heading" className="border-t border-border bg-surface">
        <div className="mx-auto max-w-6xl px-4 py-14 sm:px-6 sm:py-20">
          <SectionHeading
            id="compare-heading"
            title="Compare plans"
            lead="Every plan works offline, installs on any device and includes the client portal."
          />
          <ComparisonTable currentPlanId={currentPlanId} />
          <p className="mt-3 text-sm text-fg-muted sm:hidden">
            Swipe the table sideways to see every plan.
          </p>
        </div>
      </section>

      <section aria-labelledby="billing-faq-heading" className="border-t border-border">
        <div className="mx-auto max-w-6xl px-4 py-14 sm:px-6 sm:py-20">
          <SectionHeading id="billing-faq-heading" title="Questions about plans" />
          <dl className="mt-8 grid gap-x-10 gap-y-8 md:grid-cols-2">
            {billingQuestions.map((item) => (
              <div key={item.question}>
                <dt className="font-semibold text-fg">{item.question}</dt>
                <dd className="mt-2 text-fg-muted">{item.answer}</dd>
              </div>
            ))}
          </dl>
          <p className="mt-10 text-fg-muted">
            More answers in the <TextLink href="/faq">FAQ</TextLink>, or{' '}
            <TextLink href="/contact">write to us</TextLink>.
          </p>
        </div>
      </section>

      <CallToAction
        title="Try it on your next project"
        body="The Free plan has every feature you need to run two projects with your clients. Upgrade when you are ready."
        secondary={{ href: '/faq', label: 'Read the FAQ' }}
      />
    </>
  );
}

const billingQuestions = [
  {
    question: 'Do my clients need a plan or an account?',
    answer:
      'No. Clients open the portal with the link and password you give them. They never count as members and never pay Satchel.',
  },
  {
    question: 'What counts as an active project?',
    answer:
      'Any project that is not completed or archived. Completed and archived projects stay readable, searchable and in the portal history, and do not count.',
  },
  {
    question: 'Can I change plans later?',
    answer:
      'Yes, from Settings › Billing once paid plans open (today every workspace is on Free). An upgrade will apply at once; a downgrade at the end of the period you have paid for.',
  },
  {
    question: 'What happens if I go over a limit after downgrading?',
    answer:
      'Nothing is deleted and nothing stops working for your clients. You cannot start new active projects, add members or upload files until you are back under the limit.',
  },
  {
    question: 'How do I pay?',
    answer:
      'By card, through a Stripe checkout page you open from Settings > Billing. Satchel never sees or stores your card number.',
  },
  {
    question: 'Monthly or yearly?',
    answer:
      'A yearly plan costs ten months of the monthly price, paid once a year. You can switch at renewal.',
  },
] as const;

interface IntervalToggleProps {
  value: BillingInterval;
  onChange: (interval: BillingInterval) => void;
}

function IntervalToggle({ value, onChange }: IntervalToggleProps) {
  const onSelectionChange = (keys: Set<Key>) => {
    const [first] = keys;
    if (first === 'month' || first === 'year') onChange(first);
  };
  const itemClass =
    'inline-flex min-h-11 cursor-pointer items-center gap-2 rounded-full px-5 text-sm font-semibold text-fg-muted transition-colors hover:text-fg data-selected:bg-brand data-selected:text-on-brand';
  return (
    <ToggleButtonGroup
      aria-label="Billing period"
      selectionMode="single"
      disallowEmptySelection
      selectedKeys={[value]}
      onSelectionChange={onSelectionChange}
      className="inline-flex rounded-full border border-border bg-surface p-1 shadow-sm"
    >
      <ToggleButton id="month" className={itemClass}>
        Monthly
      </ToggleButton>
      <ToggleButton id="year" className={itemClass}>
        {({ isSelected }) => (
          <>
            Yearly
            <span
              className={`rounded-full px-2 py-0.5 text-xs ${isSelected ? 'bg-on-brand/15' : 'bg-brand-soft text-brand'}`}
            >
              2 months free
            </span>
          </>
        )}
      </ToggleButton>
    </ToggleButtonGroup>
  );
}

interface PlanCardProps {
  plan: Plan;
  interval: BillingInterval;
  isCurrent: boolean;
  isSignedIn: boolean;
}

function PlanCard({ plan, interval, isCurrent, isSignedIn }: PlanCardProps) {
  const perMonth = monthlyEquivalent(plan, interval);
  const savings = interval === 'year' ? yearlySavings(plan) : 0;
  const { limits } = plan;
  return (
    <li
      className={`relative flex flex-col rounded-2xl border bg-surface p-6 sm:p-8 ${isCurrent ? 'border-brand shadow-lg ring-2 shadow-brand/10 ring-brand' : 'border-border shadow-sm'}`}
    >
      <div className="flex items-center justify-between gap-3">
        <h2 className="text-xl font-bold text-fg">{plan.name}</h2>
        {isCurrent ? (
          <span className="rounded-full bg-brand px-3 py-1 text-xs font-semibold text-on-brand">
            Your plan
          </span>
        ) : null}
      </div>
      <p className="mt-1 text-fg-muted">{plan.audience}</p>
      <p className="mt-6 flex items-baseline gap-1.5">
        <span className="text-4xl font-extrabold tracking-tight text-fg">
          {formatPrice(perMonth)}
        </span>
        <span className="text-fg-muted">/ month</span>
      </p>
      <p className="mt-1 min-h-6 text-sm text-fg-muted">
        {planPriceLine(plan, interval)}
        {savings > 0 ? (
          <span className="font-semibold text-success"> · save {formatPrice(savings)}</span>
        ) : null}
      </p>
      <div className="mt-6">
        {isCurrent ? (
          <LinkButton
            href="/settings?tab=billing"
            variant="secondary"
            size="large"
            className="w-full"
          >
            Manage your plan
          </LinkButton>
        ) : (
          <LinkButton
            href={planActionHref(plan.id, interval, isSignedIn)}
            variant={plan.id === 'free' ? 'secondary' : 'primary'}
            size="large"
            className="w-full"
            aria-label={`${actionLabel(plan, isSignedIn)}: ${plan.name} plan`}
          >
            {actionLabel(plan, isSignedIn)}
          </LinkButton>
        )}
      </div>
      <ul className="mt-8 space-y-3 border-t border-border pt-6 text-fg">
        {[
          formatActiveProjects(limits.activeProjects),
          formatMembers(limits.members),
          `${formatStorage(limits.storageBytes)} of file storage`,
          portalBrandingLabels[limits.portalBranding],
        ].map((line) => (
          <li key={line} className="flex gap-3 font-medium">
            <Check aria-hidden="true" size={20} className="mt-0.5 shrink-0 text-brand" />
            {line}
          </li>
        ))}
      </ul>
      <ul className="mt-3 space-y-3 text-fg-muted">
        {plan.highlights.map((line) => (
          <li key={line} className="flex gap-3">
            <Check aria-hidden="true" size={20} className="mt-0.5 shrink-0 text-fg-muted" />
            {line}
          </li>
        ))}
      </ul>
    </li>
  );
}

function actionLabel(plan: Plan, isSignedIn: boolean): string {
  if (plan.id === 'free') return isSignedIn ? 'Go to billing' : 'Start free';
  return isSignedIn ? `Switch to ${plan.name}` : `Get ${plan.name}`;
}

type Cell = string | boolean;

const comparisonRows: readonly { label: string; cells: (plan: Plan) => Cell }[] = [
  {
    label: 'Active projects',
    cells: (plan) => plan.limits.activeProjects?.toString() ?? 'Unlimited',
  },
  { label: 'Members', cells: (plan) => plan.limits.members.toString() },
  { label: 'File storage', cells: (plan) => formatStorage(plan.limits.storageBytes) },
  {
    label: 'Portal branding',
    cells: (plan) =>
      ({
        satchel: 'Satchel',
        workspace: 'Your logo and colours',
        'white-label': 'Your brand only',
      })[plan.limits.portalBranding],
  },
  { label: 'Clients', cells: () => 'Unlimited' },
  { label: 'Works offline, installs on any device', cells: () => true },
  { label: 'Client portal with password', cells: () => true },
  { label: 'Milestone sign-off and change requests', cells: () => true },
  { label: 'Tasks, kanban, notes, calendar and chat', cells: () => true },
  { label: 'Card payments from clients (Stripe)', cells: (plan) => plan.limits.cardPayments },
  { label: 'Expiring file links for clients', cells: (plan) => plan.limits.shareLinks },
];

function ComparisonTable({ currentPlanId }: { currentPlanId: PlanId | null }) {
  return (
    // The table keeps its columns on a phone and scrolls sideways; the region can take focus
    // so a keyboard user can scroll it too.
    <div
      role="region"
      aria-label="Plan comparison table"
      tabIndex={0}
      className="mt-10 overflow-x-auto rounded-2xl border border-border"
    >
      <table className="w-full min-w-[34rem] border-collapse text-left">
        <caption className="sr-only">What each plan includes</caption>
        <thead>
          <tr className="bg-surface-muted">
            <td className="sticky left-0 w-36 bg-surface-muted px-4 py-3 sm:w-2/5">
              <span className="sr-only">Feature</span>
            </td>
            {plans.map((plan) => (
              <th key={plan.id} scope="col" className="px-4 py-3 font-semibold text-fg">
                {plan.name}
                {plan.id === currentPlanId ? (
                  <span className="ml-2 text-sm font-medium text-brand">(your plan)</span>
                ) : null}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {comparisonRows.map((row) => (
            <tr key={row.label} className="border-t border-border bg-canvas">
              {/* The feature names stay in view while the plans scroll by on a phone. */}
              <th
                scope="row"
                className="sticky left-0 bg-canvas px-4 py-3 text-sm font-medium text-fg sm:text-base"
              >
                {row.label}
              </th>
              {plans.map((plan) => (
                <td key={plan.id} className="px-4 py-3 text-fg-muted">
                  <ComparisonCell value={row.cells(plan)} />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function ComparisonCell({ value }: { value: Cell }) {
  if (value === true) {
    return (
      <>
        <Check aria-hidden="true" size={20} className="text-success" />
        <span className="sr-only">Included</span>
      </>
    );
  }
  if (value === false) {
    return (
      <>
        <Minus aria-hidden="true" size={20} className="text-fg-muted" />
        <span className="sr-only">Not included</span>
      </>
    );
  }
  return <>{value}</>;
}
