/**
 * Build-time entry of the prerender step for the client portal (scripts/prerender-site.mjs): the
 * static copy of its pages, rendered with the portal's own components in the step's jsdom
 * document, which a client's phone paints from HTML and CSS before any script runs; the portal's
 * entry then takes over (portal-copy.ts, portal-app.tsx).
 *
 * One file, `client-portal.html`, served for /client-access and /client/{clientId}/project/
 * {projectId} (by the server, and by the service worker offline), holds both pages' copies: the
 * password gate of a complete link and a project page's loading state. `/portal-init.js`
 * (portal-init-script.ts) shows the right one before the first paint. The gate's form is a plain
 * element in the copy: nothing can be sent from it before the live page holds the password. The
 * page preloads the portal's scripts, which a project page waits for.
 */
import {
  CalendarDays,
  Check,
  CircleCheck,
  CircleDashed,
  CirclePause,
  CirclePlay,
  CircleX,
  CloudOff,
  Download,
  File as FileIcon,
  FileArchive,
  FileAudio,
  FileImage,
  FileSpreadsheet,
  FileText,
  FileVideo,
  FolderOpen,
  HardDriveDownload,
  LogOut,
  MessageSquarePlus,
  MessageSquareWarning,
  RefreshCw,
  type LucideIcon,
} from 'lucide-react';
import type { ReactNode } from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import type { CallEndpoint } from '#contract/define-endpoint.ts';
import { escapeHtml, prioritisePaint } from '../marketing/page-head.ts';
import { createThemeController } from '../../ui/theme.ts';
import { ThemeProvider } from '../../ui/theme-provider.tsx';
import { ToastProvider } from '../../ui/toast-provider.tsx';
import { createToaster } from '../../ui/toaster.ts';
import { formatPageTitle } from '../../ui/use-page-title.ts';
import { PortalLayout } from '../shell/portal-layout.tsx';
import { ClientAccessScreen } from './client-access-screen.tsx';
import { PORTAL_COPY_ID, PORTAL_PAGE_ATTRIBUTE } from './portal-copy.ts';
import { PORTAL_INIT_FILE, portalInitScript } from './portal-init-script.ts';
import {
  PROJECT_COPY_ICONS_ID,
  projectCopyIcons,
  type ProjectCopyIcon,
} from './portal-project-copy.ts';
import { PortalProjectLoading } from './portal-project-screen.tsx';

/** Where the build writes the portal's page (served for both of its paths). */
export const PORTAL_PAGE_FILE = 'client-portal.html';
const GATE_TITLE = 'Client access';
/** Stands in for the gate in the layout's render; the gate's own render takes its place. */
const GATE_MARK = '%%portal-gate%%';

// Ids of the right shape: the copy is the gate of a complete link (the ids are not in its markup).
const sampleId = '00000000-0000-4000-8000-000000000000';

const noApi: CallEndpoint = () => new Promise(() => undefined);

function renderMarkup(screen: ReactNode): string {
  const container = document.createElement('div');
  document.body.append(container);
  const root = createRoot(container);
  const themeController = createThemeController({
    document,
    storage: undefined,
    matchMedia: undefined,
  });
  flushSync(() =>
    root.render(
      <ThemeProvider controller={themeController}>
        <ToastProvider toaster={createToaster()}>
          <PortalLayout>{screen}</PortalLayout>
        </ToastProvider>
      </ThemeProvider>,
    ),
  );
  const markup = container.innerHTML;
  root.unmount();
  container.remove();
  return markup;
}

/**
 * The icons a project's copy draws (portal-project-copy.ts), each as the live page draws it
 * (portal-project-screen.tsx and its parts: the same icon, size and classes).
 */
const copyIcons: Record<ProjectCopyIcon, [icon: LucideIcon, size: number, className?: string]> = {
  calendar: [CalendarDays, 16],
  'cloud-off': [CloudOff, 16, 'mt-0.5 shrink-0'],
  refresh: [RefreshCw, 14],
  check: [Check, 16],
  'sign-off-changes': [MessageSquareWarning, 16],
  'ask-change': [MessageSquarePlus, 16],
  download: [Download, 16],
  'keep-offline': [HardDriveDownload, 16],
  folder: [FolderOpen, 14],
  leave: [LogOut, 16],
  file: [FileIcon, 24, 'shrink-0 text-fg-muted'],
  'file-image': [FileImage, 24, 'shrink-0 text-fg-muted'],
  'file-video': [FileVideo, 24, 'shrink-0 text-fg-muted'],
  'file-audio': [FileAudio, 24, 'shrink-0 text-fg-muted'],
  'file-text': [FileText, 24, 'shrink-0 text-fg-muted'],
  'file-spreadsheet': [FileSpreadsheet, 24, 'shrink-0 text-fg-muted'],
  'file-archive': [FileArchive, 24, 'shrink-0 text-fg-muted'],
  'status-planned': [CircleDashed, 13],
  'status-active': [CirclePlay, 13],
  'status-on_hold': [CirclePause, 13],
  'status-completed': [CircleCheck, 13],
  'status-cancelled': [CircleX, 13],
};

/** The copy's icons in a template (inert, never shown): the project's copy clones them. */
export function copyIconsTemplate(): string {
  const container = document.createElement('div');
  const root = createRoot(container);
  flushSync(() =>
    root.render(
      <>
        {projectCopyIcons.map((name) => {
          const [Icon, size, className] = copyIcons[name];
          return (
            <Icon
              key={name}
              data-copy-icon={name}
              aria-hidden="true"
              size={size}
              {...(className ? { className } : {})}
            />
          );
        })}
      </>,
    ),
  );
  // What every icon has alike is put back by the copy (portal-project-copy.ts's copyIcons).
  const markup = container.innerHTML.replace(/<svg\b[^>]*>/g, (tag) =>
    tag.replace(
      / (?:xmlns|height|viewBox|fill|stroke|stroke-width|stroke-linecap|stroke-linejoin|aria-hidden)="[^"]*"/g,
      '',
    ),
  );
  root.unmount();
  return `<template id="${PROJECT_COPY_ICONS_ID}">${markup}</template>`;
}

/** The copy's form cannot submit: the live page's does (portal-copy.ts holds a submit). */
function withoutForm(markup: string): string {
  return markup
    .replace(/<form\b([^>]*)>/g, (_tag, attributes: string) => {
      return `<div${attributes.replace(/\s+novalidate(="[^"]*")?/i, '')}>`;
    })
    .replace(/<\/form>/g, '</div>');
}

export interface PortalBuildFile {
  file: string;
  content: string;
}

/**
 * The portal's page from the built index.html (`template`) and its init script. `preloads` are
 * the portal's scripts (its entry chunk and what that imports).
 */
export function renderPortalPages(
  template: string,
  options: { preloads: readonly string[]; themeStorageKey: string },
): PortalBuildFile[] {
  const gate = renderMarkup(
    <ClientAccessScreen
      projectId={sampleId}
      clientId={sampleId}
      redirect={undefined}
      callEndpoint={noApi}
      navigate={() => undefined}
      storage={undefined}
    />,
  );
  const markup = renderMarkup(
    <>
      <div data-portal-copy="gate">{GATE_MARK}</div>
      <div data-portal-copy="project">
        <PortalProjectLoading />
      </div>
    </>,
  ).replace(GATE_MARK, () => gateCopy(gate));
  return [
    {
      file: PORTAL_PAGE_FILE,
      content: composePortalPage(template, {
        title: 'Your project',
        markup: markup + copyIconsTemplate(),
        preloads: options.preloads,
      }),
    },
    {
      file: PORTAL_INIT_FILE,
      content: portalInitScript({
        themeStorageKey: options.themeStorageKey,
        gateTitle: formatPageTitle(GATE_TITLE),
      }),
    },
  ];
}

/**
 * The gate screen's markup (inside the layout of the other render) as the copy shows it: its
 * form cannot submit (the live page's does, portal-copy.ts), and its heading takes the focus on
 * load as the live screen's does.
 */
function gateCopy(layoutMarkup: string): string {
  const main = /<main\b[^>]*>([\s\S]*)<\/main>/.exec(layoutMarkup);
  if (!main) throw new Error('The portal layout has no <main>');
  return withoutForm(main[1]!).replace(/<h1 /, '<h1 autofocus="" ');
}

/**
 * index.html with the page's title, never indexed (private pages; robots.txt says so too), the
 * portal's init script in place of the theme's, the stylesheet first, the app shell's preloads
 * replaced by `preloads`, and the copy beside #root (hidden while the copy shows, as on the public
 * site's prerendered pages). The "needs JavaScript" notice stays: the portal does.
 */
export function composePortalPage(
  template: string,
  page: { title: string; markup: string; preloads: readonly string[] },
): string {
  if (!template.includes('<div id="root"></div>')) {
    throw new Error('index.html has no empty <div id="root"></div> to prerender beside');
  }
  const attribute = PORTAL_PAGE_ATTRIBUTE;
  const head = [
    `<title>${escapeHtml(formatPageTitle(page.title))}</title>`,
    '<meta name="robots" content="noindex" />',
    ...page.preloads.map(
      (file) => `<link rel="modulepreload" crossorigin href="/${escapeHtml(file)}" />`,
    ),
    `<style>#${PORTAL_COPY_ID}:not([hidden]) + #root { display: none; } ` +
      `html[${attribute}^="gate"] [data-portal-copy="project"], ` +
      `html:not([${attribute}^="gate"]) [data-portal-copy="gate"] { display: none; }</style>`,
  ].join('\n    ');
  const withInit = prioritisePaint(template).replace(
    /<script src="\/theme-init\.js"><\/script>/,
    `<script src="/${PORTAL_INIT_FILE}"></script>`,
  );
  if (!withInit.includes(PORTAL_INIT_FILE)) {
    throw new Error('index.html has no theme-init.js script for the portal’s to replace');
  }
  return withInit
    .replace(/<title>[\s\S]*?<\/title>\s*/, '')
    .replace('</head>', () => `  ${head}\n  </head>`)
    .replace(
      '<div id="root"></div>',
      () => `<div id="${PORTAL_COPY_ID}">${page.markup}</div>\n    <div id="root"></div>`,
    );
}
