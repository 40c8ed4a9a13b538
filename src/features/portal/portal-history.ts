/**
 * The address bar for the portal's own entry (portal-app.tsx): its two pages move between each
 * other (the gate to the project after a correct password, the project back to the gate when the
 * session ends), always replacing the entry, as the app's router did. Every address is resolved
 * before it shows: a project's page without a live session for it becomes its gate.
 */
import { matchPortalPage, portalPageRedirect, type PortalPage } from './portal-location.ts';
import { readPortalSession } from './portal-session.ts';

export interface PortalHistory {
  /** The page at the current address (null: no portal page). */
  page: () => PortalPage | null;
  /** Changes whenever the address does (useSyncExternalStore's snapshot). */
  href: () => string;
  subscribe: (listener: () => void) => () => void;
  /** Goes to a path of the portal, replacing the current entry. */
  replace: (path: string) => void;
}

export interface PortalHistoryEnvironment {
  location: Pick<Location, 'pathname' | 'search' | 'href'>;
  history: Pick<History, 'replaceState' | 'state'>;
  events: Pick<Window, 'addEventListener' | 'removeEventListener'>;
  storage: Pick<Storage, 'getItem'> | undefined;
  now: () => number;
  scrollTo?: (x: number, y: number) => void;
}

export function createPortalHistory(env: PortalHistoryEnvironment): PortalHistory {
  const listeners = new Set<() => void>();
  let page: PortalPage | null = null;

  const resolve = () => {
    page = matchPortalPage(env.location);
    // One redirect at most: the gate never redirects.
    const target = page
      ? portalPageRedirect(page, readPortalSession(env.storage), env.now())
      : null;
    if (target !== null) {
      env.history.replaceState(env.history.state, '', target);
      page = matchPortalPage(env.location);
    }
  };
  const notify = () => {
    for (const listener of [...listeners]) listener();
  };
  resolve();

  const onPopState = () => {
    resolve();
    notify();
  };

  return {
    page: () => page,
    href: () => env.location.href,
    subscribe: (listener) => {
      if (listeners.size === 0) env.events.addEventListener('popstate', onPopState);
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) env.events.removeEventListener('popstate', onPopState);
      };
    },
    replace: (path) => {
      env.history.replaceState(null, '', path);
      resolve();
      env.scrollTo?.(0, 0);
      notify();
    },
  };
}
