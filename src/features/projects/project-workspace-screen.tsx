/**
 * /projects/{projectId}/{clientId}: one project, read from the local database. The header names
 * it (its h1 is the project's name), links its client and shows its status; the tabs hold the
 * overview, the board of tasks, milestones, notes, files and activity; chat comes with its work.
 * A URL with the wrong client id (the project moved to another client, an old link) is corrected
 * in place; a project that is not on this device says so.
 */
import { ArrowLeft, FolderX } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Tab, TabList, TabPanel, Tabs } from 'react-aria-components';
import { ActivityTab } from '../activity/activity-tab.tsx';
import { ProjectChangeRequestsLink } from '../change-requests/project-change-requests-link.tsx';
import { FilesTab } from '../files/files-tab.tsx';
import { useFilesRuntime } from '../files/use-files-runtime.tsx';
import { MilestonesTab } from '../milestones/milestones-tab.tsx';
import { NotesTab } from '../notes/notes-tab.tsx';
import { PortalAccessButton } from '../portal/portal-access-dialog.tsx';
import { TasksTab } from '../tasks/tasks-tab.tsx';
import { LinkButton } from '../../ui/link-button.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { TextLink } from '../../ui/text-link.tsx';
import { usePageTitle } from '../../ui/use-page-title.ts';
import { LoadedModule } from '../../ui/loaded-module.tsx';
import { scrollIntoRow } from '../../ui/scroll-into-row.ts';
import { useUnreadCount } from '../../data/chat.ts';
import { useClient } from '../../data/client-queries.ts';
import { useSync, useWriteContext } from '../workspace/sync-context.tsx';
import { WorkspaceGate } from '../workspace/workspace-gate.tsx';
import { projectColors } from './project-labels.ts';
import { ProjectOverview } from './project-overview.tsx';
import { useProject } from '../../data/project-queries.ts';
import { ProjectStatusBadge } from './project-status-badge.tsx';

export const projectTabs = [
  'overview',
  'tasks',
  'milestones',
  'notes',
  'chat',
  'files',
  'calendar',
  'activity',
] as const;
export type ProjectTab = (typeof projectTabs)[number];

export function toProjectTab(value: string | undefined): ProjectTab {
  return projectTabs.find((tab) => tab === value) ?? 'overview';
}

export interface ProjectWorkspaceScreenProps {
  projectId: string;
  clientId: string;
  tab: ProjectTab;
  onTabChange: (tab: ProjectTab) => void;
  /** The project belongs to another client than the URL says: replace the URL. */
  onClientMismatch: (clientId: string) => void;
  /** After a delete: leave for the projects list. */
  onDeleted: () => void;
}

const FALLBACK_TITLE = 'Project workspace';

export function ProjectWorkspaceScreen(props: ProjectWorkspaceScreenProps) {
  // The inner screen names the page once the project is here; until then it is the generic name.
  const [title, setTitle] = useState<string | null>(null);
  usePageTitle(title ?? FALLBACK_TITLE);
  // A lazy tab opened by URL starts loading now, beside the workspace and the project's reads,
  // rather than once they are in and the tab first renders.
  const { tab } = props;
  useEffect(() => {
    if (tab === 'chat') void loadChatTab();
    if (tab === 'calendar') void loadCalendarTab();
  }, [tab]);
  return (
    <WorkspaceGate title={FALLBACK_TITLE}>
      <ProjectWorkspace {...props} onTitle={setTitle} />
    </WorkspaceGate>
  );
}

const tabLabels: Record<ProjectTab, string> = {
  overview: 'Overview',
  tasks: 'Tasks',
  milestones: 'Milestones',
  notes: 'Notes',
  chat: 'Chat',
  files: 'Files',
  calendar: 'Calendar',
  activity: 'Activity',
};

// The calendar (and date-fns) load with the tab, not with the project.
const loadCalendarTab = () => import('../calendar/calendar-tab.tsx');

// The chat (its composer, formatting and menus) loads with its tab too.
const loadChatTab = () => import('../chat/chat-tab.tsx');

/**
 * On a phone the tab row scrolls sideways: the selected tab (one opened by URL, a link to the Chat
 * tab say) is brought into the row's view when it appears, so the row says where the reader is.
 */
function showSelectedTab(tab: HTMLDivElement | null) {
  // React Aria builds its collection in a pass of its own first, on nodes that are not the DOM's.
  if (tab instanceof HTMLElement && tab.parentElement instanceof HTMLElement) {
    scrollIntoRow(tab.parentElement, tab);
  }
}

/** A code-split tab's place while its code loads. */
function TabLoading({ children }: { children: string }) {
  return (
    <div role="status" className="flex flex-col items-center gap-3 py-16 text-fg-muted">
      <Spinner />
      {children}
    </div>
  );
}

function ProjectWorkspace({
  projectId,
  clientId,
  tab,
  onTabChange,
  onClientMismatch,
  onDeleted,
  onTitle,
}: ProjectWorkspaceScreenProps & { onTitle: (title: string | null) => void }) {
  const { handle } = useSync();
  const ctx = useWriteContext();
  // Uploads waiting on this device (also from before a reload) go on while any tab is open.
  useFilesRuntime();
  const project = useProject(handle.db, projectId);
  const client = useClient(handle.db, project?.clientId ?? clientId);
  const mismatch = project ? project.clientId !== clientId : false;

  useEffect(() => {
    if (project && mismatch) onClientMismatch(project.clientId);
  }, [project, mismatch, onClientMismatch]);
  useEffect(() => {
    onTitle(project === null ? 'Project not found' : (project?.name ?? null));
  }, [project, onTitle]);

  if (project === undefined || mismatch) {
    return (
      <div role="status" className="flex flex-col items-center gap-3 py-16 text-fg-muted">
        <h1 className="sr-only">{FALLBACK_TITLE}</h1>
        <Spinner />
        Opening the project…
      </div>
    );
  }
  if (project === null) return <ProjectNotFound />;

  return (
    <div className="flex flex-col gap-6">
      <header className="flex flex-col gap-3">
        <TextLink href="/projects" className="inline-flex w-fit items-center gap-1 text-sm">
          <ArrowLeft aria-hidden="true" size={14} />
          Projects
        </TextLink>
        <div className="flex items-start gap-3">
          {project.color ? (
            // No colour shows nothing here: an empty swatch read as an unticked checkbox.
            <span
              role="img"
              aria-label={`Colour: ${colorName(project.color)}`}
              title={colorName(project.color)}
              className="mt-2 size-4 shrink-0 rounded-full sm:mt-3"
              style={{ backgroundColor: project.color }}
            />
          ) : null}
          <div className="min-w-0 flex-1">
            <h1 className="text-2xl font-bold tracking-tight break-words text-fg sm:text-3xl">
              {project.name}
            </h1>
            <div className="mt-2 flex flex-wrap items-center gap-x-3 gap-y-2 text-sm text-fg-muted">
              <ProjectStatusBadge status={project.status} />
              {project.archived ? (
                <span className="rounded-full bg-surface-muted px-2 py-0.5 text-xs font-semibold">
                  Archived
                </span>
              ) : null}
              <span>
                Client:{' '}
                {client ? (
                  <TextLink href={`/clients/${encodeURIComponent(client.id)}`}>
                    {client.name}
                  </TextLink>
                ) : (
                  'not on this device'
                )}
              </span>
              <ProjectChangeRequestsLink project={project} />
            </div>
          </div>
          <PortalAccessButton projectId={project.id} projectName={project.name} />
        </div>
      </header>
      <Tabs
        selectedKey={tab}
        onSelectionChange={(key) => onTabChange(toProjectTab(String(key)))}
        className="flex flex-col gap-5"
      >
        <TabList
          aria-label="Project sections"
          className="-mx-4 flex gap-1 overflow-x-auto border-b border-border px-4 sm:mx-0 sm:px-0"
        >
          {projectTabs.map((id) => (
            <Tab
              key={id}
              id={id}
              ref={id === tab ? showSelectedTab : undefined}
              className="-mb-px min-h-11 cursor-pointer border-b-2 border-transparent px-3 py-2.5 text-sm font-medium whitespace-nowrap text-fg-muted outline-none hover:text-fg data-focus-visible:ring-2 data-focus-visible:ring-ring data-selected:border-brand data-selected:text-fg"
            >
              {tabLabels[id]}
              {id === 'chat' && <UnreadBadge projectId={project.id} />}
            </Tab>
          ))}
        </TabList>
        <TabPanel id="overview" className="outline-none">
          <ProjectOverview project={project} ctx={ctx} onDeleted={onDeleted} />
        </TabPanel>
        <TabPanel id="tasks" className="outline-none">
          <TasksTab project={project} />
        </TabPanel>
        <TabPanel id="milestones" className="outline-none">
          <MilestonesTab project={project} />
        </TabPanel>
        <TabPanel id="notes" className="outline-none">
          <NotesTab project={project} />
        </TabPanel>
        <TabPanel id="activity" className="outline-none">
          <ActivityTab project={project} />
        </TabPanel>
        <TabPanel id="files" className="outline-none">
          <FilesTab project={project} />
        </TabPanel>
        <TabPanel id="calendar" className="outline-none">
          <LoadedModule
            load={loadCalendarTab}
            fallback={<TabLoading>Loading the calendar…</TabLoading>}
          >
            {({ default: CalendarTab }) => <CalendarTab project={project} />}
          </LoadedModule>
        </TabPanel>
        <TabPanel id="chat" className="outline-none">
          <LoadedModule load={loadChatTab} fallback={<TabLoading>Loading the chat…</TabLoading>}>
            {({ default: ChatTab }) => <ChatTab project={project} />}
          </LoadedModule>
        </TabPanel>
      </Tabs>
    </div>
  );
}

/** Messages from others since the member last read the chat, beside the tab's name. */
function UnreadBadge({ projectId }: { projectId: string }) {
  const { handle, userId } = useSync();
  const unread = useUnreadCount(handle.db, projectId, userId) ?? 0;
  if (unread === 0) return null;
  return (
    <>
      {' '}
      <span className="ml-1 rounded-full bg-brand px-1.5 py-0.5 text-xs font-semibold text-on-brand">
        {unread > 99 ? '99+' : unread}
        <span className="sr-only"> unread</span>
      </span>
    </>
  );
}

function ProjectNotFound() {
  return (
    <section className="mx-auto mt-10 flex max-w-md flex-col items-center text-center">
      <FolderX aria-hidden="true" size={32} className="text-fg-muted" />
      <h1 className="mt-4 text-2xl font-bold text-fg">Project not found</h1>
      <p className="mt-2 text-fg-muted">
        This project isn't on this device. It may have been deleted, or it hasn't synced here yet.
        If someone just shared it with you, give it a moment online.
      </p>
      <LinkButton href="/projects" variant="secondary" className="mt-6">
        Back to projects
      </LinkButton>
    </section>
  );
}

/** The preset's name, or the colour itself when it was set elsewhere. */
function colorName(color: string): string {
  return (
    projectColors.find((preset) => preset.value.toUpperCase() === color.toUpperCase())?.label ??
    color.toUpperCase()
  );
}
