/**
 * Composition root of the client portal's pages (src/main.tsx starts it instead of mount-app.tsx
 * on /client-access and /client/{clientId}/project/{projectId}): the portal alone, without the
 * router, sign-in or the local database (features/portal/portal-app.tsx).
 */
import { startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { createApiClient } from '../api-client/call-endpoint.ts';
import { PortalApp } from '../features/portal/portal-app.tsx';
import { createPortalHistory } from '../features/portal/portal-history.ts';
import {
  PORTAL_PREFETCH_GLOBAL,
  prefetchingFetch,
  type PrefetchStore,
} from '../features/portal/portal-prefetch.ts';
import { createThemeController } from '../ui/theme.ts';
import type { Toaster } from '../ui/toaster.ts';
import { safeStorage } from './safe-storage.ts';

/** Starts the portal in `container`; the toaster is the entry's (service worker updates). */
export function mountPortal(container: HTMLElement, toaster: Toaster): void {
  const storage = safeStorage('localStorage');
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
  // The portal's calls ride on its httpOnly cookie: no bearer token. The page's first answers may
  // be on their way already (/portal-init.js asked for them).
  const global = window as unknown as Record<string, PrefetchStore | undefined>;
  const prefetched = global[PORTAL_PREFETCH_GLOBAL];
  // Asked for from now on, by the portal itself (a hidden tab draws no frame before it starts).
  delete global[PORTAL_PREFETCH_GLOBAL];
  const api = createApiClient({
    baseUrl: '',
    getAccessToken: () => Promise.resolve(null),
    fetch: prefetchingFetch(globalThis.fetch.bind(globalThis), prefetched),
  });
  const root = createRoot(container);
  // A transition: React renders in slices, yielding to the browser between them, rather than in
  // one long task on a slow phone; the static copy shows meanwhile.
  startTransition(() => {
    root.render(
      <PortalApp
        history={history}
        callEndpoint={api.callEndpoint}
        themeController={themeController}
        toaster={toaster}
      />,
    );
  });
}
