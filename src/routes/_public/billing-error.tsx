import { createFileRoute } from '@tanstack/react-router';
import { BillingErrorScreen } from '../../features/billing/billing-error-screen.tsx';

export const Route = createFileRoute('/_public/billing-error')({
  component: BillingErrorScreen,
});
