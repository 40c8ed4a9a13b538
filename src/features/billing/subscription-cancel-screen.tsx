import { PlaceholderPage } from '../shell/placeholder-page.tsx';

export function SubscriptionCancelScreen() {
  return (
    <PlaceholderPage
      variant="marketing"
      title="Subscription cancelled"
      lead="You have not been charged for a new plan."
      comingSoon="What changes on your account, until when your current plan lasts, and how to resubscribe."
    />
  );
}
