import { createFileRoute, redirect, useNavigate } from '@tanstack/react-router';
import { useCallback } from 'react';
import { portalPath } from '#contract/endpoints/client-portal.ts';
import { PortalProjectScreen } from '../../../../../features/portal/portal-project-screen.tsx';
import {
  portalRedirect,
  readPortalSession,
} from '../../../../../features/portal/portal-session.ts';
import { usePortalManifest } from '../../../../../features/portal/use-portal-manifest.ts';
import { parseIdParams } from '../../../../-route-schemas.ts';

/** Needs a live client portal session for this project and this client, else the password gate. */
export const Route = createFileRoute('/_portal/client/$clientId/project/$projectId')({
  params: { parse: parseIdParams(['clientId', 'projectId']) },
  beforeLoad: ({ params, location }) => {
    const session = readPortalSession(globalThis.localStorage);
    const target = portalRedirect(session, params, Date.now(), location.pathname);
    if (target !== null) redirect({ ...target, replace: true, throw: true });
  },
  component: PortalProjectRoute,
});

function PortalProjectRoute() {
  const { projectId, clientId } = Route.useParams();
  const { api } = Route.useRouteContext();
  const navigate = useNavigate();
  usePortalManifest(clientId, projectId);
  // Spec section 2: when the session ends, back to the access page for the same project and client.
  const toGate = useCallback(() => {
    void navigate({
      to: '/client-access',
      search: { projectId, clientId, redirect: portalPath(clientId, projectId) },
      replace: true,
    });
  }, [clientId, navigate, projectId]);
  return (
    <PortalProjectScreen
      projectId={projectId}
      clientId={clientId}
      callEndpoint={api.callEndpoint}
      toGate={toGate}
    />
  );
}
