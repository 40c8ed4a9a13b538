/**
 * /change-requests: every change request of the workspace from the local database (instant,
 * offline), filtered by status (the open ones by default: new or quoted, what waits on a member)
 * and by project, both URL state (change-requests-search.ts). A request opens its answer panel;
 * a member can also record a request a client made outside the portal. Shortcut: "n" new request.
 * After an answer takes a request out of the filtered list, focus moves on to the next row.
 */
import { changeRequestStatusWords } from '#contract/entities/change-request.ts';
import { GitPullRequestArrow, Inbox, Plus, SearchX } from 'lucide-react';
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { LocalProject } from '../../db/app-database.ts';
import { useClients } from '../../data/client-queries.ts';
import { answerChangeRequest } from '../../data/change-request-mutations.ts';
import {
  matchesChangeRequestFilter,
  useChangeRequests,
  type ChangeRequestStatusFilter,
  type LocalChangeRequest,
} from '../../data/change-request-queries.ts';
import { useProjects } from '../../data/project-queries.ts';
import { writeErrorFields } from '../../data/write-error-fields.ts';
import { Button } from '../../ui/button.tsx';
import { EmptyState } from '../../ui/empty-state.tsx';
import { PageHeading } from '../../ui/page-heading.tsx';
import { SelectField } from '../../ui/select-field.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { showUndoNotice } from '../../ui/undo-notice.ts';
import { useKeyShortcut } from '../../ui/use-key-shortcut.ts';
import { usePageTitle } from '../../ui/use-page-title.ts';
import { useToast } from '../../ui/use-toast.ts';
import { useMemberNames } from '../files/use-member-names.ts';
import { focusWhenReady } from '../../ui/focus-when-ready.ts';
import { useSync, useWriteContext } from '../workspace/sync-context.tsx';
import { useWorkspace, WorkspaceGate } from '../workspace/workspace-gate.tsx';
import type { AnswerOutcome } from './change-request-answer-form.tsx';
import { changeRequestButtonId, ChangeRequestRow } from './change-request-row.tsx';
import { ChangeRequestSheet } from './change-request-sheet.tsx';
import type { ChangeRequestsSearch } from './change-requests-search.ts';
import { NewChangeRequestDialog } from './new-change-request-dialog.tsx';

export interface ChangeRequestsScreenProps {
  search: ChangeRequestsSearch;
  onSearchChange: (next: ChangeRequestsSearch) => void;
}

/** How long Undo is offered after an answer. */
const UNDO_WINDOW_MS = 8000;
const HEADING_ID = 'change-requests-heading';
const ALL_PROJECTS = 'all-projects';

const statusOptions: { id: ChangeRequestStatusFilter; label: string }[] = [
  { id: 'open', label: 'All open' },
  { id: 'submitted', label: changeRequestStatusWords.submitted },
  { id: 'quoted', label: changeRequestStatusWords.quoted },
  { id: 'approved', label: changeRequestStatusWords.approved },
  { id: 'declined', label: changeRequestStatusWords.declined },
  { id: 'accepted', label: changeRequestStatusWords.accepted },
  { id: 'quote_declined', label: changeRequestStatusWords.quote_declined },
  { id: 'all', label: 'All statuses' },
];

const answeredWords: Record<AnswerOutcome['status'], (title: string) => string> = {
  quoted: (title) => `Quote for “${title}” saved: the client sees it once it syncs`,
  approved: (title) => `“${title}” approved`,
  declined: (title) => `“${title}” declined`,
  submitted: (title) => `“${title}” saved`,
};

export function ChangeRequestsScreen(props: ChangeRequestsScreenProps) {
  usePageTitle('Change requests');
  return (
    <div>
      <PageHeading id={HEADING_ID}>Change requests</PageHeading>
      <p className="mt-2 max-w-prose text-fg-muted">
        What your clients asked to change, across your projects: price it, answer it, and add it to
        the plan.
      </p>
      <div className="mt-6">
        <WorkspaceGate>
          <ChangeRequestsContent {...props} />
        </WorkspaceGate>
      </div>
    </div>
  );
}

const byName = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });

/** "2 open change requests", "5 change requests", "1 change request matches". */
function countText(count: number, status: ChangeRequestStatusFilter, byProject: boolean): string {
  const noun = count === 1 ? 'change request' : 'change requests';
  if (status === 'open' && !byProject) return `${count} open ${noun}`;
  if (status === 'all' && !byProject) return `${count} ${noun}`;
  return `${count} ${noun} ${count === 1 ? 'matches' : 'match'}`;
}

function ChangeRequestsContent({ search, onSearchChange }: ChangeRequestsScreenProps) {
  const { handle } = useSync();
  const db = handle.db;
  const ctx = useWriteContext();
  const workspace = useWorkspace();
  const toaster = useToast();
  const memberName = useMemberNames(workspace.id);
  const requests = useChangeRequests(db, workspace.id);
  const projects = useProjects(db, workspace.id, { includeArchived: true });
  const clients = useClients(db, workspace.id, { includeArchived: true });
  const [openId, setOpenId] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  /** A request just answered: where it stood in the list, and the status it was given. */
  const answered = useRef<{ id: string; index: number; status: string } | null>(null);

  const status = search.status ?? 'open';
  const projectId = search.projectId;
  const filtered = status !== 'open' || projectId !== undefined;

  const projectById = useMemo(
    () => new Map((projects ?? []).map((project) => [project.id, project])),
    [projects],
  );
  const clientNames = useMemo(
    () => new Map((clients ?? []).map((client) => [client.id, client.name])),
    [clients],
  );
  const shown = useMemo(
    () => requests?.filter((request) => matchesChangeRequestFilter(request, { status, projectId })),
    [requests, status, projectId],
  );
  const projectOptions = useMemo(() => {
    const ids = new Set((requests ?? []).map((request) => request.projectId));
    if (projectId !== undefined) ids.add(projectId);
    const options = [...ids]
      .map((id) => ({ id, label: projectById.get(id)?.name ?? 'A project not on this device' }))
      .sort((a, b) => byName.compare(a.label, b.label));
    return [{ id: ALL_PROJECTS, label: 'All projects' }, ...options];
  }, [requests, projectId, projectById]);
  const recordable = useMemo(
    () =>
      (projects ?? [])
        .filter((project) => !project.archived)
        .sort((a, b) => byName.compare(a.name, b.name)),
    [projects],
  );

  useKeyShortcut('n', () => setCreating(true), !creating && openId === null);

  // Focus after an answer: the row itself when it is still listed (react-aria puts it back
  // there), else the row that took its place, the one before it, or the page heading.
  useEffect(() => {
    const want = answered.current;
    if (!want || openId !== null || requests === undefined || shown === undefined) return;
    const row = requests.find((request) => request.id === want.id);
    // The list has not caught up with the answer yet.
    if (row && row.status !== want.status) return;
    answered.current = null;
    if (shown.some((request) => request.id === want.id)) return;
    const next = shown[want.index] ?? shown[want.index - 1];
    focusWhenReady(next ? `#${CSS.escape(changeRequestButtonId(next.id))}` : `#${HEADING_ID}`);
  }, [requests, shown, openId]);

  const update = (patch: Partial<ChangeRequestsSearch>) => {
    const next = { ...search, ...patch };
    onSearchChange(
      Object.fromEntries(Object.entries(next).filter(([, value]) => value !== undefined)),
    );
  };

  // A link to one request (a notification's) opens its panel once the request is on the device.
  const linked = search.request;
  const linkedHere = linked !== undefined && requests?.some((request) => request.id === linked);
  useEffect(() => {
    if (linked !== undefined && linkedHere) setOpenId(linked);
  }, [linked, linkedHere]);

  /** Closes the panel; one a link opened gives focus to its row (there was no button before). */
  const closePanel = ({ focusRow = true } = {}) => {
    const id = openId;
    setOpenId(null);
    if (linked === undefined) return;
    update({ request: undefined });
    if (!focusRow) return;
    const listed = id !== null && shown?.some((request) => request.id === id);
    focusWhenReady(listed ? `#${CSS.escape(changeRequestButtonId(id))}` : `#${HEADING_ID}`);
  };

  const names = (request: LocalChangeRequest) => {
    const project = projectById.get(request.projectId);
    return {
      project,
      projectName: project?.name ?? 'A project not on this device',
      clientName: project ? (clientNames.get(project.clientId) ?? null) : null,
      askedBy:
        request.source === 'portal'
          ? request.requestedBy || 'The client'
          : memberName(request.createdBy),
    };
  };

  const onAnswered = (request: LocalChangeRequest, outcome: AnswerOutcome) => {
    const title = request.title;
    if (!outcome.changed) {
      toaster.show({ message: `Nothing changed in “${title}”` });
      return;
    }
    answered.current = {
      id: request.id,
      index: shown?.findIndex((row) => row.id === request.id) ?? -1,
      status: outcome.status,
    };
    // Focus follows the answer (the effect above), not the link.
    closePanel({ focusRow: false });
    const message = answeredWords[outcome.status](title);
    const previous = outcome.previous;
    if (!previous) {
      toaster.show({ tone: 'success', message });
      return;
    }
    showUndoNotice(toaster, {
      message,
      durationMs: UNDO_WINDOW_MS,
      undo: () => {
        answerChangeRequest(ctx, request.id, previous).catch((error: unknown) => {
          toaster.show({
            tone: 'error',
            message:
              writeErrorFields(error).status ??
              writeErrorFields(error).form ??
              `“${title}” could not be put back.`,
          });
        });
      },
    });
  };

  let body: ReactNode;
  if (requests === undefined || projects === undefined || clients === undefined) {
    body = (
      <div role="status" className="flex items-center justify-center gap-2 py-16 text-fg-muted">
        <Spinner size="small" />
        Loading change requests…
      </div>
    );
  } else if (requests.length === 0) {
    body = <NoRequests onCreate={() => setCreating(true)} />;
  } else if (shown?.length === 0 && !filtered) {
    body = <NothingOpen onShowAll={() => update({ status: 'all' })} />;
  } else if (shown?.length === 0) {
    body = <NoMatches onClear={() => onSearchChange({})} />;
  } else {
    body = (
      <ul aria-label="Change requests" className="flex flex-col gap-3">
        {(shown ?? []).map((request) => (
          <ChangeRequestRow
            key={request.id}
            request={request}
            {...names(request)}
            onOpen={() => setOpenId(request.id)}
          />
        ))}
      </ul>
    );
  }

  const open = openId === null ? undefined : requests?.find((request) => request.id === openId);
  const openNames = open ? names(open) : null;

  return (
    <>
      <div className="flex flex-col gap-4">
        <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
          {/* Nothing to filter yet: the empty state says what the page is for instead. */}
          <div hidden={requests?.length === 0} className="grid grid-cols-2 gap-2 sm:flex sm:gap-3">
            <SelectField
              label="Status"
              isLabelHidden
              options={statusOptions}
              value={status}
              onChange={(value) => update({ status: value === 'open' ? undefined : value })}
              className="min-w-0 sm:w-48"
            />
            <SelectField
              label="Project"
              isLabelHidden
              options={projectOptions}
              value={projectId ?? ALL_PROJECTS}
              onChange={(value) =>
                update({ projectId: value === ALL_PROJECTS ? undefined : value })
              }
              className="min-w-0 sm:w-60"
            />
          </div>
          <Button
            onPress={() => setCreating(true)}
            aria-keyshortcuts="n"
            className="shrink-0 sm:ml-auto"
          >
            <Plus aria-hidden="true" size={18} />
            New change request
          </Button>
        </div>
        {shown !== undefined && shown.length > 0 ? (
          <p className="text-sm text-fg-muted" aria-live="polite">
            {countText(shown.length, status, projectId !== undefined)}
          </p>
        ) : null}
        {linked !== undefined && requests !== undefined && !linkedHere ? (
          <p role="status" className="text-sm text-fg-muted">
            The change request this link opens is not on this device yet. It opens here as soon as
            it arrives.
          </p>
        ) : null}
        {body}
      </div>
      {open && openNames ? (
        <ChangeRequestSheet
          key={open.id}
          request={open}
          projectName={openNames.projectName}
          projectHref={projectHref(openNames.project)}
          clientName={openNames.clientName}
          askedBy={openNames.askedBy}
          onClose={() => closePanel()}
          onAnswered={(outcome) => onAnswered(open, outcome)}
          onApplied={(result) => {
            const parts = [
              result.created ? `milestone “${result.created.title}” added` : null,
              result.moved > 0
                ? `${result.moved} due ${result.moved === 1 ? 'date' : 'dates'} moved`
                : null,
            ].filter(Boolean);
            toaster.show({
              tone: 'success',
              message: `“${open.title}” applied${parts.length > 0 ? `: ${parts.join(', ')}` : ''}`,
            });
          }}
        />
      ) : null}
      {creating ? (
        <NewChangeRequestDialog
          projects={recordable}
          clientNames={clientNames}
          initialProjectId={projectId}
          onClose={() => setCreating(false)}
          onCreated={(request) => {
            setCreating(false);
            toaster.show({
              tone: 'success',
              message: `Change request “${request.title}” recorded`,
            });
          }}
        />
      ) : null}
    </>
  );
}

function projectHref(project: LocalProject | undefined): string | null {
  return project
    ? `/projects/${encodeURIComponent(project.id)}/${encodeURIComponent(project.clientId)}`
    : null;
}

function NoRequests({ onCreate }: { onCreate: () => void }) {
  return (
    <EmptyState
      icon={
        <span className="grid size-14 place-items-center rounded-2xl bg-brand-soft text-brand">
          <GitPullRequestArrow aria-hidden="true" size={28} />
        </span>
      }
      title="No change requests yet"
      action={
        <Button onPress={onCreate}>
          <Plus aria-hidden="true" size={18} />
          Record a change request
        </Button>
      }
    >
      When a client asks for something new in their portal, it lands here for you to price and
      answer. A change asked for on a call or by e-mail can be written down here too.
    </EmptyState>
  );
}

function NothingOpen({ onShowAll }: { onShowAll: () => void }) {
  return (
    <EmptyState
      icon={<Inbox aria-hidden="true" size={28} className="text-fg-muted" />}
      title="Nothing is waiting on you"
      action={
        <Button variant="secondary" onPress={onShowAll}>
          Show all change requests
        </Button>
      }
    >
      Every change request has its answer. Show them all to look back at what was approved, quoted
      or declined.
    </EmptyState>
  );
}

function NoMatches({ onClear }: { onClear: () => void }) {
  return (
    <EmptyState
      icon={<SearchX aria-hidden="true" size={28} className="text-fg-muted" />}
      title="No change requests match"
      action={
        <Button variant="secondary" onPress={onClear}>
          Clear filters
        </Button>
      }
    >
      None of the change requests has this status or project. Clear the filters to see the open
      ones.
    </EmptyState>
  );
}
