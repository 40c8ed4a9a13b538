import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { ChangeRequestsScreen } from '../../features/change-requests/change-requests-screen.tsx';
import { changeRequestsSearchSchema } from '../../features/change-requests/change-requests-search.ts';

export const Route = createFileRoute('/_app/change-requests')({
  /** status (open|all|a status), projectId: see change-requests-search.ts. */
  validateSearch: changeRequestsSearchSchema,
  component: ChangeRequestsRoute,
});

function ChangeRequestsRoute() {
  const search = Route.useSearch();
  const navigate = useNavigate();
  return (
    <ChangeRequestsScreen
      search={search}
      // Filters replace the history entry: Back leaves the page instead of undoing each choice.
      onSearchChange={(next) =>
        void navigate({ to: '/change-requests', search: next, replace: true })
      }
    />
  );
}
