import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { ClientsScreen } from '../../../features/clients/clients-screen.tsx';
import { clientsSearchSchema } from '../../../features/clients/clients-search.ts';

export const Route = createFileRoute('/_app/clients/')({
  /** q (search), status, tag, sort (name|recent), archived: see clients-search.ts. */
  validateSearch: clientsSearchSchema,
  component: ClientsRoute,
});

function ClientsRoute() {
  const search = Route.useSearch();
  const navigate = useNavigate();
  return (
    <ClientsScreen
      search={search}
      // Filters replace the history entry: Back leaves the page instead of undoing keystrokes.
      onSearchChange={(next) => void navigate({ to: '/clients', search: next, replace: true })}
    />
  );
}
