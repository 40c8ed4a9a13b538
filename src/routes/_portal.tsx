import { createFileRoute, Outlet } from '@tanstack/react-router';
import { PortalLayout } from '../features/shell/portal-layout.tsx';

/** The client portal and its password gate. The guard is on the project page itself. */
export const Route = createFileRoute('/_portal')({
  component: PortalLayoutRoute,
});

function PortalLayoutRoute() {
  return (
    <PortalLayout>
      <Outlet />
    </PortalLayout>
  );
}
