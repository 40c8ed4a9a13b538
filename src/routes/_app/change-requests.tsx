import { createFileRoute } from '@tanstack/react-router';
import { ChangeRequestsScreen } from '../../features/change-requests/change-requests-screen.tsx';

export const Route = createFileRoute('/_app/change-requests')({
  component: ChangeRequestsScreen,
});
