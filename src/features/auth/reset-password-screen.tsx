import { PlaceholderPage } from '../shell/placeholder-page.tsx';

export function ResetPasswordScreen() {
  return (
    <PlaceholderPage
      title="Choose a new password"
      comingSoon="A form to set a new password after following the link in your email."
    />
  );
}
