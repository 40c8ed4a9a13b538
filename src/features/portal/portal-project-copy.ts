/**
 * A project page's static copy, painted before React: the project's heading, its state, the
 * milestones, the change requests and the files, as plain HTML in the page's copy
 * (portal-prerender.tsx), from the copy kept on the device (portal-snapshot.ts) or from the
 * answers /portal-init.js asked for (portal-prefetch.ts). A phone shows the project as soon as
 * its answers are in, instead of after React, react-aria and the screens have loaded and
 * rendered (the page's biggest work); the portal then starts (src/app/mount-portal.tsx) and
 * renders the live page from the same copy, which takes the copy's place in one commit
 * (portal-copy.ts), with what the visitor pressed on it meanwhile.
 *
 * The markup is portal-project-screen.tsx's, with its classes, headings and regions, so the swap
 * is not seen (the tests hold the two to the same text and classes); its ids are its own
 * (`portal-copy-…`), so none is the live page's twice while both are in the document. What needs
 * React is left to the live page: the invoices, the chat, and every answer step.
 *
 * Plain DOM work, no React: this module must not import one that does (mount-portal.tsx imports
 * it, and the page preloads what that module imports, vite.config.ts). Icons come from the copy's
 * template, drawn by lucide at build time (portal-prerender.tsx).
 */
import * as v from 'valibot';
import type {
  PortalChangeRequest,
  PortalFile,
  PortalMilestone,
} from '#contract/endpoints/client-portal.ts';
import { changeRequestStatusWords } from '#contract/entities/change-request.ts';
import { milestoneStatusWords, signOffStands } from '#contract/entities/milestone.ts';
import type { ProjectStatus } from '#contract/entities/project.ts';
import {
  fileKindOf,
  formatBytes,
  formatFileDate,
  formatFileDateTime,
  type FileKind,
} from '../files/file-words.ts';
import { formatAmount, formatDate, milestoneBadgeClasses } from '../milestones/milestone-format.ts';
import { changeRequestBadgeClasses } from './change-request-words.ts';
import { PORTAL_PREFETCH_GLOBAL, prefetchAddress, type PrefetchStore } from './portal-prefetch.ts';
import {
  portalSnapshotSchema,
  readPortalSnapshot,
  writePortalSnapshot,
  type PortalSnapshot,
} from './portal-snapshot.ts';

/** The icons the copy draws, each as the live page draws it (lucide, size and classes). */
export const projectCopyIcons = [
  'calendar',
  'cloud-off',
  'refresh',
  'check',
  'sign-off-changes',
  'ask-change',
  'download',
  'keep-offline',
  'folder',
  'leave',
  'file',
  'file-image',
  'file-video',
  'file-audio',
  'file-text',
  'file-spreadsheet',
  'file-archive',
  'status-planned',
  'status-active',
  'status-on_hold',
  'status-completed',
  'status-cancelled',
] as const;
export type ProjectCopyIcon = (typeof projectCopyIcons)[number];
/** The template in the page's copy holding the icons, each as `<svg data-copy-icon="name">`. */
export const PROJECT_COPY_ICONS_ID = 'portal-copy-icons';
/** Set on the project's copy once it shows a project rather than its loading state. */
export const PROJECT_COPY_PAINTED = 'data-copy-painted';

// ---- What the live page words and draws (held to it by portal-project-copy.test.tsx) ------------

const statusLabels: Record<ProjectStatus, string> = {
  planned: 'Planned',
  active: 'Active',
  on_hold: 'On hold',
  completed: 'Completed',
  cancelled: 'Cancelled',
};
const statusBadgeClasses: Record<ProjectStatus, string> = {
  planned: 'bg-sky-100 text-sky-900 dark:bg-sky-950 dark:text-sky-200',
  active: 'bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200',
  on_hold: 'bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200',
  completed: 'bg-violet-100 text-violet-900 dark:bg-violet-950 dark:text-violet-200',
  cancelled: 'bg-surface-muted text-fg-muted',
};
const buttonBase =
  'inline-flex items-center justify-center gap-2 rounded-lg font-semibold whitespace-nowrap ' +
  'transition-colors select-none cursor-pointer no-underline ' +
  'data-disabled:cursor-not-allowed data-disabled:opacity-50 disabled:cursor-not-allowed disabled:opacity-50';
const buttonVariants = {
  primary: 'bg-brand text-on-brand hover:bg-brand-strong data-pressed:bg-brand-strong shadow-sm',
  secondary:
    'border border-border-strong bg-surface text-fg hover:bg-surface-muted data-pressed:bg-surface-muted',
  ghost: 'text-fg hover:bg-surface-muted data-pressed:bg-surface-muted',
} as const;
/** ui/button.tsx's classes for a medium button (the live page's buttons). */
export function copyButtonClassName(variant: keyof typeof buttonVariants): string {
  return `${buttonBase} ${buttonVariants[variant]} min-h-11 px-4 text-sm sm:min-h-10`;
}

/** The live page's date and time of a file (file-words.ts). */
export const formatCopyDateTime = formatFileDateTime;
/** The copy's icon of each kind of file (file-format.ts draws the same ones). */
const kindIcons: Record<FileKind, ProjectCopyIcon> = {
  image: 'file-image',
  video: 'file-video',
  audio: 'file-audio',
  text: 'file-text',
  spreadsheet: 'file-spreadsheet',
  archive: 'file-archive',
  other: 'file',
};
const fileIconName = (type: string, name: string) => kindIcons[fileKindOf(type, name)];
/** portal-project-screen.tsx's MAX_PORTAL_COPY_BYTES. */
const MAX_KEPT_BYTES = 50 * 1024 * 1024;
const SIGN_OFF_OFFLINE = 'You’re offline: sign-off needs a connection';

// ---- Markup ----------------------------------------------------------------------------------

const escapeHtml = (text: string) =>
  text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');

/** The freshness line's state: as the live page shows it before and after its first answer. */
export type ProjectCopyState = 'fresh' | 'checking' | 'offline';

export interface ProjectCopyOptions {
  snapshot: PortalSnapshot;
  state: ProjectCopyState;
  /** The icon's markup by name ('' when the page has no templates). */
  icon: (name: ProjectCopyIcon) => string;
}

/** ui/spinner.tsx's small spinner. */
const spinnerSmall =
  '<span class="inline-flex text-brand " aria-hidden="true"><svg viewBox="0 0 24 24" width="16" height="16" class="animate-spin" fill="none"><circle cx="12" cy="12" r="9" stroke="currentColor" stroke-opacity="0.2" stroke-width="3"></circle><path d="M21 12a9 9 0 0 0-9-9" stroke="currentColor" stroke-width="3" stroke-linecap="round"></path></svg></span>';

function freshnessLine({ snapshot, state, icon }: ProjectCopyOptions): string {
  const asOf = escapeHtml(formatCopyDateTime(new Date(snapshot.savedAt).toISOString()));
  const inner =
    state === 'fresh'
      ? 'Up to date'
      : state === 'checking'
        ? `${spinnerSmall} Checking for updates… (as of ${asOf})`
        : `<span class="inline-flex items-start gap-2">${icon('cloud-off')}<span>You’re offline. Showing your project as of ${asOf}.</span></span>` +
          `<button type="button" class="${copyButtonClassName('ghost')}">${icon('refresh')} Try again</button>`;
  return `<div role="status" class="flex flex-wrap items-center gap-2 text-sm text-fg-muted">${inner}</div>`;
}

function milestoneItem(
  milestone: PortalMilestone,
  offline: boolean,
  icon: ProjectCopyOptions['icon'],
  index: number,
): string {
  const record = signOffStands(milestone) ? milestone.signOff : null;
  const canSignOff = milestone.status !== 'approved';
  const noteId = `portal-copy-offline-${index}`;
  const describedBy = offline ? ` disabled aria-describedby="${noteId}"` : '';
  const meta =
    milestone.dueDate || milestone.amount !== null
      ? `<p class="flex flex-wrap gap-x-3 text-sm text-fg-muted">${
          milestone.dueDate ? `<span>Due ${escapeHtml(formatDate(milestone.dueDate))}</span>` : ''
        }${
          milestone.amount !== null
            ? `<span>${escapeHtml(formatAmount(milestone.amount, milestone.currency))}</span>`
            : ''
        }</p>`
      : '';
  const signOff = record
    ? `<p class="text-sm break-words whitespace-pre-line text-fg-muted">${escapeHtml(
        record.decision === 'approved'
          ? `Approved by ${record.by} on ${formatCopyDateTime(record.at)}`
          : `Changes requested on ${formatCopyDateTime(record.at)}${record.comment ? `: “${record.comment}”` : ''}`,
      )}</p>`
    : '';
  const buttons = canSignOff
    ? `<div class="border-t border-border pt-3"><div class="flex flex-wrap gap-2">` +
      `<button type="button" class="${copyButtonClassName('primary')}" aria-label="${escapeHtml(`Approve ${milestone.title}`)}"${describedBy}>${icon('check')} Approve</button>` +
      `<button type="button" class="${copyButtonClassName('secondary')}" aria-label="${escapeHtml(`Ask for changes to ${milestone.title}`)}"${describedBy}>${icon('sign-off-changes')} Ask for changes</button>` +
      `</div></div>`
    : '';
  const note =
    canSignOff && offline
      ? `<p id="${noteId}" class="flex items-start gap-2 text-sm text-fg-muted">${icon('cloud-off')}${SIGN_OFF_OFFLINE}</p>`
      : '';
  return (
    `<li tabindex="-1" class="flex flex-col gap-2 rounded-2xl border border-border bg-surface p-4 outline-none focus-visible:ring-2 focus-visible:ring-ring">` +
    `<div class="flex flex-wrap items-start justify-between gap-2"><h3 class="min-w-0 font-semibold break-words text-fg">${escapeHtml(milestone.title)}</h3>` +
    `<span class="rounded-full px-2 py-0.5 text-xs font-semibold whitespace-nowrap ${milestoneBadgeClasses[milestone.status]}">${escapeHtml(milestoneStatusWords[milestone.status])}</span></div>` +
    meta +
    (milestone.description
      ? `<p class="text-sm whitespace-pre-line text-fg">${escapeHtml(milestone.description)}</p>`
      : '') +
    signOff +
    buttons +
    note +
    '<div role="alert" class="text-sm font-medium text-danger empty:hidden"></div>' +
    `</li>`
  );
}

function changeRequestItem(request: PortalChangeRequest, workspaceName: string): string {
  const askedAt = `${request.source === 'portal' ? 'Asked by you' : `Added by ${workspaceName}`} on ${formatCopyDateTime(request.createdAt)}`;
  return (
    `<li tabindex="-1" class="flex flex-col gap-2 rounded-2xl border border-border bg-surface p-4 outline-none focus-visible:ring-2 focus-visible:ring-ring ">` +
    `<div class="flex flex-wrap items-start justify-between gap-2"><h3 class="min-w-0 font-semibold break-words text-fg">${escapeHtml(request.title)}</h3>` +
    `<span class="rounded-full px-2 py-0.5 text-xs font-semibold whitespace-nowrap ${changeRequestBadgeClasses[request.status]}">${escapeHtml(changeRequestStatusWords[request.status])}</span></div>` +
    `<p class="flex flex-wrap gap-x-3 text-sm text-fg-muted"><span>${escapeHtml(askedAt)}</span>${
      request.desiredDate
        ? `<span>Wanted by ${escapeHtml(formatDate(request.desiredDate))}</span>`
        : ''
    }</p>` +
    (request.description
      ? `<p class="text-sm break-words whitespace-pre-line text-fg">${escapeHtml(request.description)}</p>`
      : '') +
    `</li>`
  );
}

function fileItem(file: PortalFile, offline: boolean, icon: ProjectCopyOptions['icon']): string {
  const Icon = icon(fileIconName(file.type, file.name));
  const name = escapeHtml(file.name);
  return (
    `<li class="flex items-center gap-3 p-3 sm:p-4">${Icon}<div class="min-w-0 flex-1">` +
    `<p class="font-medium break-words text-fg">${name}</p>` +
    `<p class="flex flex-wrap items-center gap-x-2 text-sm text-fg-muted">${
      file.folder
        ? `<span class="inline-flex items-center gap-1">${icon('folder')}${escapeHtml(file.folder)}</span>`
        : ''
    }<span>${escapeHtml(formatBytes(file.size))}</span><span>updated ${escapeHtml(formatFileDate(file.updatedAt))}</span>${
      offline ? '<span>Needs a connection</span>' : ''
    }</p></div>` +
    (!offline && file.size <= MAX_KEPT_BYTES
      ? `<button type="button" class="${copyButtonClassName('ghost')}" aria-label="Keep ${name} on this device">${icon('keep-offline')}<span class="hidden sm:inline">Keep offline</span></button>`
      : '') +
    `<button type="button" class="${copyButtonClassName('secondary')}" aria-label="Download ${name}">${icon('download')}<span class="hidden sm:inline">Download</span></button>` +
    `</li>`
  );
}

/**
 * The project's page as portal-project-screen.tsx draws it from the same copy (before the files
 * kept on this device are known, as its first render).
 */
export function projectCopyMarkup(options: ProjectCopyOptions): string {
  const { snapshot, state, icon } = options;
  const { project, milestones, files, workspace, changeRequests } = snapshot;
  const offline = state === 'offline';
  const approved = milestones.filter((m) => m.status === 'approved').length;
  const accent = workspace.brandColor;
  const dates = [
    project.startDate ? `Started ${formatDate(project.startDate)}` : null,
    project.dueDate ? `Due ${formatDate(project.dueDate)}` : null,
  ]
    .filter(Boolean)
    .join(' · ');
  const percentage = milestones.length > 0 ? (approved / milestones.length) * 100 : 0;
  const header =
    `<header class="flex flex-col gap-4 border-t-4 border-brand pt-5"${
      accent ? ` style="border-top-color: ${escapeHtml(accent)};"` : ''
    }>` +
    `<div class="flex items-center gap-3">${
      workspace.logoUrl
        ? `<img src="${escapeHtml(workspace.logoUrl)}" alt="" class="size-10 rounded-lg object-contain" referrerpolicy="no-referrer">`
        : ''
    }<p class="text-sm text-fg-muted">Shared by <span class="font-semibold text-fg">${escapeHtml(workspace.name)}</span> with ${escapeHtml(project.clientName)}</p></div>` +
    `<div class="flex flex-wrap items-center gap-3"><h1 tabindex="-1" class="text-3xl font-bold tracking-tight break-words text-fg outline-none">${escapeHtml(project.name)}</h1>` +
    `<span class="inline-flex shrink-0 items-center gap-1 rounded-full px-2 py-0.5 text-xs font-semibold whitespace-nowrap ${statusBadgeClasses[project.status]} ">${icon(`status-${project.status}`)}${statusLabels[project.status]}</span></div>` +
    (dates
      ? `<p class="flex items-center gap-2 text-sm text-fg-muted">${icon('calendar')}${escapeHtml(dates)}</p>`
      : '') +
    freshnessLine(options) +
    `</header>`;
  const progress =
    milestones.length > 0
      ? `<div role="progressbar" aria-valuenow="${percentage}" aria-valuemin="0" aria-valuemax="100" aria-valuetext="${approved} of ${milestones.length}" aria-labelledby="portal-copy-progress" class="flex flex-col gap-2">` +
        `<div class="flex flex-wrap items-baseline justify-between gap-x-3"><span id="portal-copy-progress" class="text-sm font-medium text-fg-muted">Milestones approved</span><span class="font-semibold text-fg">${approved} of ${milestones.length}</span></div>` +
        `<div class="h-2.5 overflow-hidden rounded-full bg-surface-muted"><div class="h-full rounded-full bg-brand transition-[width] motion-reduce:transition-none" style="width: ${percentage}%;"></div></div></div>`
      : '';
  const milestoneList =
    milestones.length === 0
      ? '<p class="rounded-2xl border border-dashed border-border p-6 text-center text-fg-muted">No milestones yet. They appear here as your project is planned.</p>'
      : `<ol class="flex flex-col gap-3">${milestones.map((m, i) => milestoneItem(m, offline, icon, i)).join('')}</ol>`;
  const requestList =
    changeRequests.length === 0
      ? '<p class="rounded-2xl border border-dashed border-border p-6 text-center text-fg-muted">No change requests yet. Need something added or done differently? Ask for a change.</p>'
      : `<ol class="flex flex-col gap-3">${[...changeRequests]
          .sort((a, b) => (Date.parse(b.createdAt) || 0) - (Date.parse(a.createdAt) || 0))
          .map((r) => changeRequestItem(r, workspace.name))
          .join('')}</ol>`;
  const fileList =
    files.length === 0
      ? '<p class="rounded-2xl border border-dashed border-border p-6 text-center text-fg-muted">No files shared yet. Deliverables appear here when they are ready.</p>'
      : `<ul class="divide-y divide-border rounded-2xl border border-border bg-surface">${files.map((f) => fileItem(f, offline, icon)).join('')}</ul>`;
  return (
    `<div class="flex flex-col gap-8">` +
    header +
    (workspace.welcomeText
      ? `<p class="rounded-2xl border border-border bg-surface p-5 whitespace-pre-line text-fg">${escapeHtml(workspace.welcomeText)}</p>`
      : '') +
    (project.description
      ? `<p class="whitespace-pre-line text-fg-muted">${escapeHtml(project.description)}</p>`
      : '') +
    progress +
    `<section aria-labelledby="portal-copy-milestones" class="flex flex-col gap-3"><h2 id="portal-copy-milestones" class="text-xl font-semibold text-fg">Milestones</h2>${milestoneList}</section>` +
    `<section aria-labelledby="portal-copy-change-requests" class="flex flex-col gap-3"><div class="flex flex-wrap items-center justify-between gap-3"><h2 id="portal-copy-change-requests" tabindex="-1" class="text-xl font-semibold text-fg outline-none">Change requests</h2>` +
    `<button type="button" class="${copyButtonClassName('secondary')}">${icon('ask-change')} Ask for a change</button></div>${requestList}</section>` +
    `<section aria-labelledby="portal-copy-files" class="flex flex-col gap-3"><h2 id="portal-copy-files" class="text-xl font-semibold text-fg">Files</h2><div role="status" class="text-sm text-danger empty:hidden"></div>${fileList}</section>` +
    `<div class="flex justify-end border-t border-border pt-6"><button type="button" class="${copyButtonClassName('ghost')}">${icon('leave')}Leave portal</button></div>` +
    `</div>`
  );
}

/** The icons from the page's template (none in a page without it: the copy draws none). */
export function copyIcons(doc: Document): ProjectCopyOptions['icon'] {
  const template = doc.getElementById(PROJECT_COPY_ICONS_ID);
  const byName = new Map<string, string>();
  if (template instanceof HTMLTemplateElement) {
    for (const svg of template.content.querySelectorAll('[data-copy-icon]')) {
      const name = svg.getAttribute('data-copy-icon')!;
      const clone = svg.cloneNode(true) as Element;
      clone.removeAttribute('data-copy-icon');
      // What the template leaves out, the same for every icon (lucide's attributes).
      const size = clone.getAttribute('width') ?? '24';
      for (const [attribute, value] of [
        ['height', size],
        ['viewBox', '0 0 24 24'],
        ['fill', 'none'],
        ['stroke', 'currentColor'],
        ['stroke-width', '2'],
        ['stroke-linecap', 'round'],
        ['stroke-linejoin', 'round'],
        ['aria-hidden', 'true'],
      ] as const) {
        clone.setAttribute(attribute, value);
      }
      byName.set(name, clone.outerHTML);
    }
  }
  return (name) => byName.get(name) ?? '';
}

/** Paints the project into the page's project copy; false when the page has none. */
export function paintProjectCopy(
  doc: Document,
  options: Omit<ProjectCopyOptions, 'icon'>,
): boolean {
  const target = doc.querySelector<HTMLElement>('[data-portal-copy="project"]');
  if (!target) return false;
  target.innerHTML = projectCopyMarkup({ ...options, icon: copyIcons(doc) });
  target.setAttribute(PROJECT_COPY_PAINTED, '');
  // ui/use-page-title.ts's title, as the live page sets it.
  doc.title = `${options.snapshot.project.name} — Satchel`;
  // The heading takes the focus once the live page has taken over (portal-project-screen.tsx),
  // a moment later: focusing it here as well would only announce it twice.
  return true;
}

// ---- Where the copy comes from ---------------------------------------------------------------

async function answer<T>(store: PrefetchStore, url: string): Promise<T | null> {
  const pending = store[url];
  if (!pending) return null;
  // A clone: the API client takes the answer itself afterwards (prefetchingFetch).
  const response = await pending;
  if (!response.ok) return null;
  return (await response.clone().json()) as T;
}

/**
 * The project's answers /portal-init.js asked for, as the copy kept on the device would hold
 * them; null when any is missing or failed (the live page then says why).
 */
export async function prefetchedSnapshot(
  store: PrefetchStore,
  projectId: string,
  now: () => number,
): Promise<PortalSnapshot | null> {
  const at = (endpoint: string, key: string, value: string) =>
    prefetchAddress(endpoint, key, value);
  try {
    const projectAnswer = await answer<{ project: PortalSnapshot['project'] }>(
      store,
      at('get-client-project', 'id', projectId),
    );
    const project = projectAnswer?.project;
    const workspaceId = project?.workspaceId;
    if (!project || typeof workspaceId !== 'string') return null;
    const workspaceUrl = at('get-workspace-settings', 'workspaceId', workspaceId);
    // The init script asks for it as the project answers; the same turn may be this one.
    if (!store[workspaceUrl]) await new Promise((resolve) => setTimeout(resolve, 0));
    const [milestones, files, changeRequests, workspace] = await Promise.all([
      answer<{ milestones: unknown }>(store, at('get-project-milestones', 'projectId', projectId)),
      answer<{ files: unknown }>(store, at('get-project-files', 'projectId', projectId)),
      answer<{ changeRequests: unknown }>(store, at('get-change-requests', 'projectId', projectId)),
      answer<{ workspace: unknown }>(store, workspaceUrl),
    ]);
    if (!milestones || !files || !changeRequests || !workspace) return null;
    // Through the copy's own checks: what could not be kept is not painted either.
    const candidate = {
      savedAt: now(),
      project,
      milestones: milestones.milestones,
      files: files.files,
      workspace: workspace.workspace,
      changeRequests: changeRequests.changeRequests,
    };
    const parsed = v.safeParse(portalSnapshotSchema, candidate);
    return parsed.success && parsed.output.project.id === projectId ? parsed.output : null;
  } catch {
    return null;
  }
}

export interface ProjectCopyStart {
  doc: Document;
  storage: Storage | undefined;
  projectId: string;
  clientId: string;
  online: boolean;
  /** The init script's answers (none: the page asks itself, and nothing is painted from them). */
  store: PrefetchStore | undefined;
  now: () => number;
}

/**
 * Paints the project's copy from what the device has, or from the init script's answers once
 * they are in (kept on the device then, as the live page keeps them, which renders from that
 * copy). Resolves to what the copy shows, or null when it painted nothing; never rejects.
 */
export async function startProjectCopy(start: ProjectCopyStart): Promise<ProjectCopyState | null> {
  const { doc, storage, projectId, clientId, online, store, now } = start;
  const paint = (snapshot: PortalSnapshot, state: ProjectCopyState) =>
    paintProjectCopy(doc, { snapshot, state }) ? state : null;
  try {
    const kept = readPortalSnapshot(storage, projectId);
    if (kept && kept.project.clientId === clientId) {
      return paint(kept, online ? 'checking' : 'offline');
    }
    if (!online || !store) return null;
    const fresh = await prefetchedSnapshot(store, projectId, now);
    if (!fresh || fresh.project.clientId !== clientId) return null;
    // The answers' checks and the copy's drawing in two tasks rather than one long one.
    await new Promise((resolve) => setTimeout(resolve, 0));
    // The live page starts from it, as if it had saved it itself (it saves its own answer too).
    writePortalSnapshot(storage, fresh);
    return paint(fresh, 'fresh');
  } catch {
    return null;
  }
}

/** The init script's answers on the page, taken: the portal asks itself from now on. */
export function takePrefetchStore(global: object): PrefetchStore | undefined {
  const holder = global as Record<string, PrefetchStore | undefined>;
  const store = holder[PORTAL_PREFETCH_GLOBAL];
  delete holder[PORTAL_PREFETCH_GLOBAL];
  return store;
}
