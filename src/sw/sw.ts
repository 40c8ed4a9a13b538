/// <reference lib="webworker" />
/**
 * Service worker: precaches the app shell and answers navigations with it offline (the client
 * portal's pages with the portal's own page). Data never passes through here (Dexie is the data
 * cache), so API JSON is not cached. Build files the precache leaves out (pdf.js, rarely used
 * screens; see vite.config.ts) are cached the first time the app loads them, so what was used
 * once online works offline afterwards.
 * Updates wait for the user: the app shows "New version available" and sends SKIP_WAITING when
 * they press Reload (src/app/register-service-worker.ts). A first install takes the page at once.
 */
import {
  cleanupOutdatedCaches,
  createHandlerBoundToURL,
  precacheAndRoute,
} from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';

declare const self: ServiceWorkerGlobalScope & {
  __WB_MANIFEST: Array<string | { url: string; revision: string | null }>;
};

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

// Server-owned paths must reach the network even for a navigation (an auth callback, a file
// download, a health check opened in a tab). `/auth/v1` and not `/auth`: /auth/confirm-registration
// is an app page and must work offline.
const serverPaths = [
  /^\/api(\/|$)/,
  /^\/auth\/v1(\/|$)/,
  /^\/hubs(\/|$)/,
  /^\/files(\/|$)/,
  /^\/healthz(\/|$)/,
];

// The client portal's pages get the portal's own page (the gate's and a project's static copies,
// the portal's scripts preloaded; scripts/prerender-site.mjs), which starts the portal without
// the members' app. The same paths as src/app/client-portal-path.ts's isClientPortalPage;
// Workbox tests the path with its query.
const portalPages = [
  /^\/client-access\/?(\?.*)?$/i,
  /^\/client\/[^/?]+\/project\/[^/?]+\/?(\?.*)?$/i,
];

registerRoute(
  new NavigationRoute(createHandlerBoundToURL('/client-portal.html'), { allowlist: portalPages }),
);
registerRoute(
  new NavigationRoute(createHandlerBoundToURL('/index.html'), { denylist: serverPaths }),
);

/**
 * Hashed build files (`/assets/<name>-<hash>.<ext>`) never change under their name, so a cached
 * copy is always right: cache first, network once. The precache's own route runs first and
 * answers every precached file; this one sees only the files left out of it. A new build leaves
 * its predecessors' files behind, so the cache keeps the most recent LAZY_ASSETS_MAX entries.
 */
const LAZY_ASSETS_CACHE = 'satchel-lazy-assets-v1';
const LAZY_ASSETS_MAX = 60;

async function trimLazyAssets(cache: Cache): Promise<void> {
  const keys = await cache.keys();
  // keys() lists entries in the order they were stored: the oldest go first.
  for (const request of keys.slice(0, Math.max(0, keys.length - LAZY_ASSETS_MAX))) {
    await cache.delete(request);
  }
}

registerRoute(
  ({ url, request, sameOrigin }) =>
    sameOrigin && request.method === 'GET' && url.pathname.startsWith('/assets/'),
  async ({ request, event }) => {
    const cache = await caches.open(LAZY_ASSETS_CACHE);
    const cached = await cache.match(request, { ignoreVary: true });
    if (cached) return cached;
    const response = await fetch(request);
    // 200 only: never a partial (206) or an error page under a build file's name.
    if (response.status === 200) {
      event.waitUntil(cache.put(request, response.clone()).then(() => trimLazyAssets(cache)));
    }
    return response;
  },
);

// Set when the user accepted the update; only then does the new worker take over open pages.
let hasUserAcceptedUpdate = false;

self.addEventListener('message', (event: ExtendableMessageEvent) => {
  const data: unknown = event.data;
  if (typeof data === 'object' && data !== null && 'type' in data && data.type === 'SKIP_WAITING') {
    hasUserAcceptedUpdate = true;
    void self.skipWaiting();
  }
});

// No worker was active before this one: a first install, not an update, so there is no user
// to ask. It takes the open pages at once, and what they load from then on (pdf.js, screens left
// out of the precache) is cached for offline use in this very first visit.
let isFirstInstall = false;

self.addEventListener('install', () => {
  isFirstInstall = self.registration.active === null;
});

self.addEventListener('activate', (event: ExtendableEvent) => {
  if (hasUserAcceptedUpdate || isFirstInstall) event.waitUntil(self.clients.claim());
});
