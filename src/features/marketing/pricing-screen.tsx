import { PlaceholderPage } from '../shell/placeholder-page.tsx';

export function PricingScreen() {
  return (
    <PlaceholderPage
      variant="marketing"
      title="Pricing"
      lead="Start free. Upgrade when your business grows."
      comingSoon="The plans for freelancers and agencies side by side, with what each one includes and a monthly or yearly price."
    />
  );
}
