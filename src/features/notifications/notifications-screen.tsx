import { PlaceholderPage } from '../shell/placeholder-page.tsx';

export function NotificationsScreen() {
  return (
    <PlaceholderPage
      title="Notifications"
      comingSoon="Everything that needs your attention, in real time, with read and unread filters."
    />
  );
}
