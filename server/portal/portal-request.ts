/**
 * The checks every request riding on a portal cookie gets, wherever it is served (the `/api`
 * dispatcher and the portal's uploads): another site's page must not be able to make the browser
 * send it, and the cookie must open a live session.
 */
import { AppError, ErrorCode } from '../http/app-error.ts';
import type { Queryable } from '../db/database.ts';
import { findPortalSession, portalCookieToken, type PortalIdentity } from './portal-sessions.ts';

export const PORTAL_SESSION_ENDED =
  "Your portal session has ended. Enter the project's password again to continue.";

/**
 * Refuses a mutation from another site. The cookie is SameSite=Strict, and on top a mutation
 * whose Origin (or Sec-Fetch-Site) names another site is refused. A caller that sends neither is
 * not a browser and carries no victim's cookie.
 */
export function refuseCrossSite(
  method: string,
  headers: { get(name: string): string | null | undefined },
  requestUrl: string,
  publicUrl: string,
): void {
  if (method === 'GET' || method === 'HEAD') return;
  const fetchSite = headers.get('sec-fetch-site') ?? undefined;
  const origin = headers.get('origin') ?? undefined;
  const allowed = new Set([new URL(requestUrl).origin, new URL(publicUrl).origin]);
  const crossSite =
    (fetchSite !== undefined && fetchSite !== 'same-origin' && fetchSite !== 'none') ||
    (origin !== undefined && !allowed.has(origin));
  if (crossSite) {
    throw new AppError(
      ErrorCode.FORBIDDEN,
      'Portal requests are only accepted from the portal page itself.',
    );
  }
}

/** The session the request's cookie opens; a 401 saying the session ended otherwise. */
export async function requirePortalSession(
  db: Queryable,
  cookieHeader: string | null | undefined,
): Promise<PortalIdentity> {
  const token = portalCookieToken(cookieHeader ?? undefined);
  const portal = token === null ? null : await findPortalSession(db, token);
  if (!portal) throw new AppError(ErrorCode.UNAUTHORIZED, PORTAL_SESSION_ENDED);
  return portal;
}
