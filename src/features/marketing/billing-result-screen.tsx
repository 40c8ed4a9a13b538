import { CircleCheck, CircleX, Receipt, Undo2, type LucideIcon } from 'lucide-react';
import { LinkButton } from '../../ui/link-button.tsx';
import { TextLink } from '../../ui/text-link.tsx';
import { usePageTitle } from '../../ui/use-page-title.ts';
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

const content: Record<BillingResultKind, ResultContent> = {
  'billing-success': {
    path: '/billing-success',
    title: 'Payment received',
    lead: 'Thank you. Your payment went through.',
    next: [
      'Stripe emails you a receipt.',
      'The payment appears in Settings, under Billing, within a minute.',
    ],
    Icon: CircleCheck,
    tone: 'success',
    supportSubject: 'Question about a payment',
  },
  'billing-error': {
    path: '/billing-error',
    title: 'Payment failed',
    lead: 'Your payment did not go through, and you have not been charged.',
    next: [
      'The card may have been declined, or the bank asked for a confirmation that was not completed.',
      'Try again from the billing page, with the same card or another one.',
      'If it keeps failing, write to us with the payment reference below.',
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
    title: 'Subscription cancelled',
    lead: 'You left the checkout, so no new plan was started and nothing was charged.',
    next: [
      'Your current plan and everything in your workspace stay as they were.',
      'You can pick a plan again whenever you like.',
    ],
    Icon: Undo2,
    tone: 'neutral',
    supportSubject: 'Question about subscribing',
  },
};

const toneClasses = {
  success: 'bg-success/15 text-success',
  danger: 'bg-danger/15 text-danger',
  neutral: 'bg-brand-soft text-brand',
} as const;

/** Stripe checkout session ids look like `cs_test_a1B2…` or `cs_live_…`. */
const SESSION_ID = /^cs_[A-Za-z0-9_]{8,250}$/;

export interface BillingResultScreenProps {
  kind: BillingResultKind;
  /** `session_id` from the query, as Stripe sends the visitor back; unchecked. */
  sessionId: string | undefined;
}

/** Where Stripe sends the visitor back: what happened, and the next step. */
export function BillingResultScreen({ kind, sessionId }: BillingResultScreenProps) {
  const result = content[kind];
  usePageTitle(getSitePage(result.path).title ?? undefined);
  useTakeOverPrerenderedPage();
  const reference = sessionId !== undefined && SESSION_ID.test(sessionId) ? sessionId : null;
  const supportHref = `/contact?subject=${encodeURIComponent(
    reference ? `${result.supportSubject} (reference ${reference})` : result.supportSubject,
  )}`;
  const { Icon } = result;
  return (
    <div className="mx-auto max-w-2xl px-4 py-12 sm:px-6 sm:py-20">
      <div className="rounded-3xl border border-border bg-surface p-6 shadow-sm sm:p-10">
        <span className={`grid size-14 place-items-center rounded-2xl ${toneClasses[result.tone]}`}>
          <Icon aria-hidden="true" size={30} />
        </span>
        <h1 className="mt-6 text-3xl font-extrabold tracking-tight text-balance text-fg sm:text-4xl">
          {result.title}
        </h1>
        <p className="mt-3 text-lg text-fg-muted">{result.lead}</p>
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
          <PrimaryActions kind={kind} />
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

function PrimaryActions({ kind }: { kind: BillingResultKind }) {
  switch (kind) {
    case 'billing-success':
      return (
        <>
          <LinkButton href={billingHref} size="large">
            Back to billing
          </LinkButton>
          <LinkButton href="/dashboard" variant="secondary" size="large">
            Open your dashboard
          </LinkButton>
        </>
      );
    case 'billing-error':
      return (
        <>
          <LinkButton href={billingHref} size="large">
            Try again
          </LinkButton>
          <LinkButton href="/pricing" variant="secondary" size="large">
            Compare plans
          </LinkButton>
        </>
      );
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
