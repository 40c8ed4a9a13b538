/**
 * The client's view of one project (/client/{clientId}/project/{projectId}): progress, milestones
 * and the files a member left visible, under the workspace's branding. What it last showed is
 * kept on the device (portal-snapshot.ts) and painted first, so the page opens offline with
 * "as of <time>"; the session rules of spec section 4 run while it is open (portal-session.ts).
 *
 * A 401 or 403 from the server means the portal session ended there (a new password, the portal
 * turned off, 30 minutes idle): the page goes back to the password gate for this project.
 */
import type { CallEndpoint } from '#contract/define-endpoint.ts';
import {
  generateSasUrl,
  getClientProject,
  getPortalFiles,
  getPortalMilestones,
  getPortalWorkspaceSettings,
  signOutPortal,
  type PortalFile,
  type PortalMilestone,
} from '#contract/endpoints/client-portal.ts';
import { milestoneStatusWords } from '#contract/entities/milestone.ts';
import { CalendarDays, CloudOff, Download, FolderOpen, LogOut, RefreshCw } from 'lucide-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Button } from '../../ui/button.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { usePageTitle } from '../../ui/use-page-title.ts';
import {
  fileIconOf,
  formatBytes,
  formatFileDate,
  formatFileDateTime,
} from '../files/file-format.ts';
import { formatAmount, formatDate, milestoneBadgeClasses } from '../milestones/milestone-format.ts';
import { ProgressBar } from '../milestones/progress-bar.tsx';
import { ProjectStatusBadge } from '../projects/project-status-badge.tsx';
import { clearPortalSession, watchPortalSession } from './portal-session.ts';
import {
  readPortalSnapshot,
  removePortalSnapshot,
  writePortalSnapshot,
  type PortalSnapshot,
} from './portal-snapshot.ts';

export interface PortalProjectScreenProps {
  projectId: string;
  clientId: string;
  callEndpoint: CallEndpoint;
  /** Back to the password gate of this project (the session ended or the client left). */
  toGate: () => void;
  /** Hands a signed download link to the browser; a test records it instead. */
  startDownload?: (url: string) => void;
  storage?: Storage | undefined;
  now?: () => number;
}

/** While the visitor is active, the page asks the server again at most this often. */
const REFRESH_AFTER_MS = 5 * 60_000;

type Freshness =
  | { state: 'loading' }
  | { state: 'fresh' }
  | { state: 'offline' }
  | { state: 'failed'; message: string };

function statusOf(error: unknown): number | null {
  const status = (error as { status?: unknown }).status;
  return typeof status === 'number' ? status : null;
}

export function PortalProjectScreen({
  projectId,
  clientId,
  callEndpoint,
  toGate,
  startDownload = (url) => window.location.assign(url),
  storage = globalThis.localStorage,
  now = Date.now,
}: PortalProjectScreenProps) {
  const [snapshot, setSnapshot] = useState<PortalSnapshot | null>(() =>
    readPortalSnapshot(storage, projectId),
  );
  const [freshness, setFreshness] = useState<Freshness>({ state: 'loading' });
  const [downloading, setDownloading] = useState<string | null>(null);
  const [downloadError, setDownloadError] = useState<string | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const lastLoad = useRef(0);
  usePageTitle(snapshot?.project.name ?? 'Your project');

  const endSession = useCallback(() => {
    clearPortalSession(storage);
    toGate();
  }, [storage, toGate]);

  const load = useCallback(async () => {
    lastLoad.current = now();
    try {
      const { project } = await callEndpoint(getClientProject, { query: { id: projectId } });
      const [{ milestones }, { files }, { workspace }] = await Promise.all([
        callEndpoint(getPortalMilestones, { query: { projectId } }),
        callEndpoint(getPortalFiles, { query: { projectId } }),
        callEndpoint(getPortalWorkspaceSettings, { query: { workspaceId: project.workspaceId } }),
      ]);
      const next: PortalSnapshot = { savedAt: now(), project, milestones, files, workspace };
      writePortalSnapshot(storage, next);
      setSnapshot(next);
      setFreshness({ state: 'fresh' });
    } catch (error) {
      const status = statusOf(error);
      if (status === 401 || status === 403) {
        endSession();
        return;
      }
      setFreshness(
        status === 0
          ? { state: 'offline' }
          : {
              state: 'failed',
              message:
                status === 400
                  ? 'This portal link is not valid. Open the link you were sent again.'
                  : 'Your project could not be loaded. Please try again.',
            },
      );
    }
  }, [callEndpoint, endSession, now, projectId, storage]);

  useEffect(() => {
    void load();
  }, [load]);

  // Spec section 4: 30 minutes without activity ends the session; activity keeps it (and, every
  // few minutes, the server's session and the data) alive.
  useEffect(
    () =>
      watchPortalSession({
        params: { projectId, clientId },
        storage,
        target: window,
        now,
        setInterval: (fn, ms) => window.setInterval(fn, ms),
        clearInterval: (id) => window.clearInterval(id as number),
        onExpire: () => {
          void callEndpoint(signOutPortal, { query: {}, body: {} }).catch(() => undefined);
          toGate();
        },
        onActivity: () => {
          if (now() - lastLoad.current >= REFRESH_AFTER_MS) void load();
        },
      }),
    [callEndpoint, clientId, load, now, projectId, storage, toGate],
  );

  useEffect(() => {
    const online = () => void load();
    window.addEventListener('online', online);
    return () => window.removeEventListener('online', online);
  }, [load]);

  const hasContent = snapshot !== null;
  useEffect(() => {
    if (hasContent) headingRef.current?.focus();
  }, [hasContent]);

  const leave = async () => {
    await callEndpoint(signOutPortal, { query: {}, body: {} }).catch(() => undefined);
    // Leaving on purpose also forgets the copy kept for offline (a shared phone, say).
    removePortalSnapshot(storage, projectId);
    endSession();
  };

  const download = async (file: PortalFile) => {
    setDownloading(file.id);
    setDownloadError(null);
    try {
      const { sasUrl } = await callEndpoint(generateSasUrl, {
        query: {
          blobName: file.blobName,
          projectId,
          expiryMinutes: '10',
          downloadFileName: file.name,
        },
      });
      startDownload(sasUrl);
    } catch (error) {
      const status = statusOf(error);
      if (status === 401) {
        endSession();
        return;
      }
      setDownloadError(
        status === 0
          ? `“${file.name}” can’t be downloaded while you’re offline.`
          : status === 403
            ? `“${file.name}” is no longer shared with you.`
            : `“${file.name}” could not be downloaded. Please try again.`,
      );
    } finally {
      setDownloading(null);
    }
  };

  if (!snapshot) {
    if (freshness.state === 'loading') {
      return (
        <p className="flex items-center justify-center gap-2 py-16 text-fg-muted" role="status">
          <Spinner /> Opening your project…
        </p>
      );
    }
    return (
      <div className="mx-auto flex max-w-lg flex-col items-center gap-4 py-10 text-center">
        <CloudOff aria-hidden="true" size={40} className="text-fg-muted" />
        <h1 tabIndex={-1} className="text-2xl font-bold tracking-tight text-fg outline-none">
          {freshness.state === 'offline' ? 'You’re offline' : 'Something went wrong'}
        </h1>
        <p className="text-fg-muted">
          {freshness.state === 'offline'
            ? 'Your project has not been saved on this device yet. Connect to the internet to open it.'
            : freshness.state === 'failed'
              ? freshness.message
              : ''}
        </p>
        <Button variant="secondary" onPress={() => void load()}>
          <RefreshCw aria-hidden="true" size={16} /> Try again
        </Button>
      </div>
    );
  }

  const { project, milestones, files, workspace } = snapshot;
  const approved = milestones.filter((m) => m.status === 'approved').length;
  const accent = workspace.brandColor ?? undefined;
  return (
    <div className="flex flex-col gap-8">
      <header
        className="flex flex-col gap-4 border-t-4 border-brand pt-5"
        style={accent ? { borderTopColor: accent } : undefined}
      >
        <div className="flex items-center gap-3">
          {workspace.logoUrl ? (
            <img
              src={workspace.logoUrl}
              alt=""
              className="size-10 rounded-lg object-contain"
              referrerPolicy="no-referrer"
            />
          ) : null}
          <p className="text-sm text-fg-muted">
            Shared by <span className="font-semibold text-fg">{workspace.name}</span> with{' '}
            {project.clientName}
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-3">
          <h1
            ref={headingRef}
            tabIndex={-1}
            className="text-3xl font-bold tracking-tight break-words text-fg outline-none"
          >
            {project.name}
          </h1>
          <ProjectStatusBadge status={project.status} />
        </div>
        {project.startDate || project.dueDate ? (
          <p className="flex items-center gap-2 text-sm text-fg-muted">
            <CalendarDays aria-hidden="true" size={16} />
            {[
              project.startDate ? `Started ${formatDate(project.startDate)}` : null,
              project.dueDate ? `Due ${formatDate(project.dueDate)}` : null,
            ]
              .filter(Boolean)
              .join(' · ')}
          </p>
        ) : null}
        <FreshnessLine
          freshness={freshness}
          savedAt={snapshot.savedAt}
          onRetry={() => void load()}
        />
      </header>

      {workspace.welcomeText ? (
        <p className="rounded-2xl border border-border bg-surface p-5 whitespace-pre-line text-fg">
          {workspace.welcomeText}
        </p>
      ) : null}
      {project.description ? (
        <p className="whitespace-pre-line text-fg-muted">{project.description}</p>
      ) : null}

      {milestones.length > 0 ? (
        <ProgressBar
          label="Milestones approved"
          value={(approved / milestones.length) * 100}
          valueText={`${approved} of ${milestones.length}`}
        />
      ) : null}

      <section aria-labelledby="portal-milestones" className="flex flex-col gap-3">
        <h2 id="portal-milestones" className="text-xl font-semibold text-fg">
          Milestones
        </h2>
        {milestones.length === 0 ? (
          <p className="rounded-2xl border border-dashed border-border p-6 text-center text-fg-muted">
            No milestones yet. They appear here as your project is planned.
          </p>
        ) : (
          <ol className="flex flex-col gap-3">
            {milestones.map((milestone) => (
              <MilestoneItem key={milestone.id} milestone={milestone} />
            ))}
          </ol>
        )}
      </section>

      <section aria-labelledby="portal-files" className="flex flex-col gap-3">
        <h2 id="portal-files" className="text-xl font-semibold text-fg">
          Files
        </h2>
        <div role="status" className="text-sm text-danger empty:hidden">
          {downloadError}
        </div>
        {files.length === 0 ? (
          <p className="rounded-2xl border border-dashed border-border p-6 text-center text-fg-muted">
            No files shared yet. Deliverables appear here when they are ready.
          </p>
        ) : (
          <ul className="divide-y divide-border rounded-2xl border border-border bg-surface">
            {files.map((file) => {
              const Icon = fileIconOf(file.type, file.name);
              return (
                <li key={file.id} className="flex items-center gap-3 p-3 sm:p-4">
                  <Icon aria-hidden="true" size={24} className="shrink-0 text-fg-muted" />
                  <div className="min-w-0 flex-1">
                    <p className="font-medium break-words text-fg">{file.name}</p>
                    <p className="flex flex-wrap items-center gap-x-2 text-sm text-fg-muted">
                      {file.folder ? (
                        <span className="inline-flex items-center gap-1">
                          <FolderOpen aria-hidden="true" size={14} />
                          {file.folder}
                        </span>
                      ) : null}
                      <span>{formatBytes(file.size)}</span>
                      <span>updated {formatFileDate(file.updatedAt)}</span>
                    </p>
                  </div>
                  <Button
                    variant="secondary"
                    aria-label={`Download ${file.name}`}
                    isPending={downloading === file.id}
                    onPress={() => void download(file)}
                  >
                    <Download aria-hidden="true" size={16} />
                    <span className="hidden sm:inline">Download</span>
                  </Button>
                </li>
              );
            })}
          </ul>
        )}
      </section>

      <div className="flex justify-end border-t border-border pt-6">
        <Button variant="ghost" onPress={() => void leave()}>
          <LogOut aria-hidden="true" size={16} />
          Leave portal
        </Button>
      </div>
    </div>
  );
}

function FreshnessLine({
  freshness,
  savedAt,
  onRetry,
}: {
  freshness: Freshness;
  savedAt: number;
  onRetry: () => void;
}) {
  const asOf = formatFileDateTime(new Date(savedAt).toISOString());
  return (
    <div role="status" className="flex flex-wrap items-center gap-2 text-sm text-fg-muted">
      {freshness.state === 'loading' ? (
        <>
          <Spinner /> Checking for updates… (as of {asOf})
        </>
      ) : freshness.state === 'fresh' ? (
        <>Up to date</>
      ) : (
        <>
          <span className="inline-flex items-start gap-2">
            <CloudOff aria-hidden="true" size={16} className="mt-0.5 shrink-0" />
            <span>
              {freshness.state === 'offline' ? 'You’re offline.' : freshness.message} Showing your
              project as of {asOf}.
            </span>
          </span>
          <Button variant="ghost" onPress={onRetry}>
            <RefreshCw aria-hidden="true" size={14} /> Try again
          </Button>
        </>
      )}
    </div>
  );
}

function MilestoneItem({ milestone }: { milestone: PortalMilestone }) {
  const { signOff } = milestone;
  return (
    <li className="flex flex-col gap-2 rounded-2xl border border-border bg-surface p-4">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h3 className="font-semibold break-words text-fg">{milestone.title}</h3>
        <span
          className={`rounded-full px-2 py-0.5 text-xs font-semibold whitespace-nowrap ${milestoneBadgeClasses[milestone.status]}`}
        >
          {milestoneStatusWords[milestone.status]}
        </span>
      </div>
      <p className="flex flex-wrap gap-x-3 text-sm text-fg-muted">
        {milestone.dueDate ? <span>Due {formatDate(milestone.dueDate)}</span> : null}
        {milestone.amount !== null ? (
          <span>{formatAmount(milestone.amount, milestone.currency)}</span>
        ) : null}
      </p>
      {milestone.description ? (
        <p className="text-sm whitespace-pre-line text-fg">{milestone.description}</p>
      ) : null}
      {signOff ? (
        <p className="text-sm text-fg-muted">
          {signOff.decision === 'approved' ? 'Approved' : 'Changes requested'} by {signOff.by} on{' '}
          {formatFileDateTime(signOff.at)}
          {signOff.comment ? `: “${signOff.comment}”` : ''}
        </p>
      ) : null}
    </li>
  );
}
