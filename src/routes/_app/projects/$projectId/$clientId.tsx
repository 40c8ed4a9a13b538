import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { useCallback } from 'react';
import * as v from 'valibot';
import {
  ProjectWorkspaceScreen,
  toProjectTab,
  type ProjectTab,
} from '../../../../features/projects/project-workspace-screen.tsx';
import { optionalSearchString, parseIdParams } from '../../../-route-schemas.ts';

// `/projects/$projectId/activity` is a sibling static route; the router ranks static segments
// above dynamic ones, so "activity" never reaches this route as a client id.
export const Route = createFileRoute('/_app/projects/$projectId/$clientId')({
  params: { parse: parseIdParams(['projectId', 'clientId']) },
  /** `tab`: overview (default), tasks, milestones, notes, chat, files, calendar or activity; else the overview. */
  validateSearch: v.object({ tab: optionalSearchString }),
  component: ProjectWorkspaceRoute,
});

function ProjectWorkspaceRoute() {
  const { projectId, clientId } = Route.useParams();
  const { tab } = Route.useSearch();
  const navigate = useNavigate();
  const onTabChange = useCallback(
    (next: ProjectTab) =>
      void navigate({
        to: '/projects/$projectId/$clientId',
        params: { projectId, clientId },
        search: { tab: next === 'overview' ? undefined : next },
        replace: true,
      }),
    [navigate, projectId, clientId],
  );
  const onClientMismatch = useCallback(
    (rightClientId: string) =>
      void navigate({
        to: '/projects/$projectId/$clientId',
        params: { projectId, clientId: rightClientId },
        search: (previous) => previous,
        replace: true,
      }),
    [navigate, projectId],
  );
  const onDeleted = useCallback(() => void navigate({ to: '/projects' }), [navigate]);
  return (
    <ProjectWorkspaceScreen
      projectId={projectId}
      clientId={clientId}
      tab={toProjectTab(tab)}
      onTabChange={onTabChange}
      onClientMismatch={onClientMismatch}
      onDeleted={onDeleted}
    />
  );
}
