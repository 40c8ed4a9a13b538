import { CircleCheck, CircleX, LoaderCircle, Receipt, Undo2, type LucideIcon } from 'lucide-react';
import type { CallEndpoint } from '#contract/define-endpoint.ts';
import { getPlan } from '#contract/entities/plan.ts';
import { LinkButton } from '../../ui/link-button.tsx';
import { TextLink } from '../../ui/text-link.tsx';
import { usePageTitle } from '../../ui/use-page-title.ts';
import { useCallEndpoint } from '../activity/activity-timeline.tsx';
import { useCheckoutResult, type CheckoutResult } from '../billing/use-checkout-result.ts';
import { getSitePage } from './site-pages.ts';
import { useTakeOverPrerenderedPage } from './use-prerendered-takeover.ts';

export type BillingResultKind =
  'billing-success' | 'billing-error' | 'subscription-success' | 'subscription-cancel';

interface ResultContent {
  path: '/billing-success' | '/billing-error' | '/subscription/success' | '/subscription/cancel';
  title: string;
  lead: string;
  next: readonly string[];
  Icon: LucideIcon;
  tone: 'success' | 'danger' | 'neutral';
  /** Used in the subject of a support message about this result. */
  supportSubject: string;
}

const billingHref = '/settings?tab=billing';

/**
 * /billing-success and /billing-error are where Stripe sends a client back from paying a
 * freelancer's invoice (the portal's Pay button); /subscription/* where it sends a workspace
 * owner back from buying a plan (Settings > Billing).
 */
const content: Record<BillingResultKind, ResultContent> = {
  'billing-success': {
    path: '/billing-success',
    title: 'Payment received',
    lead: 'Thank you. Your payment went through, and your invoice will show as paid.',
    next: [
      'Stripe emails you a receipt.',
      'The invoice shows as paid in your client portal within a minute, and the people you work with see the payment too.',
      'There is nothing else to send.',
    ],
    Icon: CircleCheck,
    tone: 'success',
    supportSubject: 'Question about a payment',
  },
  'billing-error': {
    path: '/billing-error',
    title: 'Payment failed',
    lead: 'The payment did not go through, and nothing was charged.',
    next: [
      'The card may have been declined, or the bank asked for a confirmation that was not completed.',
      'Try again from the invoice, with the same card or another one.',
      'If a card keeps failing, its bank can say why; or write to us with the payment reference below.',
    ],
    Icon: CircleX,
    tone: 'danger',
    supportSubject: 'Payment failed',
  },
  'subscription-success': {
    path: '/subscription/success',
    title: 'Subscription active',
    lead: 'Welcome aboard. Your plan is ready to use.',
    next: [
      'Your new limits apply now, on every device.',
      'Stripe emails you a receipt; the plan renews until you cancel it.',
      'Change or cancel it any time in Settings, under Billing.',
    ],
    Icon: CircleCheck,
    tone: 'success',
    supportSubject: 'Question about my subscription',
  },
  'subscription-cancel': {
    path: '/subscription/cancel',
    title: 'Checkout cancelled',
    lead: 'You left the checkout, so no new plan was started and nothing was charged.',
    next: [
      'Your current plan and everything in your workspace stay as they were.',
      'You can pick a plan again whenever you like, in Settings under Billing.',
    ],
    Icon: Undo2,
    tone: 'neutral',
    supportSubject: 'Question about subscribing',
  },
};

/** What the page says once the server has answered about the Checkout (subscription-success). */
function checkoutWords(result: CheckoutResult): Partial<ResultContent> | null {
  switch (result.status) {
    case 'checking':
      return {
        title: 'Confirming your subscription',
        lead: 'Stripe took the payment; confirming your new plan with the server…',
        next: ['This usually takes a few seconds. You can keep this page open.'],
        Icon: LoaderCircle,
        tone: 'neutral',
      };
    case 'in-force': {
      const plan = getPlan(result.plan);
      return {
        lead: `Your workspace is on ${plan.name} now.`,
        next: [
          `${plan.name}'s limits apply now, on every device.`,
          'Stripe emails you a receipt; the plan renews until you cancel it.',
          'Change or cancel it any time in Settings, under Billing.',
        ],
      };
    }
    case 'late':
      return {
        title: 'Payment received, plan on its way',
        lead: `Stripe took the payment for ${getPlan(result.plan).name}, but its confirmation has not reached this server yet.`,
        next: [
          'It usually arrives within a minute: reload this page, or open Settings, under Billing.',
          'You will not be charged twice.',
        ],
        tone: 'neutral',
      };
    case 'not-paid':
      return {
        title: 'No subscription started',
        lead: result.expired
          ? 'This checkout expired before it was paid, so nothing was charged.'
          : 'This checkout was not finished, so nothing was charged.',
        next: ['Your plan stays as it was. Pick a plan again in Settings, under Billing.'],
        Icon: Undo2,
        tone: 'neutral',
      };
    case 'signed-out':
      return {
        title: 'Sign in to see your plan',
        lead: 'Stripe sent you back here. Sign in to see whether your new plan is in force.',
        next: ['Your plan shows in Settings, under Billing, once you are signed in.'],
        tone: 'neutral',
      };
    case 'failed':
      return {
        title: 'Could not confirm your plan',
        lead: `The server could not say how the checkout went. ${result.message}`,
        next: ['Your plan shows in Settings, under Billing.'],
        tone: 'neutral',
      };
  }
}

const toneClasses = {
  success: 'bg-success/15 text-success',
  danger: 'bg-danger/15 text-danger',
  neutral: 'bg-brand-soft text-brand',
} as const;

/** Stripe checkout session ids look like `cs_test_a1B2…` or `cs_live_…`. */
const SESSION_ID = /^cs_[A-Za-z0-9_]{8,250}$/;

/** A path of this site to go back to (the invoice in the portal); never another origin. */
export function safeBackPath(back: string | undefined): string | null {
  if (back === undefined || back.length > 512) return null;
  return /^\/(?![/\\])[^\s\\]*$/.test(back) ? back : null;
}

export interface BillingResultScreenProps {
  kind: BillingResultKind;
  /** `session_id` from the query, as Stripe sends the visitor back; unchecked. */
  sessionId: string | undefined;
  /** `back` from the query: the invoice page the payment started from (invoice results). */
  back?: string | undefined;
  /** The API client; the app's from the router context by default. */
  callEndpoint?: CallEndpoint;
  /** Between two questions to the server while the subscription is being confirmed. */
  pollMs?: number;
}

/** Where Stripe sends the visitor back: what happened, and the next step. */
export function BillingResultScreen({
  kind,
  sessionId,
  back,
  callEndpoint: override,
  pollMs,
}: BillingResultScreenProps) {
  usePageTitle(getSitePage(content[kind].path).title ?? undefined);
  useTakeOverPrerenderedPage();
  const reference = sessionId !== undefined && SESSION_ID.test(sessionId) ? sessionId : null;
  const callEndpoint = useCallEndpoint(override);
  const checkout = useCheckoutResult(
    kind === 'subscription-success' ? reference : null,
    callEndpoint,
    pollMs,
  );
  const result = { ...content[kind], ...(checkout ? checkoutWords(checkout) : null) };
  const backPath = safeBackPath(back);
  const supportHref = `/contact?subject=${encodeURIComponent(
    reference ? `${result.supportSubject} (reference ${reference})` : result.supportSubject,
  )}`;
  const { Icon } = result;
  return (
    <div className="mx-auto max-w-2xl px-4 py-12 sm:px-6 sm:py-20">
      <div className="rounded-3xl border border-border bg-surface p-6 shadow-sm sm:p-10">
        <span className={`grid size-14 place-items-center rounded-2xl ${toneClasses[result.tone]}`}>
          <Icon
            aria-hidden="true"
            size={30}
            className={
              checkout?.status === 'checking' ? 'animate-spin motion-reduce:animate-none' : ''
            }
          />
        </span>
        <h1 className="mt-6 text-3xl font-extrabold tracking-tight text-balance text-fg sm:text-4xl">
          {result.title}
        </h1>
        <p
          className="mt-3 text-lg text-fg-muted"
          {...(checkout ? { role: 'status', 'data-testid': 'checkout-result' } : {})}
        >
          {result.lead}
        </p>
        <h2 className="mt-8 text-sm font-semibold text-fg">What happens next</h2>
        <ul className="mt-3 space-y-2 text-fg">
          {result.next.map((line) => (
            <li key={line} className="flex gap-3">
              <span aria-hidden="true" className="mt-2.5 size-1.5 shrink-0 rounded-full bg-brand" />
              {line}
            </li>
          ))}
        </ul>
        <div className="mt-8 flex flex-col gap-3 sm:flex-row sm:flex-wrap">
          <PrimaryActions kind={kind} back={backPath} />
          <LinkButton href={supportHref} variant="ghost" size="large">
            Contact support
          </LinkButton>
        </div>
        <div className="mt-8 flex gap-3 rounded-xl bg-surface-muted px-4 py-3 text-sm text-fg-muted">
          <Receipt aria-hidden="true" size={18} className="mt-0.5 shrink-0" />
          <p data-testid="payment-reference">
            {reference ? (
              <>
                Payment reference:{' '}
                <code className="font-mono font-semibold break-all text-fg">{reference}</code>. Keep
                it if you <TextLink href={supportHref}>contact us</TextLink> about this payment.
              </>
            ) : sessionId !== undefined ? (
              <>
                The link carried a payment reference we do not recognise, so it is not shown. Your
                billing page lists every payment; <TextLink href={supportHref}>contact us</TextLink>{' '}
                if something looks wrong.
              </>
            ) : (
              <>
                This page was opened without a payment reference, so it cannot tell which payment it
                is about. Your billing page lists every payment, or{' '}
                <TextLink href={supportHref}>contact us</TextLink>.
              </>
            )}
          </p>
        </div>
      </div>
    </div>
  );
}

function PrimaryActions({ kind, back }: { kind: BillingResultKind; back: string | null }) {
  switch (kind) {
    // A client paying an invoice has no Satchel account: back is the invoice, when known.
    case 'billing-success':
      return back ? (
        <LinkButton href={back} size="large">
          Back to your invoice
        </LinkButton>
      ) : null;
    case 'billing-error':
      return back ? (
        <LinkButton href={back} size="large">
          Try again
        </LinkButton>
      ) : null;
    case 'subscription-success':
      return (
        <>
          <LinkButton href="/dashboard" size="large">
            Open your dashboard
          </LinkButton>
          <LinkButton href={billingHref} variant="secondary" size="large">
            Manage your plan
          </LinkButton>
        </>
      );
    case 'subscription-cancel':
      return (
        <>
          <LinkButton href={billingHref} size="large">
            Back to billing
          </LinkButton>
          <LinkButton href="/pricing" variant="secondary" size="large">
            Compare plans
          </LinkButton>
        </>
      );
  }
}
