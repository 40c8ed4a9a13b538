import { PlaceholderPage } from '../shell/placeholder-page.tsx';

export function ConfirmRegistrationScreen() {
  return (
    <PlaceholderPage
      title="Confirm your registration"
      comingSoon="The last step of signing up: your name, your workspace and a welcome tour."
    />
  );
}
