import { createFileRoute, useNavigate } from '@tanstack/react-router';
import * as v from 'valibot';
import { ClientAccessScreen } from '../../features/portal/client-access-screen.tsx';
import { optionalSearchString } from '../-route-schemas.ts';

const clientAccessSearchSchema = v.object({
  projectId: optionalSearchString,
  clientId: optionalSearchString,
  /** The portal path to return to after a correct password. */
  redirect: optionalSearchString,
});

export const Route = createFileRoute('/_portal/client-access')({
  validateSearch: clientAccessSearchSchema,
  component: ClientAccessRoute,
});

function ClientAccessRoute() {
  const { projectId, clientId, redirect } = Route.useSearch();
  const { api } = Route.useRouteContext();
  const navigate = useNavigate();
  return (
    <ClientAccessScreen
      projectId={projectId}
      clientId={clientId}
      redirect={redirect}
      callEndpoint={api.callEndpoint}
      navigate={(path) => void navigate({ to: path, replace: true })}
    />
  );
}
