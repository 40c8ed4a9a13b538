import { PlaceholderPage } from '../shell/placeholder-page.tsx';
import { WelcomeModal } from './welcome-modal.tsx';

export function DashboardScreen() {
  return (
    <>
      <PlaceholderPage
        title="Dashboard"
        comingSoon="Your day at a glance: tasks due, active projects, recent client activity and what is waiting to sync."
      />
      <WelcomeModal />
    </>
  );
}
