import { createFileRoute } from '@tanstack/react-router';
import { SubscriptionSuccessScreen } from '../../../features/billing/subscription-success-screen.tsx';

export const Route = createFileRoute('/_public/subscription/success')({
  component: SubscriptionSuccessScreen,
});
