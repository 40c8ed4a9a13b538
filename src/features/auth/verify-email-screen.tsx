import { PlaceholderPage } from '../shell/placeholder-page.tsx';

export function VerifyEmailScreen() {
  return (
    <PlaceholderPage
      title="Check your email"
      comingSoon="A reminder to open the confirmation link we sent, with a way to send it again."
    />
  );
}
