import { createFileRoute } from '@tanstack/react-router';
import { ClientPortalDemoScreen } from '../../features/marketing/client-portal-demo-screen.tsx';

export const Route = createFileRoute('/_public/client-portal-demo')({
  component: ClientPortalDemoScreen,
});
