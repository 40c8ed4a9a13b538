import { PlaceholderPage } from '../shell/placeholder-page.tsx';

export function BillingErrorScreen() {
  return (
    <PlaceholderPage
      variant="marketing"
      title="Payment failed"
      lead="Your payment did not go through, and you have not been charged."
      comingSoon="What went wrong with the payment and a way to try again or pick another card."
    />
  );
}
