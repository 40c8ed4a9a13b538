/** The Activity tab of a project's workspace: the project's timeline (activity-timeline.tsx). */
import type { CallEndpoint } from '#contract/define-endpoint.ts';
import type { LocalProject } from '../../db/app-database.ts';
import { TextLink } from '../../ui/text-link.tsx';
import { ActivityTimeline } from './activity-timeline.tsx';

export interface ActivityTabProps {
  project: LocalProject;
  /** The API client; by default the app's, from the router context. */
  callEndpoint?: CallEndpoint;
}

export function ActivityTab({ project, callEndpoint }: ActivityTabProps) {
  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 className="text-lg font-semibold text-fg">Activity</h2>
        <TextLink href={`/projects/${encodeURIComponent(project.id)}/activity`} className="text-sm">
          Open full page
        </TextLink>
      </div>
      <ActivityTimeline projectId={project.id} callEndpoint={callEndpoint} />
    </div>
  );
}
