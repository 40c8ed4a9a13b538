import { createFileRoute } from '@tanstack/react-router';
import * as v from 'valibot';
import { BillingResultScreen } from '../../features/marketing/billing-result-screen.tsx';
import { optionalSearchString } from '../-route-schemas.ts';

export const Route = createFileRoute('/_public/billing-success')({
  // Stripe appends the checkout session id when it sends the visitor back.
  validateSearch: v.object({ session_id: optionalSearchString }),
  component: BillingSuccessRoute,
});

function BillingSuccessRoute() {
  const { session_id: sessionId } = Route.useSearch();
  return <BillingResultScreen kind="billing-success" sessionId={sessionId} />;
}
