import { PlaceholderPage } from '../shell/placeholder-page.tsx';

export function BillingSuccessScreen() {
  return (
    <PlaceholderPage
      variant="marketing"
      title="Payment received"
      lead="Thank you. Your payment went through."
      comingSoon="A confirmation of your payment with the receipt and what happens next."
    />
  );
}
