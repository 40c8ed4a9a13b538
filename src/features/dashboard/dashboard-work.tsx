/**
 * The dashboard's work sections, from local data (offline too): my open tasks due this week
 * (today and the six days after), overdue open tasks, and milestones waiting for the client's
 * approval. Each item links to its project's workspace.
 */
import { Link } from '@tanstack/react-router';
import { AlarmClock, CalendarCheck, Flag } from 'lucide-react';
import type { ReactNode } from 'react';
import type { AppDatabase, LocalProject } from '../../db/app-database.ts';
import { useLiveQuery } from '../../db/live-query.ts';
import { useMilestonesAwaitingApproval, useOpenTasks } from '../../data/project-work.ts';
import { useSync, useWriteContext } from '../workspace/sync-context.tsx';
import { Panel } from './dashboard-panel.tsx';

const dateFormat = new Intl.DateTimeFormat(undefined, {
  weekday: 'short',
  day: 'numeric',
  month: 'short',
});
const formatDay = (date: string) => dateFormat.format(new Date(`${date}T00:00`));

/** A plain date `days` after another (YYYY-MM-DD, local calendar). */
function addDays(date: string, days: number): string {
  const next = new Date(`${date}T00:00`);
  next.setDate(next.getDate() + days);
  const month = String(next.getMonth() + 1).padStart(2, '0');
  const day = String(next.getDate()).padStart(2, '0');
  return `${next.getFullYear()}-${month}-${day}`;
}

function useProjectsById(db: AppDatabase, ids: readonly string[]) {
  const key = [...new Set(ids)].sort().join(',');
  return useLiveQuery(async () => {
    const rows = await db.projects.bulkGet(key === '' ? [] : key.split(','));
    return new Map(rows.flatMap((row) => (row && !row._deleted ? [[row.id, row] as const] : [])));
  }, [db, key]);
}

interface WorkItem {
  id: string;
  title: string;
  projectId: string;
  detail: string;
  tone?: 'danger';
}

export function DashboardWork({ workspaceId, today }: { workspaceId: string; today: string }) {
  const { handle } = useSync();
  const { userId } = useWriteContext();
  const openTasks = useOpenTasks(handle.db, workspaceId);
  const awaiting = useMilestonesAwaitingApproval(handle.db, workspaceId);
  const projects = useProjectsById(handle.db, [
    ...(openTasks ?? []).map((task) => task.projectId),
    ...(awaiting ?? []).map((milestone) => milestone.projectId),
  ]);
  const ready = openTasks !== undefined && awaiting !== undefined && projects !== undefined;
  const weekEnd = addDays(today, 6);
  const byDue = (a: { dueDate: string | null }, b: { dueDate: string | null }) =>
    (a.dueDate ?? '').localeCompare(b.dueDate ?? '');

  const mine: WorkItem[] | undefined = ready
    ? openTasks
        .filter(
          (task) =>
            task.assigneeId === userId &&
            task.dueDate !== null &&
            task.dueDate >= today &&
            task.dueDate <= weekEnd,
        )
        .sort(byDue)
        .map((task) => ({
          id: task.id,
          title: task.title,
          projectId: task.projectId,
          detail: task.dueDate === today ? 'Due today' : `Due ${formatDay(task.dueDate ?? today)}`,
        }))
    : undefined;
  const overdue: WorkItem[] | undefined = ready
    ? openTasks
        .filter((task) => task.dueDate !== null && task.dueDate < today)
        .sort(byDue)
        .map((task) => ({
          id: task.id,
          title: task.title,
          projectId: task.projectId,
          detail: `Overdue since ${formatDay(task.dueDate ?? today)}`,
          tone: 'danger' as const,
        }))
    : undefined;
  const approvals: WorkItem[] | undefined = ready
    ? awaiting.map((milestone) => ({
        id: milestone.id,
        title: milestone.title,
        projectId: milestone.projectId,
        detail: milestone.dueDate ? `Due ${formatDay(milestone.dueDate)}` : 'No due date',
      }))
    : undefined;

  const row = (tab: 'tasks' | 'milestones') => (item: WorkItem) => (
    <WorkRow item={item} project={projects?.get(item.projectId)} tab={tab} />
  );

  return (
    <>
      <Panel
        title="My tasks due this week"
        icon={<CalendarCheck aria-hidden="true" size={18} />}
        rows={mine}
        empty="Nothing assigned to you is due in the next seven days."
        render={row('tasks')}
      />
      <Panel
        title="Overdue tasks"
        icon={<AlarmClock aria-hidden="true" size={18} />}
        rows={overdue}
        empty="No overdue tasks. Nicely done."
        render={row('tasks')}
      />
      <Panel
        title="Milestones awaiting approval"
        icon={<Flag aria-hidden="true" size={18} />}
        rows={approvals}
        empty="No milestones are waiting for a client’s approval. Set a milestone to Awaiting approval when you hand it over."
        render={row('milestones')}
      />
    </>
  );
}

function WorkRow({
  item,
  project,
  tab,
}: {
  item: WorkItem;
  project: LocalProject | undefined;
  tab: 'tasks' | 'milestones';
}): ReactNode {
  const content = (
    <span className="min-w-0">
      <span className="block truncate font-medium">{item.title}</span>
      <span
        className={`block truncate text-sm ${item.tone === 'danger' ? 'font-medium text-danger' : 'text-fg-muted'}`}
      >
        {project ? `${project.name} · ` : ''}
        {item.detail}
      </span>
    </span>
  );
  if (!project) return <div className="flex min-h-12 items-center py-2">{content}</div>;
  return (
    <Link
      to="/projects/$projectId/$clientId"
      params={{ projectId: project.id, clientId: project.clientId }}
      search={{ tab }}
      className="flex min-h-12 items-center justify-between gap-3 py-2 hover:text-brand"
    >
      {content}
    </Link>
  );
}
