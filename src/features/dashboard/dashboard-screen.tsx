/**
 * /dashboard: the day at a glance from local data, so it opens instantly and offline: my tasks
 * due this week, overdue tasks, milestones awaiting approval (dashboard-work.tsx), active
 * projects, projects due soon (overdue first), recent clients, and what is waiting to sync.
 */
import { Link } from '@tanstack/react-router';
import { CalendarClock, FolderKanban, Plus, Users } from 'lucide-react';
import type { LocalClient, LocalProject } from '../../db/app-database.ts';
import { describeSyncStatus } from '../../sync/sync-client.ts';
import { usePageTitle } from '../../ui/use-page-title.ts';
import { clientStatusBadgeClass, clientStatusLabels } from '../clients/client-labels.ts';
import { useRecentClients } from '../../data/client-queries.ts';
import { ProjectStatusBadge } from '../projects/project-status-badge.tsx';
import { useActiveProjects, useProjectsDueSoon } from '../../data/project-queries.ts';
import { useSync, useSyncStatus } from '../workspace/sync-context.tsx';
import { useWorkspace, WorkspaceGate } from '../workspace/workspace-gate.tsx';
import { localToday } from '../../data/invoices.ts';
import { DashboardMoney } from './dashboard-money.tsx';
import { DashboardWork } from './dashboard-work.tsx';
import { Panel } from './dashboard-panel.tsx';
import { WelcomeModal } from './welcome-modal.tsx';

export function DashboardScreen() {
  usePageTitle('Dashboard');
  return (
    <>
      <h1 className="text-3xl font-bold tracking-tight text-fg">Dashboard</h1>
      <WorkspaceGate>
        <DashboardContent />
      </WorkspaceGate>
      <WelcomeModal />
    </>
  );
}

const dateFormat = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short' });

function formatDue(dueDate: string, today: string): string {
  if (dueDate < today) return `Overdue since ${dateFormat.format(new Date(`${dueDate}T00:00`))}`;
  if (dueDate === today) return 'Due today';
  return `Due ${dateFormat.format(new Date(`${dueDate}T00:00`))}`;
}

function DashboardContent() {
  const { handle } = useSync();
  const workspace = useWorkspace();
  const status = useSyncStatus();
  const today = localToday();
  const active = useActiveProjects(handle.db, workspace.id);
  const dueSoon = useProjectsDueSoon(handle.db, workspace.id, today);
  const recent = useRecentClients(handle.db, workspace.id, 6);
  const sync = describeSyncStatus(status);

  return (
    <div className="mt-2">
      <p className="text-fg-muted">
        {workspace.name} · {sync.text}
      </p>
      <div className="mt-6 grid gap-6 lg:grid-cols-2">
        <DashboardWork workspaceId={workspace.id} today={today} />
        <DashboardMoney workspaceId={workspace.id} />
        <Panel
          title="Projects due soon"
          icon={<CalendarClock aria-hidden="true" size={18} />}
          rows={dueSoon}
          empty="No project is due in the next two weeks."
          render={(project) => (
            <ProjectRow project={project} detail={formatDue(project.dueDate ?? today, today)} />
          )}
        />
        <Panel
          title="Active projects"
          icon={<FolderKanban aria-hidden="true" size={18} />}
          rows={active}
          empty="No active projects. Start one from Projects."
          link={{ to: '/projects', label: 'All projects' }}
          render={(project) => (
            <ProjectRow
              project={project}
              detail={project.dueDate ? formatDue(project.dueDate, today) : 'No due date'}
            />
          )}
        />
        <Panel
          title="Recent clients"
          icon={<Users aria-hidden="true" size={18} />}
          rows={recent}
          empty="No clients yet."
          link={{ to: '/clients', label: 'All clients' }}
          render={(client) => <ClientRow client={client} />}
        />
        <section className="rounded-2xl border border-dashed border-border-strong p-5">
          <h2 className="font-semibold text-fg">Quick start</h2>
          <ul className="mt-3 flex flex-col gap-2 text-sm">
            <li>
              <Link to="/clients" className="inline-flex items-center gap-2 font-medium text-brand">
                <Plus aria-hidden="true" size={16} /> Add a client
              </Link>
            </li>
            <li>
              <Link
                to="/projects"
                className="inline-flex items-center gap-2 font-medium text-brand"
              >
                <Plus aria-hidden="true" size={16} /> Start a project
              </Link>
            </li>
          </ul>
          <p className="mt-3 text-sm text-fg-muted">
            Everything you add is saved on this device first, so it works on a train with no signal
            too.
          </p>
        </section>
      </div>
    </div>
  );
}

function ProjectRow({ project, detail }: { project: LocalProject; detail: string }) {
  return (
    <Link
      to="/projects/$projectId/$clientId"
      params={{ projectId: project.id, clientId: project.clientId }}
      className="flex min-h-12 items-center justify-between gap-3 py-2 hover:text-brand"
    >
      <span className="min-w-0">
        <span className="block truncate font-medium">{project.name}</span>
        <span className="block truncate text-sm text-fg-muted">{detail}</span>
      </span>
      <ProjectStatusBadge status={project.status} />
    </Link>
  );
}

function ClientRow({ client }: { client: LocalClient }) {
  return (
    <Link
      to="/clients/$id"
      params={{ id: client.id }}
      className="flex min-h-12 items-center justify-between gap-3 py-2 hover:text-brand"
    >
      <span className="min-w-0">
        <span className="block truncate font-medium">{client.name}</span>
        <span className="block truncate text-sm text-fg-muted">{client.company ?? '\u00a0'}</span>
      </span>
      <span className={clientStatusBadgeClass(client.status)}>
        {clientStatusLabels[client.status]}
      </span>
    </Link>
  );
}
