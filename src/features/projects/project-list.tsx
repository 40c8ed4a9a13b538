import { useState } from 'react';
import type { ProjectStatus } from '#contract/entities/project.ts';
import type { LocalProject } from '../../db/app-database.ts';
import { Button } from '../../ui/button.tsx';
import { ProjectSummary } from './project-summary.tsx';

/** Rows rendered at first; more on request, so 10,000 projects still open at once. */
export const LIST_PAGE_SIZE = 100;

export interface ProjectListProps {
  projects: readonly LocalProject[];
  clientNames: ReadonlyMap<string, string>;
  today: string;
  onMove: (project: LocalProject, status: ProjectStatus) => void;
  /** Unread chat messages by project id (absent: none, or not counted yet). */
  unread?: ReadonlyMap<string, number> | undefined;
}

export function ProjectList({ projects, clientNames, today, onMove, unread }: ProjectListProps) {
  const [shown, setShown] = useState(LIST_PAGE_SIZE);
  return (
    <div>
      <ul aria-label="Projects" className="flex flex-col gap-2">
        {projects.slice(0, shown).map((project) => (
          <li key={project.id}>
            <ProjectSummary
              project={project}
              clientName={clientNames.get(project.clientId)}
              today={today}
              onMove={onMove}
              layout="row"
              unread={unread?.get(project.id)}
            />
          </li>
        ))}
      </ul>
      {projects.length > shown ? (
        <div className="mt-4 flex justify-center">
          <Button variant="secondary" onPress={() => setShown((count) => count + LIST_PAGE_SIZE)}>
            Show more ({projects.length - shown} left)
          </Button>
        </div>
      ) : null}
    </div>
  );
}
