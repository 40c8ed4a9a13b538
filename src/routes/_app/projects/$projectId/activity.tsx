import { createFileRoute } from '@tanstack/react-router';
import { ProjectActivityScreen } from '../../../../features/projects/project-activity-screen.tsx';
import { parseIdParams } from '../../../-route-schemas.ts';

export const Route = createFileRoute('/_app/projects/$projectId/activity')({
  params: { parse: parseIdParams(['projectId']) },
  component: ProjectActivityRoute,
});

function ProjectActivityRoute() {
  const { projectId } = Route.useParams();
  return <ProjectActivityScreen projectId={projectId} />;
}
