import { createFileRoute } from '@tanstack/react-router';
import { ProjectWorkspaceScreen } from '../../../../features/projects/project-workspace-screen.tsx';
import { parseIdParams } from '../../../-route-schemas.ts';

// `/projects/$projectId/activity` is a sibling static route; the router ranks static segments
// above dynamic ones, so "activity" never reaches this route as a client id.
export const Route = createFileRoute('/_app/projects/$projectId/$clientId')({
  params: { parse: parseIdParams(['projectId', 'clientId']) },
  component: ProjectWorkspaceRoute,
});

function ProjectWorkspaceRoute() {
  const { projectId, clientId } = Route.useParams();
  return <ProjectWorkspaceScreen projectId={projectId} clientId={clientId} />;
}
