import { createFileRoute } from '@tanstack/react-router';
import { useAuth } from '../../auth/auth-provider.tsx';
import { PricingScreen } from '../../features/marketing/pricing-screen.tsx';

export const Route = createFileRoute('/_public/pricing')({
  component: PricingRoute,
});

function PricingRoute() {
  const auth = useAuth();
  // Until billing stores subscriptions, every account is on the Free plan; the billing work
  // replaces this with the plan from the user's subscription.
  return <PricingScreen currentPlanId={auth.status === 'authenticated' ? 'free' : null} />;
}
