/**
 * The client's view of one project (/client/{clientId}/project/{projectId}): progress, milestones
 * (with the client's sign-off), change requests (asked for, and quotes answered, here) and the
 * files a member left visible, under the workspace's branding. What it last showed is kept on the
 * device (portal-snapshot.ts) and painted first, so the page opens offline with "as of <time>";
 * change requests asked for offline wait on the device (portal-outbox.ts). The session rules of
 * spec section 4 run while it is open (portal-session.ts).
 *
 * A 401 or 403 from the server means the portal session ended there (a new password, the portal
 * turned off, 30 minutes idle): the page goes back to the password gate for this project.
 */
import type { CallEndpoint } from '#contract/define-endpoint.ts';
import {
  decideChangeRequest,
  generateSasUrl,
  getClientProject,
  getPortalChangeRequests,
  getPortalFiles,
  getPortalMilestones,
  getPortalWorkspaceSettings,
  signOffMilestone,
  signOutPortal,
  submitChangeRequest,
  type PortalChangeRequest,
  type PortalFile,
} from '#contract/endpoints/client-portal.ts';
import {
  CalendarDays,
  CloudOff,
  Download,
  FolderOpen,
  HardDriveDownload,
  LogIn,
  LogOut,
  RefreshCw,
} from 'lucide-react';
import {
  lazy,
  startTransition,
  Suspense,
  useCallback,
  useEffect,
  useRef,
  useState,
  type ComponentType,
} from 'react';
import { Button } from '../../ui/button.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { usePageTitle } from '../../ui/use-page-title.ts';
import {
  fileIconOf,
  formatBytes,
  formatFileDate,
  formatFileDateTime,
} from '../files/file-format.ts';
import { formatDate } from '../milestones/milestone-format.ts';
import { ProgressBar } from '../milestones/progress-bar.tsx';
import { ProjectStatusBadge } from '../projects/project-status-badge.tsx';
import { portalActionFailure, type PortalActionResult } from './portal-action-result.ts';
import type { QuoteDecision } from './portal-change-request-item.tsx';
import { PortalChatCopy, type PortalChatProps } from './portal-chat-messages.tsx';
import { PortalChangeRequests } from './portal-change-requests.tsx';
import { PortalInvoices } from './portal-invoices.tsx';
import {
  PortalMilestoneItem,
  SIGN_OFF_OFFLINE,
  type SignOffDecision,
} from './portal-milestone-item.tsx';
import { createPortalFileCopies, type PortalFileCopies } from './portal-file-copies.ts';
import {
  createPortalPendingFiles,
  type PendingFileRef,
  type PortalPendingFiles,
} from './portal-pending-files.ts';
import {
  createPortalOutbox,
  isNetworkFailure,
  isSessionFailure,
  readPortalOutbox,
  type ChangeRequestDraft,
  type PortalOutbox,
} from './portal-outbox.ts';
import { clearPortalSession, watchPortalSession } from './portal-session.ts';
import {
  readPortalSnapshot,
  removePortalSnapshot,
  writePortalSnapshot,
  type PortalSnapshot,
} from './portal-snapshot.ts';
import type { ProjectCopyState } from './portal-project-copy.ts';
import { uploadWithTus, type PortalUploadFile } from './portal-upload.ts';
import { useBrowserOnline } from './use-browser-online.ts';

/**
 * The live chat's code is not precached (vite.config.ts): it loads with the page online, and the
 * service worker keeps it then, so it opens offline too. When it is not on the device, the chat
 * saved on the device shows read-only in its place (portal-chat-messages.tsx, precached), and the
 * page asks for the live one again once the browser is back online.
 */
let chatCodeMissing = false;
const loadPortalChat = () =>
  lazy<ComponentType<PortalChatProps>>(() =>
    import('./portal-chat.tsx').then(
      (module) => ({ default: module.PortalChat }),
      () => {
        chatCodeMissing = true;
        return { default: PortalChatCopy };
      },
    ),
  );

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
  /** Makes a new change request's id (a UUID); a test passes a fixed one. */
  newId?: () => string;
  /** Where opened files are kept for offline (Cache Storage in a browser). */
  fileCopies?: PortalFileCopies;
  /** Where files attached offline wait for their request to be sent (Cache Storage too). */
  pendingFiles?: PortalPendingFiles;
  /** Reads a signed link's bytes; refused (a cross-origin store without CORS): plain download. */
  fetchFile?: (url: string) => Promise<Blob>;
  /** Hands bytes to the browser as a download named `name`. */
  saveFile?: (bytes: Blob, name: string) => void;
  /** Sends a file the client attaches to a change request (tus on the portal cookie). */
  uploadFile?: PortalUploadFile;
  /**
   * Part of another page (the public demo, on sample data) rather than the page itself: the host
   * page keeps its title, its h1 and the focus, and there is no portal session to watch.
   */
  embedded?: boolean;
  /**
   * The copy kept on the device, read without a session (it ended while the device is offline:
   * the gate offers it). Nothing is asked of the server or sent; `toSignIn` goes back to the
   * gate, which it also does once the network is back.
   */
  readOnly?: { toSignIn: () => void };
  /**
   * What the page's static copy (portal-project-copy.ts) showed of this project, which this screen
   * takes the place of: it starts in the same state, and draws the sections below the milestones
   * a moment later, so its first commit is no bigger than what is on a phone's screen.
   */
  fromCopy?: ProjectCopyState | undefined;
}

/**
 * Files up to this size are read into the page and kept for offline when opened; bigger ones go
 * straight to the browser's download (a phone should not hold 200 MB in memory for a copy).
 */
export const MAX_PORTAL_COPY_BYTES = 50 * 1024 * 1024;

async function fetchBytes(url: string): Promise<Blob> {
  const response = await fetch(url, { credentials: 'omit' });
  if (!response.ok) throw new Error(`The file answered ${response.status}.`);
  return response.blob();
}

function saveBytes(bytes: Blob, name: string): void {
  const url = URL.createObjectURL(bytes);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has taken the download by the next task; the URL is no longer needed.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

const downloadButtonId = (fileId: string) => `portal-download-${fileId}`;

/** An embedded screen (the demo) has no portal session to keep. */
const skipSessionWatch: typeof watchPortalSession = () => () => undefined;

/**
 * How old the page's data may get while it is open and online: it asks the server again this
 * often while the tab is shown (quietly: the page stays as it is until the answer lands), and at
 * once when the tab is shown again after longer. Members' answers (a declined request, a milestone
 * put up for approval) reach an open portal within this, as its chat does (portal-chat.tsx polls).
 */
const REFRESH_AFTER_MS = 60_000;

type Freshness =
  | { state: 'loading' }
  | { state: 'fresh' }
  | { state: 'offline' }
  | { state: 'failed'; message: string };

function statusOf(error: unknown): number | null {
  const status = (error as { status?: unknown }).status;
  return typeof status === 'number' ? status : null;
}

/** Replaces the row with the same id, or puts a new one first (the lists are newest first). */
function upsert<T extends { id: string }>(rows: T[], row: T): T[] {
  return rows.some((r) => r.id === row.id)
    ? rows.map((r) => (r.id === row.id ? row : r))
    : [row, ...rows];
}

/** A copy saved this recently with the same content is as good as a new one ("as of" it). */
const SAME_COPY_MS = 60_000;

/** Whether two copies hold the same project, whenever each was saved. */
function sameContent(a: PortalSnapshot, b: PortalSnapshot): boolean {
  return JSON.stringify({ ...a, savedAt: 0 }) === JSON.stringify({ ...b, savedAt: 0 });
}

const DECIDE_OFFLINE_FAILED =
  'You’re offline: your answer was not sent. Try again when you’re back online.';

export function PortalProjectScreen({
  projectId,
  clientId,
  callEndpoint,
  toGate,
  startDownload = (url) => window.location.assign(url),
  storage = globalThis.localStorage,
  now = Date.now,
  newId = () => crypto.randomUUID(),
  fileCopies: givenFileCopies,
  pendingFiles: givenPendingFiles,
  fetchFile = fetchBytes,
  saveFile = saveBytes,
  uploadFile = uploadWithTus,
  embedded = false,
  readOnly,
  fromCopy,
}: PortalProjectScreenProps) {
  const [fileCopies] = useState(() => givenFileCopies ?? createPortalFileCopies());
  const [pendingFiles] = useState(() => givenPendingFiles ?? createPortalPendingFiles());
  /** Versions of this project's files kept on the device, by file id. */
  const [kept, setKept] = useState<ReadonlyMap<string, number>>(new Map());
  const [snapshot, setSnapshot] = useState<PortalSnapshot | null>(() =>
    readPortalSnapshot(storage, projectId),
  );
  // Opened offline, the page says so from its first frame (as its static copy does,
  // portal-project-copy.ts), rather than checking for updates until the first call fails.
  const [freshness, setFreshness] = useState<Freshness>(() =>
    fromCopy === 'fresh'
      ? { state: 'fresh' }
      : globalThis.navigator?.onLine === false
        ? { state: 'offline' }
        : { state: 'loading' },
  );
  // Taking over from the static copy: the sections below the milestones come a task later.
  const [restShown, setRestShown] = useState(fromCopy === undefined);
  useEffect(() => {
    if (restShown) return;
    const timer = setTimeout(() => startTransition(() => setRestShown(true)), 0);
    return () => clearTimeout(timer);
  }, [restShown]);
  const [changeRequestsError, setChangeRequestsError] = useState<string | null>(null);
  const [waiting, setWaiting] = useState(() => readPortalOutbox(storage, projectId));
  const outboxRef = useRef<PortalOutbox | null>(null);
  // Counts the client's answers the server accepted: a load that was under way meanwhile may
  // have read the row before the change, so its answer is not painted over the newer one.
  const accepted = useRef(0);
  const browserOnline = useBrowserOnline();
  const [downloading, setDownloading] = useState<string | null>(null);
  const [keeping, setKeeping] = useState<string | null>(null);
  const [downloadError, setDownloadError] = useState<string | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const lastLoad = useRef(0);
  const [PortalChat, setPortalChat] = useState(loadPortalChat);
  usePageTitle(embedded ? null : (snapshot?.project.name ?? 'Your project'));
  const Heading = embedded ? 'h2' : 'h1';

  const endSession = useCallback(() => {
    clearPortalSession(storage);
    toGate();
  }, [storage, toGate]);

  /** Keeps a row the server just answered, on screen and in the offline copy. */
  const change = useCallback(
    (edit: (snapshot: PortalSnapshot) => PortalSnapshot) => {
      accepted.current += 1;
      setSnapshot((previous) => {
        if (!previous) return previous;
        const next = edit(previous);
        writePortalSnapshot(storage, next);
        return next;
      });
    },
    [storage],
  );

  const load = useCallback(async () => {
    lastLoad.current = now();
    try {
      for (let attempt = 0; ; attempt += 1) {
        const acceptedBefore = accepted.current;
        // All at once but the workspace's settings, which need the project's workspace id: a
        // phone on a slow network waits for two round trips, not three.
        const projectCall = callEndpoint(getClientProject, { query: { id: projectId } });
        const [{ project }, { milestones }, { files }, { workspace }, changeRequests] =
          await Promise.all([
            projectCall,
            callEndpoint(getPortalMilestones, { query: { projectId } }),
            callEndpoint(getPortalFiles, { query: { projectId } }),
            projectCall.then(({ project: { workspaceId } }) =>
              callEndpoint(getPortalWorkspaceSettings, { query: { workspaceId } }),
            ),
            // The list failing alone (not the session, not the network) leaves the rest of the page
            // fresh and the requests as last seen.
            callEndpoint(getPortalChangeRequests, { query: { projectId } }).then(
              (answer) => answer.changeRequests,
              (error: unknown) => {
                if (isSessionFailure(error) || isNetworkFailure(error)) throw error;
                return null;
              },
            ),
          ]);
        if (accepted.current !== acceptedBefore && attempt < 2) continue;
        // A transition: the whole page renders in slices that let the browser breathe, not in
        // one long task (on a phone's first open, the page's biggest piece of work).
        startTransition(() => {
          setChangeRequestsError(
            changeRequests === null
              ? 'Change requests could not be loaded just now; showing the ones you saw last.'
              : null,
          );
          setSnapshot((previous) => {
            const next: PortalSnapshot = {
              savedAt: now(),
              project,
              milestones,
              files,
              workspace,
              changeRequests: changeRequests ?? previous?.changeRequests ?? [],
            };
            writePortalSnapshot(storage, next);
            // The answers on screen, saved a moment ago (the static copy's): nothing to draw again.
            return previous &&
              next.savedAt - previous.savedAt < SAME_COPY_MS &&
              sameContent(previous, next)
              ? previous
              : next;
          });
          setFreshness((previous) => (previous.state === 'fresh' ? previous : { state: 'fresh' }));
        });
        break;
      }
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
      return;
    }
    // Connected and signed in: what waited on the device can go now.
    void outboxRef.current?.flush();
  }, [callEndpoint, endSession, now, projectId, storage]);

  // Change requests asked for offline: sent when the browser is back online, and after each load.
  useEffect(() => {
    // Without a session nothing is sent; what waits on the device is listed as it is.
    if (readOnly) return;
    const outbox = createPortalOutbox({
      storage,
      projectId,
      send: async (body) =>
        (await callEndpoint(submitChangeRequest, { query: {}, body })).changeRequest,
      navigator: globalThis.navigator,
      target: window,
      now,
      onChange: () => setWaiting(outbox.entries()),
      onSent: (changeRequest) => {
        change((s) => ({ ...s, changeRequests: upsert(s.changeRequests, changeRequest) }));
        // Its files are the project's now: the list names them.
        if (changeRequest.attachmentFileIds.length > 0) void load();
      },
      onSessionEnded: endSession,
      // Files attached offline: uploaded just before their request goes, named in it.
      prepare: async (entry) => {
        const ids = [...(entry.body.attachmentFileIds ?? [])];
        for (const ref of entry.files ?? []) {
          const file = await pendingFiles.read(projectId, ref);
          if (!file) {
            throw Object.assign(
              new Error(
                `“${ref.name}” is no longer on this device. Remove this request and ask again.`,
              ),
              { status: 410 },
            );
          }
          ids.push(await uploadFile(file, { projectId, onProgress: () => undefined }).done);
        }
        return { ...entry.body, attachmentFileIds: ids };
      },
      release: (entry) => void pendingFiles.drop(projectId, entry.files ?? []),
    });
    outboxRef.current = outbox;
    setWaiting(outbox.entries());
    return () => {
      outbox.stop();
      outboxRef.current = null;
    };
  }, [
    callEndpoint,
    change,
    endSession,
    load,
    now,
    pendingFiles,
    projectId,
    readOnly,
    storage,
    uploadFile,
  ]);

  useEffect(() => {
    if (!readOnly) void load();
  }, [load, readOnly]);

  // Spec section 4: 30 minutes without activity ends the session; activity keeps it (and, every
  // few minutes, the server's session and the data) alive.
  const watchSession = embedded || readOnly ? skipSessionWatch : watchPortalSession;
  useEffect(
    () =>
      watchSession({
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
    [callEndpoint, clientId, load, now, projectId, storage, toGate, watchSession],
  );

  useEffect(() => {
    if (readOnly || embedded) return;
    const refreshIfStale = () => {
      if (document.visibilityState === 'hidden' || !navigator.onLine) return;
      if (now() - lastLoad.current >= REFRESH_AFTER_MS) void load();
    };
    const timer = window.setInterval(refreshIfStale, REFRESH_AFTER_MS / 4);
    document.addEventListener('visibilitychange', refreshIfStale);
    return () => {
      window.clearInterval(timer);
      document.removeEventListener('visibilitychange', refreshIfStale);
    };
  }, [embedded, load, now, readOnly]);

  useEffect(() => {
    // Back online: a fresh load, or, reading the kept copy without a session, the password.
    const online = readOnly
      ? readOnly.toSignIn
      : () => {
          void load();
          if (chatCodeMissing) {
            chatCodeMissing = false;
            setPortalChat(loadPortalChat);
          }
        };
    window.addEventListener('online', online);
    return () => window.removeEventListener('online', online);
  }, [load, readOnly]);

  useEffect(() => {
    let current = true;
    void fileCopies.kept(projectId).then((versions) => {
      if (current) setKept(versions);
    });
    return () => {
      current = false;
    };
  }, [fileCopies, projectId]);

  const hasContent = snapshot !== null;
  const focusLater = fromCopy !== undefined;
  useEffect(() => {
    if (!hasContent || embedded) return;
    if (!focusLater) {
      headingRef.current?.focus();
      return;
    }
    // Taking over from the static copy: once the browser has laid the page out for its paint, so
    // the focus does not lay it out inside the commit's task.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => headingRef.current?.focus(), 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [embedded, focusLater, hasContent]);

  const leave = async () => {
    await callEndpoint(signOutPortal, { query: {}, body: {} }).catch(() => undefined);
    // Leaving on purpose also forgets the copy kept for offline (a shared phone, say).
    removePortalSnapshot(storage, projectId);
    await fileCopies.forget(projectId);
    endSession();
  };

  /** Reads the file through a fresh signed link and keeps a copy; null: too big or unreadable. */
  const fetchAndKeep = async (file: PortalFile): Promise<{ url: string; bytes: Blob | null }> => {
    const { sasUrl } = await callEndpoint(generateSasUrl, {
      query: {
        blobName: file.blobName,
        projectId,
        expiryMinutes: '10',
        downloadFileName: file.name,
      },
    });
    const bytes =
      file.size <= MAX_PORTAL_COPY_BYTES ? await fetchFile(sasUrl).catch(() => null) : null;
    if (bytes) {
      await fileCopies.keep(projectId, file, bytes);
      setKept((versions) => new Map(versions).set(file.id, file.version));
    }
    return { url: sasUrl, bytes };
  };

  const fileFailure = (file: PortalFile, error: unknown, doing: string) => {
    const status = statusOf(error);
    if (status === 401) {
      endSession();
      return;
    }
    setDownloadError(
      status === 0
        ? `“${file.name}” can’t be ${doing} while you’re offline.`
        : status === 403
          ? `“${file.name}” is no longer shared with you.`
          : `“${file.name}” could not be ${doing}. Please try again.`,
    );
  };

  const download = async (file: PortalFile) => {
    setDownloading(file.id);
    setDownloadError(null);
    try {
      // A copy of this very version opens without the network (and without a new link).
      const copy = await fileCopies.open(projectId, file);
      if (copy) {
        saveFile(copy, file.name);
        return;
      }
      const { url, bytes } = await fetchAndKeep(file);
      if (bytes) saveFile(bytes, file.name);
      else startDownload(url);
    } catch (error) {
      fileFailure(file, error, 'downloaded');
    } finally {
      setDownloading(null);
    }
  };

  /** "Keep offline": the copy without the download, for a file the client will need away. */
  const keepOffline = async (file: PortalFile) => {
    setKeeping(file.id);
    setDownloadError(null);
    try {
      const { bytes } = await fetchAndKeep(file);
      if (!bytes) setDownloadError(`“${file.name}” could not be kept on this device.`);
      // Keep offline is gone from the row once the copy is there: focus stays in the row.
      document.getElementById(downloadButtonId(file.id))?.focus();
    } catch (error) {
      fileFailure(file, error, 'kept on this device');
    } finally {
      setKeeping(null);
    }
  };

  const signOff = async (
    milestoneId: string,
    decision: SignOffDecision,
    comment: string | null,
  ): Promise<PortalActionResult> => {
    try {
      const { milestone } = await callEndpoint(signOffMilestone, {
        query: {},
        body: { projectId, milestoneId, decision, ...(comment === null ? {} : { comment }) },
      });
      change((s) => ({ ...s, milestones: upsert(s.milestones, milestone) }));
      return { ok: true };
    } catch (error) {
      if (isSessionFailure(error)) endSession();
      // Someone (or another tab) answered first: show what the milestone is now.
      if (statusOf(error) === 409) void load();
      return portalActionFailure(error, `${SIGN_OFF_OFFLINE}. Nothing was sent.`, ['comment']);
    }
  };

  const createChangeRequest = async (
    draft: ChangeRequestDraft,
    keptFiles: readonly PendingFileRef[],
  ): Promise<PortalActionResult> => {
    const outbox = outboxRef.current;
    if (!outbox) return { ok: false, message: 'Please try again.', fieldErrors: {} };
    if (keptFiles.length > 0) {
      // Files kept on the device go up first, then the request: the outbox does both, now if the
      // network is back, else when it is.
      outbox.queue(draft, keptFiles);
      void outbox.flush();
      return { ok: true };
    }
    try {
      const outcome = await outbox.submit(draft);
      if (outcome.state === 'sent') {
        const sent: PortalChangeRequest = outcome.changeRequest;
        change((s) => ({ ...s, changeRequests: upsert(s.changeRequests, sent) }));
        // The attached files are the project's now: the list names them.
        if (sent.attachmentFileIds.length > 0) void load();
      }
      return { ok: true };
    } catch (error) {
      if (isSessionFailure(error)) {
        // What the client typed is kept and sent once they are back in.
        outbox.queue(draft);
        endSession();
        return { ok: true };
      }
      return portalActionFailure(error, 'You’re offline: please try again.', [
        'title',
        'description',
        'desiredDate',
      ]);
    }
  };

  const decide = async (
    id: string,
    decision: QuoteDecision,
    comment: string | null,
  ): Promise<PortalActionResult> => {
    try {
      const { changeRequest } = await callEndpoint(decideChangeRequest, {
        query: {},
        body: { id, projectId, decision, ...(comment === null ? {} : { comment }) },
      });
      change((s) => ({ ...s, changeRequests: upsert(s.changeRequests, changeRequest) }));
      return { ok: true };
    } catch (error) {
      if (isSessionFailure(error)) endSession();
      // The quote is no longer waiting for an answer (withdrawn, re-quoted, answered elsewhere).
      if (statusOf(error) === 409) void load();
      return portalActionFailure(error, DECIDE_OFFLINE_FAILED, ['comment']);
    }
  };

  if (!snapshot) {
    if (freshness.state === 'loading') {
      return <PortalProjectLoading />;
    }
    return (
      <div className="mx-auto flex max-w-lg flex-col items-center gap-4 py-10 text-center">
        <CloudOff aria-hidden="true" size={40} className="text-fg-muted" />
        <Heading tabIndex={-1} className="text-2xl font-bold tracking-tight text-fg outline-none">
          {freshness.state === 'offline' ? 'You’re offline' : 'Something went wrong'}
        </Heading>
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

  const { project, milestones, files, workspace, changeRequests } = snapshot;
  const offline = !browserOnline || freshness.state === 'offline' || readOnly !== undefined;
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
          <Heading
            ref={headingRef}
            tabIndex={-1}
            className="text-3xl font-bold tracking-tight break-words text-fg outline-none"
          >
            {project.name}
          </Heading>
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
        {readOnly ? (
          <ReadOnlyLine savedAt={snapshot.savedAt} toSignIn={readOnly.toSignIn} />
        ) : (
          <FreshnessLine
            // The browser saying it lost the network makes the last answer a copy "as of" its time.
            freshness={
              !browserOnline && freshness.state === 'fresh' ? { state: 'offline' } : freshness
            }
            savedAt={snapshot.savedAt}
            onRetry={() => void load()}
          />
        )}
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
              <PortalMilestoneItem
                key={milestone.id}
                milestone={milestone}
                offline={offline}
                signOff={(decision, comment) => signOff(milestone.id, decision, comment)}
              />
            ))}
          </ol>
        )}
      </section>

      {restShown ? (
        <>
          <PortalChangeRequests
            projectId={projectId}
            workspaceName={workspace.name}
            changeRequests={changeRequests}
            waiting={waiting}
            offline={offline}
            readOnly={readOnly !== undefined}
            loadError={changeRequestsError}
            newId={newId}
            uploadFile={uploadFile}
            pendingFiles={pendingFiles}
            files={files}
            openFile={(file) => void download(file)}
            create={createChangeRequest}
            decide={decide}
            remove={(id) => outboxRef.current?.remove(id)}
          />

          {/* The demo plays the portal's other calls in the page; invoices are a real server's. */}
          {embedded ? null : (
            <PortalInvoices
              callEndpoint={callEndpoint}
              projectId={projectId}
              offline={offline}
              storage={storage}
              now={now}
            />
          )}

          {/* The chat with the team is a real server's; read from the device in the saved copy. */}
          {embedded ? null : readOnly ? (
            <PortalChatCopy projectId={projectId} storage={storage} />
          ) : (
            <Suspense fallback={null}>
              <PortalChat
                callEndpoint={callEndpoint}
                projectId={projectId}
                workspaceName={workspace.name}
                offline={offline}
                storage={storage}
                now={now}
              />
            </Suspense>
          )}

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
                          {kept.get(file.id) === file.version ? (
                            <span className="inline-flex items-center gap-1 text-success">
                              <HardDriveDownload aria-hidden="true" size={14} />
                              On this device
                            </span>
                          ) : offline ? (
                            <span>Needs a connection</span>
                          ) : null}
                        </p>
                      </div>
                      {kept.get(file.id) !== file.version &&
                      !offline &&
                      file.size <= MAX_PORTAL_COPY_BYTES ? (
                        <Button
                          variant="ghost"
                          aria-label={`Keep ${file.name} on this device`}
                          isPending={keeping === file.id}
                          onPress={() => void keepOffline(file)}
                        >
                          <HardDriveDownload aria-hidden="true" size={16} />
                          <span className="hidden sm:inline">Keep offline</span>
                        </Button>
                      ) : null}
                      <Button
                        id={downloadButtonId(file.id)}
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
        </>
      ) : null}
    </div>
  );
}

/**
 * The page before its first answer when nothing is kept on the device; also the static copy the
 * server sends for a project's page (portal-prerender.tsx), so the swap is not seen.
 */
export function PortalProjectLoading() {
  return (
    // As tall as the screen: the footer below does not jump when the project arrives.
    <p
      className="flex min-h-dvh items-start justify-center gap-2 py-16 text-fg-muted"
      role="status"
    >
      <Spinner /> Opening your project…
    </p>
  );
}

/** The kept copy read without a session: as of when, and the way back to the password. */
function ReadOnlyLine({ savedAt, toSignIn }: { savedAt: number; toSignIn: () => void }) {
  const asOf = formatFileDateTime(new Date(savedAt).toISOString());
  return (
    <div role="status" className="flex flex-wrap items-center gap-2 text-sm text-fg-muted">
      <span className="inline-flex items-start gap-2">
        <CloudOff aria-hidden="true" size={16} className="mt-0.5 shrink-0" />
        <span>
          You’re offline and signed out: reading the copy saved on this device, as of {asOf}. Enter
          your password when you’re back online to sign off, ask for changes or open files not kept
          on this device.
        </span>
      </span>
      <Button variant="ghost" onPress={toSignIn}>
        <LogIn aria-hidden="true" size={14} /> Enter password
      </Button>
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
          <Spinner size="small" /> Checking for updates… (as of {asOf})
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
