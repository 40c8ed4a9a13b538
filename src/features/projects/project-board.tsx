/**
 * The board: one column per status. From 1440 px wide all five columns share the width; below
 * that the board scrolls sideways (each column snaps into view, a scrollbar shows
 * there is more, and tabbing to a column's buttons scrolls it into view).
 * A card moves with its status menu (keyboard and screen readers); with a mouse it can also be
 * dragged to another column, as a shortcut for the same move.
 * The scroller is `relative` so screen-reader-only text in off-screen columns (absolutely
 * positioned) is clipped with them instead of widening the whole page.
 */
import { Plus } from 'lucide-react';
import { useState, type DragEvent } from 'react';
import type { ProjectStatus } from '#contract/entities/project.ts';
import type { LocalProject } from '../../db/app-database.ts';
import { Button } from '../../ui/button.tsx';
import { statusIcons, statusLabels } from './project-labels.ts';
import { LIST_PAGE_SIZE } from './project-list.tsx';
import { ProjectSummary } from './project-summary.tsx';

export interface ProjectBoardProps {
  columns: readonly ProjectStatus[];
  projects: readonly LocalProject[];
  clientNames: ReadonlyMap<string, string>;
  today: string;
  onMove: (project: LocalProject, status: ProjectStatus) => void;
  onCreateIn: (status: ProjectStatus) => void;
  /** Unread chat messages by project id (absent: none, or not counted yet). */
  unread?: ReadonlyMap<string, number> | undefined;
}

const DRAG_TYPE = 'application/x-satchel-project';

export function ProjectBoard({
  columns,
  projects,
  clientNames,
  today,
  onMove,
  onCreateIn,
  unread,
}: ProjectBoardProps) {
  const [dropTarget, setDropTarget] = useState<ProjectStatus | null>(null);
  const byId = new Map(projects.map((project) => [project.id, project]));

  const drop = (status: ProjectStatus) => (event: DragEvent) => {
    event.preventDefault();
    setDropTarget(null);
    const project = byId.get(event.dataTransfer.getData(DRAG_TYPE));
    if (project && project.status !== status) onMove(project, status);
  };

  return (
    <div
      className="relative -mx-4 flex snap-x snap-mandatory scroll-px-4 gap-3 overflow-x-auto px-4 pb-4 sm:-mx-6 sm:scroll-px-6 sm:px-6 min-[90rem]:mx-0 min-[90rem]:grid min-[90rem]:grid-cols-5 min-[90rem]:overflow-visible min-[90rem]:px-0"
      role="group"
      aria-label="Project board"
    >
      {columns.map((status) => {
        const cards = projects.filter((project) => project.status === status);
        const Icon = statusIcons[status];
        const headingId = `board-column-${status}`;
        return (
          <section
            key={status}
            aria-labelledby={headingId}
            onDragOver={(event) => {
              if (!event.dataTransfer.types.includes(DRAG_TYPE)) return;
              event.preventDefault();
              setDropTarget(status);
            }}
            onDragLeave={(event) => {
              if (!event.currentTarget.contains(event.relatedTarget as Node | null)) {
                setDropTarget(null);
              }
            }}
            onDrop={drop(status)}
            className={`flex w-[min(18rem,calc(100vw-3rem))] shrink-0 snap-start flex-col min-[90rem]:w-auto min-[90rem]:min-w-0 rounded-2xl border bg-surface-muted/60 p-2 transition-colors ${
              dropTarget === status ? 'border-ring bg-brand-soft/60' : 'border-border'
            }`}
          >
            <div className="flex items-center gap-2 px-2 pt-1 pb-2 min-[90rem]:gap-1.5 min-[90rem]:px-1">
              <Icon aria-hidden="true" size={16} className="shrink-0 text-fg-muted" />
              <h2
                id={headingId}
                className="truncate font-semibold whitespace-nowrap text-fg min-[90rem]:text-sm"
              >
                {statusLabels[status]}
              </h2>
              <span className="shrink-0 rounded-full bg-surface px-2 text-xs font-medium text-fg-muted tabular-nums">
                <span className="sr-only">, </span>
                {cards.length}
                <span className="sr-only"> {cards.length === 1 ? 'project' : 'projects'}</span>
              </span>
              <Button
                variant="ghost"
                size="icon"
                className="ml-auto shrink-0 sm:size-8"
                aria-label={`New ${statusLabels[status].toLowerCase()} project`}
                onPress={() => onCreateIn(status)}
              >
                <Plus aria-hidden="true" size={16} />
              </Button>
            </div>
            {cards.length === 0 ? (
              <p className="rounded-xl border border-dashed border-border-strong px-3 py-6 text-center text-sm text-fg-muted">
                No {statusLabels[status].toLowerCase()} projects
              </p>
            ) : (
              <ul className="flex flex-col gap-2" aria-labelledby={headingId}>
                {cards.slice(0, LIST_PAGE_SIZE).map((project) => (
                  <li
                    key={project.id}
                    draggable
                    onDragStart={(event) => {
                      event.dataTransfer.setData(DRAG_TYPE, project.id);
                      event.dataTransfer.effectAllowed = 'move';
                    }}
                    className="cursor-grab active:cursor-grabbing"
                  >
                    <ProjectSummary
                      project={project}
                      clientName={clientNames.get(project.clientId)}
                      today={today}
                      onMove={onMove}
                      layout="card"
                      unread={unread?.get(project.id)}
                    />
                  </li>
                ))}
                {cards.length > LIST_PAGE_SIZE ? (
                  <li className="px-2 py-1 text-sm text-fg-muted">
                    and {cards.length - LIST_PAGE_SIZE} more: use the list view or narrow the
                    filters to see them.
                  </li>
                ) : null}
              </ul>
            )}
          </section>
        );
      })}
    </div>
  );
}
