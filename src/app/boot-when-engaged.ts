/**
 * When to start the app. A prerendered public page is complete without it: it paints from its
 * HTML and CSS, and its links are plain links to other prerendered pages. Starting the app there
 * during load (React, the router, the auth client: ~100 KB gzip and some 100 ms of main-thread
 * work on a phone) only kept the page busy while it was being read (Lighthouse's Total Blocking
 * Time, 350-620 ms on mobile settings). So on such a page the app starts when the visitor first
 * engages with it: a pointer moving or pressing, a touch, a key, focus, a scroll.
 *
 * It starts at once wherever the static copy could be wrong or is absent: the app shell (no copy),
 * a URL with a query or hash (a billing result's session_id, an auth callback), a browser that
 * holds a session (a signed-in visitor sees their own plan and menu), and a copy marked
 * `data-boot-at-once` (the not-found page, served for any unknown path: its suggestions depend on
 * the path).
 *
 * A click on the copy before the app has taken over is held and replayed on the live page
 * (features/marketing/prerendered-handover.ts); links are left to navigate as links.
 */
import {
  BOOT_AT_ONCE_ATTRIBUTE,
  markHeldClick,
} from '../features/marketing/prerendered-handover.ts';
import { safeStorage } from './safe-storage.ts';

const engagementEvents = [
  'pointermove',
  'pointerdown',
  'touchstart',
  'keydown',
  'focusin',
  'scroll',
  'wheel',
] as const;

export interface BootEnvironment {
  /** The prerendered copy of the page, if this page has one. */
  copy: HTMLElement | null;
  location: Pick<Location, 'search' | 'hash'>;
  /** Storage keys present (localStorage); null when storage is not readable. */
  storageKeys: readonly string[] | null;
  events: Pick<Window, 'addEventListener' | 'removeEventListener'>;
}

/** supabase-js keeps its session under `sb-<project ref>-auth-token`. */
const sessionKey = /^sb-.+-auth-token$/;

/** Whether the app must start now rather than at the first engagement. */
export function mustBootAtOnce(env: Omit<BootEnvironment, 'events'>): boolean {
  if (!env.copy || env.copy.hidden) return true;
  if (env.copy.hasAttribute(BOOT_AT_ONCE_ATTRIBUTE)) return true;
  if (env.location.search !== '' || env.location.hash !== '') return true;
  // Unreadable storage: a session cannot be told apart from none, so take no chance.
  if (env.storageKeys === null) return true;
  return env.storageKeys.some((key) => sessionKey.test(key));
}

/** Calls `start` once: now, or at the visitor's first engagement with the prerendered page. */
export function bootWhenEngaged(env: BootEnvironment, start: () => void): void {
  if (mustBootAtOnce(env)) {
    start();
    return;
  }
  const copy = env.copy!;
  let started = false;
  const options = { capture: true, passive: true } as const;
  const engage = () => {
    if (started) return;
    started = true;
    for (const type of engagementEvents) env.events.removeEventListener(type, engage, options);
    start();
  };
  for (const type of engagementEvents) env.events.addEventListener(type, engage, options);

  copy.addEventListener(
    'click',
    (event) => {
      // Once the app has taken over, the copy is hidden and gets no clicks.
      if (copy.hidden || !(event.target instanceof Element)) return;
      if (markHeldClick(copy, event.target)) {
        event.preventDefault();
        event.stopPropagation();
      }
      engage();
    },
    { capture: true },
  );
}

/** The browser's own environment for bootWhenEngaged. */
export function browserBootEnvironment(copyId: string): BootEnvironment {
  const storage = safeStorage('localStorage');
  return {
    copy: document.getElementById(copyId),
    location: window.location,
    storageKeys: storage ? Object.keys(storage) : null,
    events: window,
  };
}
