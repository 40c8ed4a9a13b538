import { PlaceholderPage } from '../shell/placeholder-page.tsx';

export function SettingsScreen() {
  return (
    <PlaceholderPage
      title="Settings"
      comingSoon="Your profile, workspace, members, billing and subscription, and security settings such as two-factor sign-in."
    />
  );
}
