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
 */
import { createApiClient } from '../api-client/call-endpoint.ts';
import { PORTAL_PAGE_ATTRIBUTE } from '../features/portal/portal-copy.ts';
import { matchPortalPage } from '../features/portal/portal-location.ts';
import { prefetchingFetch } from '../features/portal/portal-prefetch.ts';
import { startProjectCopy, takePrefetchStore } from '../features/portal/portal-project-copy.ts';
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
