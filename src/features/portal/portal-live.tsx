/**
 * The live portal: React, react-aria and the portal's screens (portal-app.tsx), which
 * src/app/mount-portal.tsx loads once the page's static copy is on screen (a project's copy is
 * painted first, portal-project-copy.ts). Its own chunk, so that nothing of it is evaluated before
 * that.
 */
import { startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import type { CallEndpoint } from '#contract/define-endpoint.ts';
import { createThemeController } from '../../ui/theme.ts';
import type { Toaster } from '../../ui/toaster.ts';
import { PortalApp } from './portal-app.tsx';
import { createPortalHistory } from './portal-history.ts';
import type { ProjectCopyState } from './portal-project-copy.ts';

export interface PortalLiveOptions {
  /** The portal's calls (on its httpOnly cookie), taking the init script's answers first. */
  callEndpoint: CallEndpoint;
  storage: Storage | undefined;
  /** The entry's (service worker updates). */
  toaster: Toaster;
  /** What the page's static copy shows of the project, if it painted one. */
  projectCopy?: ProjectCopyState | undefined;
}

/** Starts the portal in `container`. */
export function startPortalApp(
  container: HTMLElement,
  { callEndpoint, storage, toaster, projectCopy }: PortalLiveOptions,
): void {
  const themeController = createThemeController({
    document,
    storage,
    matchMedia:
      typeof window.matchMedia === 'function' ? (query) => window.matchMedia(query) : undefined,
  });
  const history = createPortalHistory({
    location: window.location,
    history: window.history,
    events: window,
    storage,
    now: Date.now,
    scrollTo: (x, y) => window.scrollTo(x, y),
  });
  const root = createRoot(container);
  // A transition: React renders in slices, yielding to the browser between them, rather than in
  // one long task on a slow phone; the static copy shows meanwhile.
  startTransition(() => {
    root.render(
      <PortalApp
        history={history}
        callEndpoint={callEndpoint}
        themeController={themeController}
        toaster={toaster}
        projectCopy={projectCopy}
      />,
    );
  });
}
