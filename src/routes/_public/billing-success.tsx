import { createFileRoute } from '@tanstack/react-router';
import { BillingSuccessScreen } from '../../features/billing/billing-success-screen.tsx';

export const Route = createFileRoute('/_public/billing-success')({
  component: BillingSuccessScreen,
});
