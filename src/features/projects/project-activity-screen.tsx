/**
 * /projects/{projectId}/activity: the project's activity timeline as a full page. The project's
 * name comes from the local database (so the heading and back link work offline); the timeline
 * itself comes from the server.
 */
import type { CallEndpoint } from '#contract/define-endpoint.ts';
import { ArrowLeft } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { ActivityTimeline } from '../activity/activity-timeline.tsx';
import { useProject } from '../../data/project-queries.ts';
import { TextLink } from '../../ui/text-link.tsx';
import { usePageTitle } from '../../ui/use-page-title.ts';
import { useSync } from '../workspace/sync-context.tsx';
import { WorkspaceGate } from '../workspace/workspace-gate.tsx';

export interface ProjectActivityScreenProps {
  projectId: string;
  /** The API client; by default the app's, from the router context. */
  callEndpoint?: CallEndpoint;
}

export function ProjectActivityScreen(props: ProjectActivityScreenProps) {
  return (
    <WorkspaceGate title="Project activity">
      <ProjectActivity {...props} />
    </WorkspaceGate>
  );
}

function ProjectActivity({ projectId, callEndpoint }: ProjectActivityScreenProps) {
  const { handle } = useSync();
  const project = useProject(handle.db, projectId);
  usePageTitle(project ? `Activity — ${project.name}` : 'Project activity');
  const heading = useRef<HTMLHeadingElement>(null);
  // Arriving here (from the tab's "Open full page"), focus starts at the page's heading.
  useEffect(() => {
    heading.current?.focus({ preventScroll: true });
  }, []);
  return (
    <div className="flex flex-col gap-6">
      <header className="flex flex-col gap-3">
        {project ? (
          <TextLink
            href={`/projects/${encodeURIComponent(project.id)}/${encodeURIComponent(project.clientId)}`}
            className="inline-flex w-fit items-center gap-1 text-sm"
          >
            <ArrowLeft aria-hidden="true" size={14} />
            {project.name}
          </TextLink>
        ) : (
          <TextLink href="/projects" className="inline-flex w-fit items-center gap-1 text-sm">
            <ArrowLeft aria-hidden="true" size={14} />
            Projects
          </TextLink>
        )}
        <h1
          ref={heading}
          tabIndex={-1}
          className="outline-none text-2xl font-bold tracking-tight break-words text-fg sm:text-3xl"
        >
          {project ? `Activity: ${project.name}` : 'Project activity'}
        </h1>
      </header>
      <ActivityTimeline projectId={projectId} callEndpoint={callEndpoint} dayHeadingLevel={2} />
    </div>
  );
}
