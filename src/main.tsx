import { Workbox } from 'workbox-window';
import { bootWhenEngaged, browserBootEnvironment } from './app/boot-when-engaged.ts';
import { keepPublicConfigWhenIdle } from './app/keep-public-config.ts';
import { registerServiceWorker } from './app/register-service-worker.ts';
import { safeStorage } from './app/safe-storage.ts';
import { PRERENDERED_ID } from './features/marketing/prerendered-handover.ts';
import { createToaster } from './ui/toaster.ts';
// Here, not in the app chunk: the stylesheet must be a <link> in every page's head, which paints
// the prerendered copy before any script runs.
import './ui/styles.css';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
const toaster = createToaster();

// Every page installs the service worker (after the load event, as workbox-window does), whether
// or not the app starts there: a visitor who only read the home page can install Satchel and
// open it offline. Only production builds have one (devOptions are off), and dev must never be
// served stale code from a cache.
if (import.meta.env.PROD && 'serviceWorker' in navigator) {
  registerServiceWorker({
    workbox: new Workbox('/sw.js', { scope: '/' }),
    toaster,
    reload: () => window.location.reload(),
    visibility: document,
  });
  // That worker lets the app open offline later, which needs the public config kept.
  keepPublicConfigWhenIdle({
    storage: safeStorage('localStorage'),
    fetch: (input, init) => globalThis.fetch(input, init),
    whenIdle: (work) =>
      window.addEventListener('load', () => {
        if (typeof window.requestIdleCallback === 'function') {
          window.requestIdleCallback(work, { timeout: 5000 });
        } else {
          setTimeout(work, 1000);
        }
      }),
  });
}

// The app is a chunk of its own, so that a prerendered page evaluates none of it before the
// visitor engages (boot-when-engaged.ts). The app shell preloads it (vite.config.ts).
bootWhenEngaged(browserBootEnvironment(PRERENDERED_ID), () => {
  import('./app/mount-app.tsx').then(
    ({ mountApp }) => mountApp(container, toaster),
    () => {
      // Only reachable online without a service worker: the prerendered copy, if any, stays.
      if (!document.getElementById(PRERENDERED_ID)) {
        container.textContent = 'Satchel could not load. Check your connection and reload.';
      }
    },
  );
});
