import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { ProjectsScreen } from '../../../features/projects/projects-screen.tsx';
import { projectsSearchSchema } from '../../../features/projects/projects-search.ts';

export const Route = createFileRoute('/_app/projects/')({
  /** view (list|board), status, client (id), q (search), archived: see projects-search.ts. */
  validateSearch: projectsSearchSchema,
  component: ProjectsRoute,
});

function ProjectsRoute() {
  const search = Route.useSearch();
  const navigate = useNavigate();
  return (
    <ProjectsScreen
      search={search}
      // Filters replace the history entry: Back leaves the page instead of undoing keystrokes.
      onSearchChange={(next) => void navigate({ to: '/projects', search: next, replace: true })}
    />
  );
}
