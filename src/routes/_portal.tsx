import { createFileRoute, Outlet, useLocation } from '@tanstack/react-router';
import { PortalLayout } from '../features/shell/portal-layout.tsx';

/**
 * The client portal and its password gate (the guard is on the project page itself), and files
 * shared by link: pages for people without an account.
 */
export const Route = createFileRoute('/_portal')({
  component: PortalLayoutRoute,
});

function PortalLayoutRoute() {
  const shared = useLocation({ select: (location) => location.pathname.startsWith('/shared/') });
  return (
    <PortalLayout label={shared ? 'Shared file' : 'Client portal'}>
      <Outlet />
    </PortalLayout>
  );
}
