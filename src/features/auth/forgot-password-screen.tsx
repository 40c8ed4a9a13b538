import { PlaceholderPage } from '../shell/placeholder-page.tsx';

export function ForgotPasswordScreen() {
  return (
    <PlaceholderPage
      title="Reset your password"
      lead="Forgot your password? It happens."
      comingSoon="A form to request a password reset link by email."
    />
  );
}
