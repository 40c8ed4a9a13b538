import { createFileRoute } from '@tanstack/react-router';
import { NotificationsScreen } from '../../features/notifications/notifications-screen.tsx';

export const Route = createFileRoute('/_app/notifications')({
  component: NotificationsScreen,
});
