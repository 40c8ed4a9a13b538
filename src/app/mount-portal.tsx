/**
 * Composition root of the client portal's pages (src/main.tsx starts it instead of mount-app.tsx
 * on /client-access and /client/{clientId}/project/{projectId}): the portal alone, without the
 * router, sign-in or the local database (features/portal/portal-live.tsx).
 *
 * On a project's page with a live session it first paints the project into the page's static
 * copy, from the copy kept on the device or the answers /portal-init.js asked for
 * (features/portal/portal-project-copy.ts): plain DOM work, so the project is on screen before
 * React, react-aria and the screens are evaluated and rendered (a phone's longest tasks). The live
 * portal starts after that paint, from the same copy, and takes the static copy's place. This
 * module's own imports are the page's preloads (vite.config.ts): the live portal's chunks load once
 * the copy is painted, not before it.
 *
 * A copy painted from the server's answers of this very load is the project as it is now, so the
 * live portal waits for the client's first engagement with it (a touch, a key, the pointer, a
 * scroll), as the gate does (portal-copy.ts): a client who opens the link to read where the
 * project stands keeps a phone that is idle once the page is drawn, and a press on the copy
 * meanwhile is held and pressed again on the live page. What only the live page shows (the
 * invoices, the chat, live updates) comes at that engagement, or when a tab opened in the
 * background is shown. A copy from the device (checking for updates, or offline) starts the live
 * portal at once: it has work to do.
 */
import { createApiClient } from '../api-client/call-endpoint.ts';
import { PORTAL_PAGE_ATTRIBUTE, startWhenEngaged } from '../features/portal/portal-copy.ts';
import { matchPortalPage } from '../features/portal/portal-location.ts';
import { prefetchingFetch, type PrefetchStore } from '../features/portal/portal-prefetch.ts';
import {
  startProjectCopy,
  takePrefetchStore,
  type ProjectCopyState,
} from '../features/portal/portal-project-copy.ts';
import type { Toaster } from '../ui/toaster.ts';
import { safeStorage } from './safe-storage.ts';

/** A turn of the event loop: what the browser has waiting (input, a frame) goes first. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** After the browser has drawn what is on the page now (a hidden tab draws nothing: a timer). */
function afterPaint(): Promise<void> {
  return new Promise((resolve) => {
    const done = () => resolve();
    requestAnimationFrame(() => setTimeout(done, 0));
    setTimeout(done, 100);
  });
}

/** The longest the init script's answers stand for "now" when the live portal starts late. */
const PREFETCH_FRESH_MS = 30_000;

/**
 * Resolves when the live portal should start after the copy: at once, or for a copy of this
 * load's answers at the first engagement (or when a tab opened in the background is shown),
 * dropping those answers if they have grown old meanwhile (the live page then asks the network
 * itself).
 */
export async function liveStart(
  copy: ProjectCopyState | null,
  prefetched: PrefetchStore | undefined,
): Promise<void> {
  if (copy !== 'fresh') return;
  const paintedAt = Date.now();
  await new Promise<void>((resolve) => {
    startWhenEngaged(window, resolve);
    // A tab opened in the background is looked at later: the live portal starts when it is shown,
    // so a copy painted long before does not stand for "up to date" then.
    const shown = () => {
      if (document.visibilityState !== 'visible') return;
      document.removeEventListener('visibilitychange', shown);
      resolve();
    };
    document.addEventListener('visibilitychange', shown);
  });
  if (prefetched && Date.now() - paintedAt > PREFETCH_FRESH_MS) {
    for (const address of Object.keys(prefetched)) delete prefetched[address];
  }
}

/** Starts the portal in `container`; the toaster is the entry's (service worker updates). */
export function mountPortal(container: HTMLElement, toaster: Toaster): void {
  // Asked for from now on by the portal itself (a hidden tab draws no frame before it starts, and
  // the init script asks only once a frame is drawn).
  const prefetched = takePrefetchStore(window);
  const storage = safeStorage('localStorage');
  // The portal's calls ride on its httpOnly cookie: no bearer token. The page's first answers may
  // be on their way already, or in (/portal-init.js asked for them).
  const api = createApiClient({
    baseUrl: '',
    getAccessToken: () => Promise.resolve(null),
    fetch: prefetchingFetch(globalThis.fetch.bind(globalThis), prefetched),
  });
  const page = matchPortalPage(window.location);
  const painted =
    page?.page === 'project' &&
    document.documentElement.getAttribute(PORTAL_PAGE_ATTRIBUTE) === 'project'
      ? startProjectCopy({
          doc: document,
          storage,
          projectId: page.projectId,
          clientId: page.clientId,
          online: navigator.onLine !== false,
          store: prefetched,
          now: Date.now,
        })
      : Promise.resolve(null);
  void painted
    .then(async (copy) => {
      if (copy) await afterPaint();
      await liveStart(copy, prefetched);
      // React and react-dom first, the portal's screens and react-aria next: each is evaluated in
      // a task of its own, not in one long task on a phone.
      await import('react-dom/client');
      await nextTask();
      const { startPortalApp } = await import('../features/portal/portal-live.tsx');
      await nextTask();
      startPortalApp(container, {
        callEndpoint: api.callEndpoint,
        storage,
        toaster,
        projectCopy: copy ?? undefined,
      });
    })
    // Only reachable online without a service worker: the static copy stays, as src/main.tsx
    // leaves it when this module itself could not load.
    .catch(() => undefined);
}
