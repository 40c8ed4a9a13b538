import { PlaceholderPage } from '../shell/placeholder-page.tsx';

export function PrivacyScreen() {
  return (
    <PlaceholderPage
      variant="marketing"
      title="Privacy policy"
      comingSoon="What data Satchel keeps, on your device and on our servers, why, and how to get it deleted."
    />
  );
}
