/**
 * Settings > Billing: the workspace's plan as the server has it (kept from Stripe's webhooks),
 * what the workspace uses of the plan's limits, and the ways to change it, both on Stripe's pages:
 * Checkout to start a paid plan (monthly or yearly), the customer portal to switch plan, change
 * the card or cancel. Everything here needs the network; offline it shows the last answer this
 * device saw, says so, and offers nothing that cannot work. A member who is not an owner or admin
 * sees it read-only, and without Stripe the server says payments are not configured.
 */
import { Check, CreditCard, ExternalLink, RotateCw } from 'lucide-react';
import { useCallback, useEffect, useState, useSyncExternalStore, type ReactNode } from 'react';
import { Label, Meter } from 'react-aria-components';
import type { CallEndpoint } from '#contract/define-endpoint.ts';
import {
  createCheckoutSession,
  createPortalSession,
  getSubscription,
  type WorkspaceSubscription,
} from '#contract/endpoints/subscription.ts';
import {
  getPlan,
  monthlyEquivalent,
  plans,
  yearlySavings,
  type BillingInterval,
  type Plan,
  type PlanId,
} from '#contract/entities/plan.ts';
import { Button } from '../../ui/button.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { TextLink } from '../../ui/text-link.tsx';
import { useCallEndpoint } from '../activity/activity-timeline.tsx';
import { FormAlert } from '../auth/form-alert.tsx';
import {
  formatActiveProjects,
  formatMembers,
  formatPrice,
  formatStorage,
  portalBrandingLabels,
} from '../marketing/plan-format.ts';
import {
  onSubscriptionSaved,
  readSavedSubscription,
  saveSubscription,
} from '../billing/workspace-plan.ts';
import { useOptionalSync } from '../workspace/sync-context.tsx';
import { useWorkspaceState } from '../workspace/use-workspace.ts';
import { apiErrorMessage } from './api-error-message.ts';
import { formatBytes } from '../files/file-format.ts';
import { SettingsSection } from './settings-section.tsx';

export interface BillingSettingsProps {
  /** The plan picked on the pricing page (`?plan=pro&interval=year`), if any. */
  requested?: { planId: PlanId; interval: BillingInterval } | null;
  /** The API client; the app's from the router context by default. */
  callEndpoint?: CallEndpoint;
  /** The workspace; by default the signed-in user's. */
  workspaceId?: string;
  /** Opens Stripe's page (Checkout, the portal); a full navigation by default. */
  openUrl?: (url: string) => void;
}

export const PAYMENTS_NOT_CONFIGURED_TEXT = 'Payments are not configured on this server.';

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'long' });

function subscribeOnline(listener: () => void) {
  window.addEventListener('online', listener);
  window.addEventListener('offline', listener);
  return () => {
    window.removeEventListener('online', listener);
    window.removeEventListener('offline', listener);
  };
}
const readOnline = () => globalThis.navigator?.onLine ?? true;

/** The signed-in user's workspace unless one is given; nothing without their data. */
export function BillingSettings(props: BillingSettingsProps) {
  if (props.workspaceId) return <Billing {...props} workspaceId={props.workspaceId} />;
  return <FromSync {...props} />;
}

function FromSync(props: BillingSettingsProps) {
  if (!useOptionalSync()) return <PlanCatalogue current={null} />;
  return <WithWorkspace {...props} />;
}

function WithWorkspace(props: BillingSettingsProps) {
  const state = useWorkspaceState();
  if (state.status !== 'ready') return <PlanCatalogue current={null} />;
  return <Billing {...props} workspaceId={state.workspace.id} />;
}

type Loaded =
  | { status: 'loading' }
  | { status: 'ready'; data: WorkspaceSubscription; savedAt: string | null }
  | { status: 'error'; message: string };

function Billing({
  workspaceId,
  requested = null,
  callEndpoint: override,
  openUrl = (url) => window.location.assign(url),
}: BillingSettingsProps & { workspaceId: string }) {
  const callEndpoint = useCallEndpoint(override);
  const online = useSyncExternalStore(subscribeOnline, readOnline, () => true);
  const [loaded, setLoaded] = useState<Loaded>({ status: 'loading' });
  const [busy, setBusy] = useState<string | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);

  const load = useCallback(async () => {
    if (!callEndpoint) return;
    setLoaded((current) => (current.status === 'ready' ? current : { status: 'loading' }));
    try {
      const data = await callEndpoint(getSubscription, { query: { workspaceId } });
      setLoaded({ status: 'ready', data, savedAt: null });
      saveSubscription(data);
    } catch (error) {
      // Offline (or the server unreachable): the last answer this device saw, if any.
      const cached =
        (error as { status?: number }).status === 0 ? readSavedSubscription(workspaceId) : null;
      setLoaded(
        cached
          ? { status: 'ready', data: cached.data, savedAt: cached.savedAt }
          : { status: 'error', message: apiErrorMessage(error) },
      );
    }
  }, [callEndpoint, workspaceId]);
  useEffect(() => {
    void load();
  }, [load]);
  // Back online: read it again (the plan may have changed meanwhile).
  useEffect(() => {
    if (online) void load();
  }, [online, load]);
  // A newer answer saved elsewhere in this tab (the hub said the plan changed): show it.
  useEffect(
    () =>
      onSubscriptionSaved((data) => {
        if (data.workspaceId === workspaceId) setLoaded({ status: 'ready', data, savedAt: null });
      }),
    [workspaceId],
  );

  const go = async (key: string, call: () => Promise<{ url: string }>): Promise<void> => {
    setBusy(key);
    setActionError(null);
    try {
      const { url } = await call();
      openUrl(url);
    } catch (error) {
      setActionError(apiErrorMessage(error));
      setBusy(null);
    }
  };
  const checkout = (plan: PlanId, interval: BillingInterval) =>
    go(`checkout:${plan}:${interval}`, () =>
      callEndpoint!(createCheckoutSession, { query: { workspaceId }, body: { plan, interval } }),
    );
  const portal = (key: string) =>
    go(key, () => callEndpoint!(createPortalSession, { query: { workspaceId } }));

  if (loaded.status === 'loading') {
    return (
      <p role="status" className="flex items-center gap-2 text-fg-muted">
        <Spinner size="small" /> Reading your plan…
      </p>
    );
  }
  if (loaded.status === 'error') {
    return (
      <div className="flex flex-col gap-6">
        <FormAlert>
          {online
            ? `Your plan could not be read. ${loaded.message}`
            : 'Billing needs the network, and this device is offline. Your plan and its limits still apply; come back here when you are online.'}{' '}
          <Button variant="secondary" onPress={() => void load()} className="mt-2">
            <RotateCw aria-hidden="true" size={16} /> Try again
          </Button>
        </FormAlert>
        <PlanCatalogue current={null} />
      </div>
    );
  }

  const { data } = loaded;
  const plan = getPlan(data.plan);
  const sub = data.subscription;
  const running = sub !== null && sub.status !== 'canceled';
  const canAct = data.paymentsConfigured && data.canManage && online;
  const wanted = requested && requested.planId !== data.plan ? requested : null;

  return (
    <div className="flex flex-col gap-6">
      <SettingsSection
        title="Your plan"
        description="Plans apply to your workspace. Your clients never need a plan or an account."
        icon={<CreditCard aria-hidden="true" size={20} />}
      >
        <div className="flex flex-col gap-5">
          <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
            <p className="text-2xl font-bold text-fg">{plan.name}</p>
            <p className="text-sm text-fg-muted">
              {running
                ? `${formatPrice(getPlan(sub.plan).prices[sub.interval])} / ${sub.interval}, paid ${sub.interval === 'year' ? 'yearly' : 'monthly'}`
                : 'Free, no card on file'}
            </p>
          </div>
          <StatusWords data={data} />
          {loaded.savedAt ? (
            <FormAlert tone="info">
              Offline: this is your plan as this device last saw it, on{' '}
              {dateFormat.format(new Date(loaded.savedAt))}. Changing it needs the network.
            </FormAlert>
          ) : !online ? (
            <FormAlert tone="info">You are offline: changing the plan needs the network.</FormAlert>
          ) : null}
          <UsageMeters data={data} plan={plan} />
          {!data.paymentsConfigured ? (
            <FormAlert tone="info">
              {PAYMENTS_NOT_CONFIGURED_TEXT} Everything in {plan.name} keeps working with no time
              limit; to sell paid plans, whoever runs this server sets STRIPE_SECRET_KEY (see the
              README).
            </FormAlert>
          ) : !data.canManage ? (
            <FormAlert tone="info">
              You can see the plan, but only the workspace&apos;s owner or an admin can change it or
              its payment method. Ask them if you need more room.
            </FormAlert>
          ) : null}
          {actionError ? <FormAlert>{actionError}</FormAlert> : null}
          {sub && data.paymentsConfigured && data.canManage ? (
            <div className="flex flex-col gap-3 sm:flex-row sm:flex-wrap">
              <Button
                variant={sub.status === 'past_due' ? 'primary' : 'secondary'}
                isDisabled={!canAct}
                isPending={busy === 'portal:card'}
                onPress={() => void portal('portal:card')}
              >
                <ExternalLink aria-hidden="true" size={16} />
                Manage payment method
              </Button>
              {running ? (
                <Button
                  variant="secondary"
                  isDisabled={!canAct}
                  isPending={busy === 'portal:cancel'}
                  onPress={() => void portal('portal:cancel')}
                >
                  {sub.cancelAtPeriodEnd ? 'Renew or change plan' : 'Change plan or cancel'}
                </Button>
              ) : null}
            </div>
          ) : null}
          {running && data.canManage && data.paymentsConfigured ? (
            <p className="text-sm text-fg-muted">
              Both open Stripe&apos;s customer portal, where you switch plan or interval, change the
              card, see invoices or cancel; it brings you back here.
            </p>
          ) : null}
        </div>
      </SettingsSection>

      {wanted ? (
        <p className="text-sm text-fg">
          You picked {getPlan(wanted.planId).name} (
          {wanted.interval === 'year' ? 'yearly' : 'monthly'}) on the pricing page. It is marked
          below.
        </p>
      ) : null}

      <PlanCatalogue
        current={data}
        wanted={wanted?.planId ?? null}
        actions={(candidate) => (
          <PlanActions
            plan={candidate}
            data={data}
            online={online}
            busy={busy}
            onCheckout={checkout}
            onPortal={() => void portal(`portal:${candidate.id}`)}
          />
        )}
      />
    </div>
  );
}

/** What the subscription's state means, in words, with what to do when something is wrong. */
function StatusWords({ data }: { data: WorkspaceSubscription }) {
  const sub = data.subscription;
  if (!sub) return null;
  const name = getPlan(sub.plan).name;
  const end = sub.currentPeriodEnd ? dateFormat.format(new Date(sub.currentPeriodEnd)) : null;
  if (sub.status === 'past_due') {
    return (
      <FormAlert>
        Past due: the last payment for {name} did not go through. Stripe is trying the card again,
        and your plan stays in force meanwhile. Update the payment method so it does not end.
      </FormAlert>
    );
  }
  if (sub.status === 'canceled') {
    return (
      <p className="text-sm text-fg">
        Your {name} subscription has ended, so the workspace is on Free. Nothing more is charged.
      </p>
    );
  }
  if (sub.cancelAtPeriodEnd) {
    return (
      <p className="text-sm text-fg">
        Active, and cancels{end ? ` on ${end}` : ' at the end of the period'}: the workspace goes
        back to Free then and nothing more is charged.
      </p>
    );
  }
  return (
    <p className="text-sm text-fg">
      Active{end ? `, renews on ${end}` : ''}. Stripe emails a receipt for each payment.
    </p>
  );
}

function UsageMeters({ data, plan }: { data: WorkspaceSubscription; plan: Plan }) {
  const { activeProjects, members, storageBytes } = data.usage;
  const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
  return (
    <div className="grid gap-4 sm:grid-cols-3">
      <Usage
        label="Active projects"
        used={activeProjects.used}
        max={activeProjects.max}
        text={
          activeProjects.max === null
            ? `${count(activeProjects.used, 'project', 'projects')}, unlimited on ${plan.name}`
            : `${activeProjects.used} of ${activeProjects.max}`
        }
        over={
          activeProjects.max !== null && activeProjects.used > activeProjects.max
            ? `More than ${plan.name} includes: archive or complete projects to start new ones.`
            : null
        }
      />
      <Usage
        label="Members"
        used={members.used}
        max={members.max}
        text={`${members.used} of ${members.max ?? 'unlimited'}`}
        over={null}
      />
      <Usage
        label="File storage"
        used={storageBytes.used}
        max={storageBytes.max}
        text={`${formatBytes(storageBytes.used)} of ${storageBytes.max === null ? 'unlimited' : formatBytes(storageBytes.max)}`}
        over={
          storageBytes.max !== null && storageBytes.used > storageBytes.max
            ? 'More than the plan holds: delete files to upload new ones.'
            : null
        }
      />
    </div>
  );
}

function Usage({
  label,
  used,
  max,
  text,
  over,
}: {
  label: string;
  used: number;
  max: number | null;
  text: string;
  over: string | null;
}) {
  if (max === null) {
    return (
      <div className="flex flex-col gap-2">
        <p className="text-sm font-medium text-fg">{label}</p>
        <p className="text-sm text-fg tabular-nums">{text}</p>
      </div>
    );
  }
  const share = max > 0 ? used / max : 1;
  return (
    <div className="flex flex-col gap-2">
      <Meter
        value={Math.min(used, max)}
        minValue={0}
        maxValue={Math.max(max, 1)}
        valueLabel={text}
        className="flex flex-col gap-2"
      >
        {({ percentage }) => (
          <>
            <div className="flex flex-wrap items-baseline justify-between gap-x-3">
              <Label className="text-sm font-medium text-fg">{label}</Label>
              <span className="text-sm text-fg tabular-nums">{text}</span>
            </div>
            <div className="h-2 overflow-hidden rounded-full bg-border">
              <div
                className={`h-full rounded-full ${share >= 0.9 ? 'bg-danger' : 'bg-brand'}`}
                style={{ width: `${used > 0 ? Math.max(percentage, 2) : 0}%` }}
              />
            </div>
          </>
        )}
      </Meter>
      {over ? <p className="text-sm text-danger">{over}</p> : null}
    </div>
  );
}

/** A plan card's buttons: Checkout for a workspace without a subscription, the portal with one. */
function PlanActions({
  plan,
  data,
  online,
  busy,
  onCheckout,
  onPortal,
}: {
  plan: Plan;
  data: WorkspaceSubscription;
  online: boolean;
  busy: string | null;
  onCheckout: (plan: PlanId, interval: BillingInterval) => Promise<void>;
  onPortal: () => void;
}) {
  if (plan.id === data.plan || !data.paymentsConfigured || !data.canManage) return null;
  const sub = data.subscription;
  const running = sub !== null && sub.status !== 'canceled';
  const upgrade = plan.prices.month > getPlan(data.plan).prices.month;
  if (running) {
    return (
      <Button variant="secondary" isDisabled={!online} onPress={onPortal}>
        {plan.prices.month === 0
          ? 'Downgrade: cancel in the portal'
          : `${upgrade ? 'Upgrade' : 'Downgrade'} in the portal`}
      </Button>
    );
  }
  const intervals = data.onSale.filter((item) => item.plan === plan.id);
  if (intervals.length === 0) {
    return <p className="text-sm text-fg-muted">Not sold on this server.</p>;
  }
  return (
    <div className="flex flex-col gap-2">
      {intervals.map(({ interval }) => (
        <Button
          key={interval}
          variant={interval === 'year' ? 'primary' : 'secondary'}
          isDisabled={!online || (busy !== null && busy !== `checkout:${plan.id}:${interval}`)}
          isPending={busy === `checkout:${plan.id}:${interval}`}
          onPress={() => void onCheckout(plan.id, interval)}
        >
          {upgrade ? 'Upgrade' : 'Switch'} to {plan.name}{' '}
          {interval === 'year' ? 'yearly' : 'monthly'}
        </Button>
      ))}
    </div>
  );
}

function PlanCatalogue({
  current,
  wanted = null,
  actions,
}: {
  current: WorkspaceSubscription | null;
  wanted?: PlanId | null;
  actions?: (plan: Plan) => ReactNode;
}) {
  return (
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
            isCurrent={plan.id === current?.plan}
            isRequested={plan.id === wanted}
            actions={actions?.(plan) ?? null}
          />
        ))}
      </ul>
    </section>
  );
}

function PlanLimitsList({ plan }: { plan: Plan }) {
  const { limits } = plan;
  const items = [
    formatActiveProjects(limits.activeProjects),
    formatMembers(limits.members),
    `${formatStorage(limits.storageBytes)} of files`,
    portalBrandingLabels[limits.portalBranding],
  ];
  return (
    <ul className="grid gap-2 text-sm text-fg">
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
  actions,
}: {
  plan: Plan;
  isCurrent: boolean;
  isRequested: boolean;
  actions: ReactNode;
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
      {actions ? <div className="mt-auto pt-2">{actions}</div> : null}
    </li>
  );
}
