import { createFileRoute } from '@tanstack/react-router';
import * as v from 'valibot';
import { BillingResultScreen } from '../../features/marketing/billing-result-screen.tsx';
import { optionalSearchString } from '../-route-schemas.ts';

export const Route = createFileRoute('/_public/billing-success')({
  // Stripe appends the checkout session id when it sends the visitor back; `back` is the invoice
  // page the payment started from (set in the Checkout's return URL).
  validateSearch: v.object({ session_id: optionalSearchString, back: optionalSearchString }),
  component: BillingSuccessRoute,
});

function BillingSuccessRoute() {
  const { session_id: sessionId, back } = Route.useSearch();
  return <BillingResultScreen back={back} kind="billing-success" sessionId={sessionId} />;
}
