/// <reference lib="webworker" />
/**
 * Service worker: precaches the app shell and answers navigations with it offline. Data never
 * passes through here (Dexie is the data cache), so API JSON is not cached.
 * Updates wait for the user: the app shows "New version available" and sends SKIP_WAITING when
 * they press Reload (src/app/register-service-worker.ts).
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

registerRoute(
  new NavigationRoute(createHandlerBoundToURL('/index.html'), { denylist: serverPaths }),
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

self.addEventListener('activate', (event: ExtendableEvent) => {
  if (hasUserAcceptedUpdate) event.waitUntil(self.clients.claim());
});
