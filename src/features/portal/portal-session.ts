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
