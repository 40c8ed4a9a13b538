import { createFileRoute } from '@tanstack/react-router';
import { SharedFileScreen } from '../../../features/files/shared-file-screen.tsx';

/** A file someone shared by link: no account, no session; the token is the whole key. */
export const Route = createFileRoute('/_portal/shared/$token')({
  component: SharedFileRoute,
});

function SharedFileRoute() {
  const { api } = Route.useRouteContext();
  const { token } = Route.useParams();
  return <SharedFileScreen token={token} callEndpoint={api.callEndpoint} />;
}
