import { createFileRoute } from '@tanstack/react-router';
import { ClientDetailScreen } from '../../../features/clients/client-detail-screen.tsx';
import { parseIdParams } from '../../-route-schemas.ts';

export const Route = createFileRoute('/_app/clients/$id')({
  params: { parse: parseIdParams(['id']) },
  component: ClientDetailRoute,
});

function ClientDetailRoute() {
  const { id } = Route.useParams();
  return <ClientDetailScreen clientId={id} />;
}
