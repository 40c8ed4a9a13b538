import { Workbox } from 'workbox-window';
import { bootWhenEngaged, browserBootEnvironment } from './app/boot-when-engaged.ts';
import { isClientPortalPage } from './app/client-portal-path.ts';
import { keepPublicConfigWhenIdle } from './app/keep-public-config.ts';
import { registerServiceWorker } from './app/register-service-worker.ts';
import { safeStorage } from './app/safe-storage.ts';
import { PRERENDERED_ID } from './features/marketing/prerendered-handover.ts';
import {
  holdCopySubmit,
  PORTAL_COPY_ID,
  PORTAL_PAGE_ATTRIBUTE,
  startWhenEngaged,
} from './features/portal/portal-copy.ts';
import { createToaster } from './ui/toaster.ts';
import { demoModeAt, runsDemo } from './demo/demo-mode.ts';
// Here, not in the app chunk: the stylesheet must be a <link> in every page's head, which paints
// the prerendered copy before any script runs.
import './ui/styles.css';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
const toaster = createToaster();
/** The client portal's pages start the portal alone (app/mount-portal.tsx). */
const isPortalPage = isClientPortalPage(window.location.pathname);
/** The demo sends nothing to the server and starts at once (src/demo/demo-mode.ts). */
const isDemo = runsDemo(demoModeAt(window.location.pathname, safeStorage('sessionStorage')));

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
  // That worker lets the app open offline later, which needs the public config kept (not the
  // portal's: its visitors have no account).
  if (!isPortalPage && !isDemo) {
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
}

const couldNotLoad = () => {
  // Only reachable online without a service worker: the prerendered copy, if any, stays.
  if (!document.getElementById(PRERENDERED_ID)) {
    container.textContent = 'Satchel could not load. Check your connection and reload.';
  }
};

if (isPortalPage) {
  // A client on a phone: the portal's pages without the members' app (no router, sign-in or local
  // database); their page preloads it (vite.config.ts). Its static copy (the gate, or a project's
  // loading state, as /portal-init.js chose) holds a submit until the live page takes over. The
  // gate of a complete link is the whole page until the visitor engages with it; a project's page
  // needs the portal at once.
  const start = () => {
    import('./app/mount-portal.tsx').then(
      ({ mountPortal }) => mountPortal(container, toaster),
      couldNotLoad,
    );
  };
  const copy = document.getElementById(PORTAL_COPY_ID);
  if (copy) holdCopySubmit(copy);
  // Offline, the gate starts at once: it offers the copy of the project kept on the device.
  if (
    copy &&
    document.documentElement.getAttribute(PORTAL_PAGE_ATTRIBUTE) === 'gate' &&
    navigator.onLine !== false
  ) {
    startWhenEngaged(window, start);
  } else if (copy) {
    // The copy paints first (its scripts are preloaded and often here before the first frame):
    // the portal's start is a long task on a phone, and the page should not stay blank meanwhile.
    // (A hidden tab has no frames: a timer starts it there.)
    let started = false;
    const startOnce = () => {
      if (started) return;
      started = true;
      start();
    };
    requestAnimationFrame(() => setTimeout(startOnce, 0));
    setTimeout(startOnce, 250);
  } else {
    start();
  }
} else {
  // The app is a chunk of its own, so that a prerendered page evaluates none of it before the
  // visitor engages (boot-when-engaged.ts). The app shell preloads it (vite.config.ts).
  const startApp = () => {
    import('./app/mount-app.tsx').then(
      ({ mountApp }) => mountApp(container, toaster),
      couldNotLoad,
    );
  };
  // The demo's page is only its entry: the app opens the demo workspace at once, after the entry's
  // copy has painted (the start is a long task on a phone), with the demo's services fetched
  // alongside the app rather than after it (mount-app.tsx imports them). (A hidden tab has no
  // frames: a timer starts it there.)
  if (isDemo) {
    let started = false;
    const startDemoApp = () => {
      if (started) return;
      started = true;
      import('./demo/start-demo.ts').catch(() => undefined);
      startApp();
    };
    requestAnimationFrame(() => setTimeout(startDemoApp, 0));
    setTimeout(startDemoApp, 250);
  } else bootWhenEngaged(browserBootEnvironment(PRERENDERED_ID), startApp);
}
