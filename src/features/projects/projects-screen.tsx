/**
 * /projects: every project of the workspace from the local database (instant, offline), as a list
 * or a board by status, filtered by client, status and search. View and filters are URL state
 * (projects-search.ts); a view not named in the URL is the one last used on this device.
 * Shortcuts: "n" new project, "/" search.
 */
import { Archive, FolderKanban, Plus, SearchX } from 'lucide-react';
import { useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import type { ProjectStatus } from '#contract/entities/project.ts';
import type { AppDatabase, LocalProject } from '../../db/app-database.ts';
import { useLiveQuery } from '../../db/live-query.ts';
import { Button } from '../../ui/button.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { useKeyShortcut } from '../../ui/use-key-shortcut.ts';
import { usePageTitle } from '../../ui/use-page-title.ts';
import { useToast } from '../../ui/use-toast.ts';
import { useClients } from '../../data/client-queries.ts';
import { useUnreadCounts } from '../../data/chat.ts';
import { useSync, useWriteContext } from '../workspace/sync-context.tsx';
import { useWorkspace, WorkspaceGate } from '../workspace/workspace-gate.tsx';
import { CreateProjectDialog } from './create-project-dialog.tsx';
import { ProjectBoard } from './project-board.tsx';
import { localToday } from './project-format.ts';
import { projectStatuses, statusLabels } from './project-labels.ts';
import { LIST_PAGE_SIZE, ProjectList } from './project-list.tsx';
import { updateProject } from '../../data/project-mutations.ts';
import { listFirstProjects, useProjects } from '../../data/project-queries.ts';
import type { ProjectsSearch } from './projects-search.ts';
import { ProjectsToolbar } from './projects-toolbar.tsx';
import { useRememberedView } from './use-remembered-view.ts';
import { writeErrorFields } from '../../data/write-error-fields.ts';
import { showUndoNotice } from '../../ui/undo-notice.ts';
import { focusWhenReady } from '../../ui/focus-when-ready.ts';
import { createdProjectFocusTarget } from './created-project-focus.ts';

export interface ProjectsScreenProps {
  search: ProjectsSearch;
  onSearchChange: (next: ProjectsSearch) => void;
}

export function ProjectsScreen(props: ProjectsScreenProps) {
  usePageTitle('Projects');
  return (
    <div>
      <h1 className="text-3xl font-bold tracking-tight text-fg sm:text-4xl">Projects</h1>
      <div className="mt-6">
        <WorkspaceGate>
          <ProjectsContent {...props} />
        </WorkspaceGate>
      </div>
    </div>
  );
}

/** Drops keys whose value is undefined, so the URL stays clean. */
function cleanSearch(search: ProjectsSearch): ProjectsSearch {
  return Object.fromEntries(
    Object.entries(search).filter(([, value]) => value !== undefined && value !== false),
  );
}

function ProjectsContent({ search, onSearchChange }: ProjectsScreenProps) {
  const { handle, userId } = useSync();
  const db = handle.db;
  const ctx = useWriteContext();
  const workspace = useWorkspace();
  const toaster = useToast();
  const [rememberedView, rememberView] = useRememberedView();
  const view = search.view ?? rememberedView;
  const [query, setQuery] = useState(search.q ?? '');
  const deferredQuery = useDeferredValue(query);
  const [creating, setCreating] = useState<{ status?: ProjectStatus } | null>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  const today = localToday();

  const update = (patch: Partial<ProjectsSearch>) =>
    onSearchChange(cleanSearch({ ...search, ...patch }));

  const clients = useClients(db, workspace.id, { includeArchived: true });
  const unread = useUnreadCounts(db, workspace.id, userId);
  // Cold open of a long list: the first page comes off the index and paints at once; reading
  // every row (and cloning it onto the main thread) waits until that page is on screen.
  const unfilteredList =
    view === 'list' &&
    search.status === undefined &&
    search.client === undefined &&
    !search.archived &&
    deferredQuery.trim() === '';
  const [fullListWanted, setFullListWanted] = useState(!unfilteredList);
  const firstPage = useLiveQuery(
    () =>
      unfilteredList && !fullListWanted
        ? listFirstProjects(db, workspace.id, LIST_PAGE_SIZE)
        : Promise.resolve(null),
    [db, workspace.id, unfilteredList, fullListWanted],
  );
  useEffect(() => {
    if (fullListWanted || firstPage === undefined) return;
    // After the first page is painted (a frame, then a task).
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => setFullListWanted(true), 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      if (timer !== undefined) clearTimeout(timer);
    };
  }, [firstPage, fullListWanted]);
  const projects = useProjects(
    db,
    workspace.id,
    {
      ...(search.status === undefined ? {} : { status: search.status }),
      ...(search.client === undefined ? {} : { clientId: search.client }),
      ...(search.archived ? { includeArchived: true } : {}),
      ...(deferredQuery.trim() === '' ? {} : { search: deferredQuery }),
    },
    fullListWanted || !unfilteredList,
  );
  const clientNames = useMemo(
    () => new Map((clients ?? []).map((client) => [client.id, client.name])),
    [clients],
  );
  useKeyShortcut('n', () => setCreating({}), creating === null);
  useKeyShortcut('/', () => searchRef.current?.focus());

  const move = async (project: LocalProject, status: ProjectStatus) => {
    const from = project.status;
    try {
      await updateProject(ctx, project.id, { status });
      showUndoNotice(toaster, {
        message: `Moved “${project.name}” to ${statusLabels[status]}`,
        undo: () => void updateProject(ctx, project.id, { status: from }),
      });
    } catch (error) {
      toaster.show({
        tone: 'error',
        message:
          writeErrorFields(error).status ??
          writeErrorFields(error).form ??
          'The project could not be moved.',
      });
    }
  };

  const isFiltered =
    search.status !== undefined ||
    search.client !== undefined ||
    search.archived === true ||
    query.trim() !== '';

  let body;
  if (projects === undefined && clients !== undefined && firstPage && firstPage.length > 0) {
    body = (
      <ProjectList
        projects={firstPage}
        clientNames={clientNames}
        today={today}
        onMove={(project, status) => void move(project, status)}
        unread={unread}
      />
    );
  } else if (projects === undefined || clients === undefined) {
    body = (
      <div role="status" className="flex items-center justify-center gap-2 py-16 text-fg-muted">
        <Spinner size="small" />
        Loading projects…
      </div>
    );
  } else if (projects.length === 0 && !isFiltered) {
    body = (
      <FirstProject
        db={db}
        workspaceId={workspace.id}
        onCreate={() => setCreating({})}
        onShowArchived={() => update({ archived: true })}
      />
    );
  } else if (projects.length === 0 && view === 'list') {
    body = (
      <NoMatches
        onClear={() => {
          setQuery('');
          onSearchChange(cleanSearch({ view: search.view }));
          // The button goes with the message; the search is where one goes on.
          searchRef.current?.focus();
        }}
      />
    );
  } else if (view === 'board') {
    body = (
      <ProjectBoard
        columns={search.status === undefined ? projectStatuses : [search.status]}
        projects={projects}
        clientNames={clientNames}
        today={today}
        onMove={(project, status) => void move(project, status)}
        onCreateIn={(status) => setCreating({ status })}
        unread={unread}
      />
    );
  } else {
    body = (
      <ProjectList
        projects={projects}
        clientNames={clientNames}
        today={today}
        onMove={(project, status) => void move(project, status)}
        unread={unread}
      />
    );
  }

  return (
    <>
      <div className="flex flex-col gap-4">
        <ProjectsToolbar
          query={query}
          onQueryChange={(next) => {
            setQuery(next);
            update({ q: next.trim() === '' ? undefined : next });
          }}
          searchRef={searchRef}
          clients={clients ?? []}
          clientId={search.client}
          onClientChange={(client) => update({ client })}
          status={search.status}
          onStatusChange={(status) => update({ status })}
          showArchived={search.archived === true}
          onShowArchivedChange={(archived) => update({ archived })}
          view={view}
          onViewChange={(next) => {
            rememberView(next);
            update({ view: next });
          }}
          createButton={
            <Button
              onPress={() => setCreating({})}
              aria-keyshortcuts="n"
              data-new-project
              className="shrink-0"
            >
              <Plus aria-hidden="true" size={18} />
              <span className="sr-only sm:not-sr-only">New project</span>
            </Button>
          }
        />
        {projects !== undefined && projects.length > 0 ? (
          <p className="text-sm text-fg-muted" aria-live="polite">
            {projects.length === 1 ? '1 project' : `${projects.length} projects`}
            {isFiltered ? (projects.length === 1 ? ' matches' : ' match') : ''}
          </p>
        ) : null}
        {body}
      </div>
      <CreateProjectDialog
        isOpen={creating !== null}
        onClose={() => setCreating(null)}
        onCreated={(project) => {
          setCreating(null);
          toaster.show({ tone: 'success', message: `Project “${project.name}” created` });
          // The list stays (no navigation): focus follows the new project rather than the page.
          focusWhenReady(createdProjectFocusTarget(project, search, query));
        }}
        ctx={ctx}
        workspaceId={workspace.id}
        defaultCurrency={workspace.currency}
        // Archived ones too: the dialog offers them when typed, rather than a duplicate.
        clients={clients ?? []}
        initialClientId={search.client}
        initialStatus={creating?.status ?? search.status}
      />
    </>
  );
}

interface FirstProjectProps {
  db: AppDatabase;
  workspaceId: string;
  onCreate: () => void;
  onShowArchived: () => void;
}

function FirstProject({ db, workspaceId, onCreate, onShowArchived }: FirstProjectProps) {
  // "No projects yet" would be wrong when they are all archived: say where they are instead.
  const archived = useLiveQuery(
    () =>
      db.projects
        .where('workspaceId')
        .equals(workspaceId)
        .filter((project) => project.archived && !project._deleted)
        .count(),
    [db, workspaceId],
  );
  if (archived === undefined) return null;
  if (archived > 0) {
    return (
      <section className="flex flex-col items-center rounded-2xl border border-dashed border-border-strong bg-surface px-6 py-12 text-center">
        <Archive aria-hidden="true" size={28} className="text-fg-muted" />
        <h2 className="mt-3 text-lg font-semibold text-fg">All your projects are archived</h2>
        <p className="mt-1 max-w-md text-fg-muted">
          {archived === 1 ? 'One archived project is' : `${archived} archived projects are`} hidden
          from this list. Show them, or start a new project.
        </p>
        <div className="mt-5 flex flex-col gap-3 sm:flex-row">
          <Button variant="secondary" onPress={onShowArchived}>
            Show archived projects
          </Button>
          <Button onPress={onCreate}>
            <Plus aria-hidden="true" size={18} />
            New project
          </Button>
        </div>
      </section>
    );
  }
  return (
    <section className="flex flex-col items-center rounded-2xl border border-dashed border-border-strong bg-surface px-6 py-12 text-center">
      <span className="grid size-14 place-items-center rounded-2xl bg-brand-soft text-brand">
        <FolderKanban aria-hidden="true" size={28} />
      </span>
      <h2 className="mt-4 text-xl font-semibold text-fg">No projects yet</h2>
      <p className="mt-2 max-w-md text-fg-muted">
        Create your first project to track its status, dates and budget. Pick one of your clients or
        add a new one as you go. It is saved on this device at once, even offline.
      </p>
      <Button className="mt-6" onPress={onCreate}>
        <Plus aria-hidden="true" size={18} />
        Create your first project
      </Button>
      <p className="mt-3 hidden text-sm text-fg-muted sm:block">
        Tip: press <kbd className="rounded border border-border px-1.5 font-sans">N</kbd> anywhere
        on this page to start a new project.
      </p>
    </section>
  );
}

function NoMatches({ onClear }: { onClear: () => void }) {
  return (
    <section className="flex flex-col items-center rounded-2xl border border-border bg-surface px-6 py-12 text-center">
      <SearchX aria-hidden="true" size={28} className="text-fg-muted" />
      <h2 className="mt-3 text-lg font-semibold text-fg">No projects match</h2>
      <p className="mt-1 text-fg-muted">
        Try another search, or clear the filters to see them all.
      </p>
      <Button variant="secondary" className="mt-5" onPress={onClear}>
        Clear filters
      </Button>
    </section>
  );
}
