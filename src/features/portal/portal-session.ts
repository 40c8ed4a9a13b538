import * as v from 'valibot';

/** localStorage key of the client portal session (spec 3, 9). */
export const portalSessionStorageKey = 'client_access_session';
/** A portal session ends after 30 minutes without activity (spec 4, 9). */
export const portalInactivityLimitMs = 30 * 60 * 1000;
// A lastActivity further ahead than this is not a clock skew but a forged or corrupt value.
const maxFutureSkewMs = 60 * 1000;

export const portalSessionSchema = v.object({
  projectId: v.pipe(v.string(), v.nonEmpty()),
  clientId: v.pipe(v.string(), v.nonEmpty()),
  /** Epoch milliseconds of the visitor's last activity. */
  lastActivity: v.pipe(v.number(), v.finite()),
});
export type PortalSession = v.InferOutput<typeof portalSessionSchema>;

/** The stored session, or null when it is missing, not JSON or not the expected shape. */
export function parsePortalSession(raw: string | null): PortalSession | null {
  if (raw === null) return null;
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return null;
  }
  const result = v.safeParse(portalSessionSchema, json);
  return result.success ? result.output : null;
}

/** Reads the session from storage; unreadable storage counts as no session. */
export function readPortalSession(
  storage: Pick<Storage, 'getItem'> | undefined,
): PortalSession | null {
  try {
    return parsePortalSession(storage?.getItem(portalSessionStorageKey) ?? null);
  } catch {
    return null;
  }
}

/** Live when the last activity was less than 30 minutes before `now`. */
export function isPortalSessionActive(session: PortalSession, now: number): boolean {
  const age = now - session.lastActivity;
  return age < portalInactivityLimitMs && age > -maxFutureSkewMs;
}

export interface PortalParams {
  projectId: string;
  clientId: string;
}

export interface PortalRedirect {
  to: '/client-access';
  search: { projectId: string; clientId: string; redirect: string };
}

/**
 * The portal page needs a live session for both this project and this client; otherwise the
 * visitor goes to the password gate, which brings them back to `portalPath` afterwards.
 */
export function portalRedirect(
  session: PortalSession | null,
  params: PortalParams,
  now: number,
  portalPath: string,
): PortalRedirect | null {
  const isValid =
    session !== null &&
    session.projectId === params.projectId &&
    session.clientId === params.clientId &&
    isPortalSessionActive(session, now);
  if (isValid) return null;
  return {
    to: '/client-access',
    search: { projectId: params.projectId, clientId: params.clientId, redirect: portalPath },
  };
}

/** Minimum time between two writes of lastActivity (spec 4, 9). */
export const portalActivityThrottleMs = 30 * 1000;
/** How often an open portal page checks whether its session has expired (spec 4, 9). */
export const portalExpiryCheckMs = 60 * 1000;
/** What counts as the visitor's activity (spec 4). */
export const portalActivityEvents = [
  'mousemove',
  'keydown',
  'scroll',
  'touchstart',
  'click',
] as const;

/** Stores a session; storage that refuses (private mode, quota) only loses the restore on load. */
export function writePortalSession(
  storage: Pick<Storage, 'setItem'> | undefined,
  session: PortalSession,
): void {
  try {
    storage?.setItem(portalSessionStorageKey, JSON.stringify(session));
  } catch {
    // The page keeps working; only a reload would ask for the password again.
  }
}

export function clearPortalSession(storage: Pick<Storage, 'removeItem'> | undefined): void {
  try {
    storage?.removeItem(portalSessionStorageKey);
  } catch {
    // Nothing stored that could be read back as live.
  }
}

export interface PortalSessionWatchOptions {
  params: PortalParams;
  storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | undefined;
  /** Where activity is listened for (the window). */
  target: Pick<EventTarget, 'addEventListener' | 'removeEventListener'>;
  now: () => number;
  setInterval: (fn: () => void, ms: number) => unknown;
  clearInterval: (id: unknown) => void;
  /** The session ended (inactivity, or another tab signed out): once. */
  onExpire: () => void;
  /** The visitor was active and the session was refreshed (at most every 30 s). */
  onActivity?: () => void;
}

/**
 * Keeps an open portal page's session: activity refreshes lastActivity at most every 30 s; every
 * 60 s the stored session is checked and, when it is gone, for other ids or older than 30 minutes,
 * it is removed and `onExpire` runs. Answers the function that stops watching.
 */
export function watchPortalSession(options: PortalSessionWatchOptions): () => void {
  const { params, storage, target, now } = options;
  let lastWrite = readPortalSession(storage)?.lastActivity ?? now();
  let expired = false;

  const isOurs = (session: PortalSession | null): session is PortalSession =>
    session !== null &&
    session.projectId === params.projectId &&
    session.clientId === params.clientId &&
    isPortalSessionActive(session, now());

  const expire = () => {
    if (expired) return;
    expired = true;
    stop();
    clearPortalSession(storage);
    options.onExpire();
  };

  const onActivity = () => {
    const at = now();
    if (at - lastWrite < portalActivityThrottleMs) return;
    // Activity after the limit does not revive a session: the check decides first.
    if (!isOurs(readPortalSession(storage))) {
      expire();
      return;
    }
    lastWrite = at;
    writePortalSession(storage, { ...params, lastActivity: at });
    options.onActivity?.();
  };

  const check = () => {
    if (!isOurs(readPortalSession(storage))) expire();
  };

  for (const name of portalActivityEvents) {
    target.addEventListener(name, onActivity, { passive: true, capture: true });
  }
  const timer = options.setInterval(check, portalExpiryCheckMs);

  function stop() {
    for (const name of portalActivityEvents) {
      target.removeEventListener(name, onActivity, { capture: true });
    }
    options.clearInterval(timer);
  }
  return stop;
}
