import { PlaceholderPage } from '../shell/placeholder-page.tsx';

export function DashboardScreen() {
  return (
    <PlaceholderPage
      title="Dashboard"
      comingSoon="Your day at a glance: tasks due, active projects, recent client activity and what is waiting to sync."
    />
  );
}
