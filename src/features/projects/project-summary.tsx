/**
 * What a project row and a board card both show: colour, name (the link into the project), unread
 * chat messages (a badge that also describes the link), client, due date and budget, and the
 * status menu. The whole card is the link's hit area; the menu sits above it.
 */
import { Archive, Calendar } from 'lucide-react';
import { useId } from 'react';
import { Link } from 'react-aria-components';
import type { ProjectStatus } from '#contract/entities/project.ts';
import type { LocalProject } from '../../db/app-database.ts';
import { formatDay, formatMoney, isOverdue } from './project-format.ts';
import { ProjectStatusBadge } from './project-status-badge.tsx';
import { ProjectStatusMenu } from './project-status-menu.tsx';
import { UnreadChatBadge } from './unread-chat-badge.tsx';

export interface ProjectSummaryProps {
  project: LocalProject;
  clientName: string | undefined;
  today: string;
  onMove: (project: LocalProject, status: ProjectStatus) => void;
  /** `row` in the list (status badge shown), `card` on the board (the column says the status). */
  layout: 'row' | 'card';
  /** Chat messages from others the member has not read (0 or absent: no badge). */
  unread?: number | undefined;
}

export function projectHref(project: { id: string; clientId: string }): string {
  return `/projects/${encodeURIComponent(project.id)}/${encodeURIComponent(project.clientId)}`;
}

export function ProjectSummary({
  project,
  clientName,
  today,
  onMove,
  layout,
  unread = 0,
}: ProjectSummaryProps) {
  const unreadId = useId();
  const due = formatDay(project.dueDate);
  const budget = formatMoney(project.budget, project.currency);
  const overdue = isOverdue(project, today);
  const dueText = due ? (
    <span className={`inline-flex items-center gap-1 ${overdue ? 'font-medium text-danger' : ''}`}>
      <Calendar aria-hidden="true" size={13} />
      {overdue ? `Overdue · ${due}` : `Due ${due}`}
    </span>
  ) : null;
  return (
    <div className="relative flex items-center gap-3 rounded-xl border border-border bg-surface py-2.5 pr-1.5 pl-3 shadow-xs transition-colors hover:border-border-strong has-data-focus-visible:ring-2 has-data-focus-visible:ring-ring sm:pl-4">
      <span
        aria-hidden="true"
        className="w-1.5 self-stretch rounded-full"
        style={{ backgroundColor: project.color ?? 'var(--color-border)' }}
      />
      <div className="min-w-0 flex-1">
        <div className="flex items-center gap-2">
          <Link
            href={projectHref(project)}
            {...(unread > 0 ? { 'aria-describedby': unreadId } : {})}
            className="truncate font-semibold text-fg outline-none after:absolute after:inset-0 after:rounded-xl hover:underline"
          >
            {project.name}
          </Link>
          <UnreadChatBadge count={unread} id={unreadId} />
          {project.archived ? (
            <span className="inline-flex shrink-0 items-center gap-1 rounded-full bg-surface-muted px-2 py-0.5 text-xs text-fg-muted">
              <Archive aria-hidden="true" size={12} />
              Archived
            </span>
          ) : null}
        </div>
        <div className="mt-0.5 flex flex-wrap items-center gap-x-3 gap-y-0.5 text-sm text-fg-muted">
          {layout === 'row' ? (
            <span className="sm:hidden">
              <ProjectStatusBadge status={project.status} />
            </span>
          ) : null}
          <span className="truncate">{clientName ?? 'Unknown client'}</span>
          {layout === 'card' || !due ? null : <span className="md:hidden">{dueText}</span>}
          {layout === 'card' ? dueText : null}
          {layout === 'card' && budget ? <span>{budget}</span> : null}
        </div>
      </div>
      {layout === 'row' ? (
        <>
          <span className="hidden w-40 shrink-0 text-sm text-fg-muted md:block">
            {dueText ?? <span className="sr-only">No due date</span>}
          </span>
          <span className="hidden w-28 shrink-0 text-right text-sm text-fg-muted tabular-nums lg:block">
            {budget}
          </span>
          <span className="hidden sm:block">
            <ProjectStatusBadge status={project.status} />
          </span>
        </>
      ) : null}
      <div className="relative z-10">
        <ProjectStatusMenu
          projectName={project.name}
          status={project.status}
          onMove={(status) => onMove(project, status)}
        />
      </div>
    </div>
  );
}
