import { createFileRoute } from '@tanstack/react-router';
import { SubscriptionCancelScreen } from '../../../features/billing/subscription-cancel-screen.tsx';

export const Route = createFileRoute('/_public/subscription/cancel')({
  component: SubscriptionCancelScreen,
});
