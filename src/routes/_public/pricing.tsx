import { createFileRoute } from '@tanstack/react-router';
import { PricingScreen } from '../../features/marketing/pricing-screen.tsx';

export const Route = createFileRoute('/_public/pricing')({
  component: PricingScreen,
});
