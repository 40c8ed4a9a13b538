/**
 * The top of the Overview tab: how far the project is (milestones approved), what is due next
 * (open tasks and milestones by due date, overdue marked) and how many tasks are open. Read live
 * from the local database, so it is right offline and the moment something changes.
 */
import { milestoneStatusWords } from '#contract/entities/milestone.ts';
import { CalendarClock, CircleAlert, Flag, ListChecks } from 'lucide-react';
import type { ReactNode } from 'react';
import type { LocalProject } from '../../db/app-database.ts';
import { milestoneProgress, useColumns, useMilestones, useTasks } from '../../data/project-work.ts';
import { Spinner } from '../../ui/spinner.tsx';
import { TextLink } from '../../ui/text-link.tsx';
import { formatDate, localToday } from '../milestones/milestone-format.ts';
import { ProgressBar } from '../milestones/progress-bar.tsx';
import { useSync } from '../workspace/sync-context.tsx';

const NEXT_DUE = 5;

interface DueItem {
  id: string;
  kind: 'task' | 'milestone';
  title: string;
  dueDate: string;
  detail: string | null;
}

export function ProjectOverviewSummary({ project }: { project: LocalProject }) {
  const { handle } = useSync();
  const milestones = useMilestones(handle.db, project.workspaceId, project.id);
  const tasks = useTasks(handle.db, project.workspaceId, project.id);
  const columns = useColumns(handle.db, project.workspaceId, project.id);

  if (milestones === undefined || tasks === undefined || columns === undefined) {
    return (
      <div role="status" className="flex items-center gap-2 py-6 text-fg-muted">
        <Spinner size="small" />
        Loading the summary…
      </div>
    );
  }

  const today = localToday();
  const done = new Set(columns.filter((column) => column.isDone).map((column) => column.id));
  const openTasks = tasks.filter((task) => !done.has(task.columnId));
  const overdueTasks = openTasks.filter((task) => task.dueDate !== null && task.dueDate < today);
  const progress = milestoneProgress(milestones);
  const base = `/projects/${encodeURIComponent(project.id)}/${encodeURIComponent(project.clientId)}`;

  const due: DueItem[] = [
    ...openTasks.flatMap((task) =>
      task.dueDate
        ? [
            {
              id: task.id,
              kind: 'task' as const,
              title: task.title,
              dueDate: task.dueDate,
              detail: null,
            },
          ]
        : [],
    ),
    ...milestones.flatMap((milestone) =>
      milestone.dueDate && milestone.status !== 'approved'
        ? [
            {
              id: milestone.id,
              kind: 'milestone' as const,
              title: milestone.title,
              dueDate: milestone.dueDate,
              detail: milestoneStatusWords[milestone.status],
            },
          ]
        : [],
    ),
  ]
    .sort((a, b) => a.dueDate.localeCompare(b.dueDate) || a.title.localeCompare(b.title))
    .slice(0, NEXT_DUE);

  return (
    <div className="grid gap-4 lg:grid-cols-3">
      <Card title="Progress" icon={<Flag aria-hidden="true" size={18} />} id="overview-progress">
        {progress ? (
          <ProgressBar
            label="Milestones approved"
            value={progress.percent}
            valueText={`${progress.approved} of ${progress.total} milestones approved`}
          />
        ) : (
          <p className="text-sm text-fg-muted">
            No milestones yet.{' '}
            <TextLink href={`${base}?tab=milestones`}>Break the project into stages</TextLink> your
            client approves to see progress here.
          </p>
        )}
      </Card>
      <Card title="Tasks" icon={<ListChecks aria-hidden="true" size={18} />} id="overview-tasks">
        <dl className="grid grid-cols-2 gap-3">
          <div>
            <dt className="text-sm text-fg-muted">Open</dt>
            <dd className="text-2xl font-bold text-fg tabular-nums">{openTasks.length}</dd>
          </div>
          <div>
            <dt className="text-sm text-fg-muted">Overdue</dt>
            <dd
              className={`text-2xl font-bold tabular-nums ${overdueTasks.length > 0 ? 'text-danger' : 'text-fg'}`}
            >
              {overdueTasks.length}
            </dd>
          </div>
        </dl>
        <TextLink href={`${base}?tab=tasks`} className="mt-3 inline-block text-sm">
          Open the board
        </TextLink>
      </Card>
      <Card
        title="Next due"
        icon={<CalendarClock aria-hidden="true" size={18} />}
        id="overview-next-due"
      >
        {due.length === 0 ? (
          <p className="text-sm text-fg-muted">Nothing open has a due date.</p>
        ) : (
          <ul className="flex flex-col gap-2">
            {due.map((item) => {
              const overdue = item.dueDate < today;
              return (
                <li key={`${item.kind}-${item.id}`} className="flex flex-col text-sm">
                  <TextLink
                    href={`${base}?tab=${item.kind === 'task' ? 'tasks' : 'milestones'}`}
                    className="truncate"
                  >
                    {item.title}
                  </TextLink>
                  <span className={overdue ? 'font-medium text-danger' : 'text-fg-muted'}>
                    {overdue ? (
                      <CircleAlert
                        aria-hidden="true"
                        size={13}
                        className="mr-1 inline align-[-2px]"
                      />
                    ) : null}
                    {item.kind === 'task' ? 'Task' : 'Milestone'} ·{' '}
                    {overdue ? 'Overdue, was due' : 'Due'} {formatDate(item.dueDate)}
                    {item.detail ? ` · ${item.detail}` : ''}
                  </span>
                </li>
              );
            })}
          </ul>
        )}
      </Card>
    </div>
  );
}

function Card({
  title,
  icon,
  id,
  children,
}: {
  title: string;
  icon: ReactNode;
  id: string;
  children: ReactNode;
}) {
  return (
    <section
      aria-labelledby={id}
      className="rounded-2xl border border-border bg-surface p-4 sm:p-5"
    >
      <h2 id={id} className="mb-3 flex items-center gap-2 font-semibold text-fg">
        {icon}
        {title}
      </h2>
      {children}
    </section>
  );
}
