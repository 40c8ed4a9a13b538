import { PlaceholderPage } from '../shell/placeholder-page.tsx';

export function SubscriptionSuccessScreen() {
  return (
    <PlaceholderPage
      variant="marketing"
      title="Subscription active"
      lead="Welcome aboard. Your plan is ready to use."
      comingSoon="A summary of your new plan, when it renews and how to manage it from Settings."
    />
  );
}
