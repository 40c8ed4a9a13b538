/**
 * The client portal's two pages as the portal's own entry (portal-app.tsx) reads them from the
 * address bar, without the app's router: the password gate (/client-access?projectId&clientId&
 * redirect) and a project's page (/client/{clientId}/project/{projectId}). The rules are the app
 * routes' (src/routes/_portal/...): search values are plain strings (a repeated or overlong one is
 * as good as missing), path ids are trimmed, non-empty and at most 128 characters.
 */
import { portalPath } from '#contract/endpoints/client-portal.ts';
import { portalRedirect, type PortalSession } from './portal-session.ts';

export type PortalPage =
  | {
      page: 'access';
      projectId: string | undefined;
      clientId: string | undefined;
      redirect: string | undefined;
    }
  | { page: 'project'; clientId: string; projectId: string };

const projectPathPattern = /^\/client\/([^/]+)\/project\/([^/]+)\/?$/i;
const MAX_SEARCH_LENGTH = 2048;
const MAX_ID_LENGTH = 128;

function searchValue(params: URLSearchParams, key: string): string | undefined {
  const values = params.getAll(key);
  return values.length === 1 && values[0]!.length <= MAX_SEARCH_LENGTH ? values[0] : undefined;
}

function pathId(segment: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(segment).trim();
  } catch {
    return null;
  }
  return decoded !== '' && decoded.length <= MAX_ID_LENGTH ? decoded : null;
}

/** The portal page at this address, or null for any other path (the app's not-found page). */
export function matchPortalPage(location: { pathname: string; search: string }): PortalPage | null {
  const pathname = location.pathname.replace(/\/+$/, '') || '/';
  if (pathname.toLowerCase() === '/client-access') {
    const params = new URLSearchParams(location.search);
    return {
      page: 'access',
      projectId: searchValue(params, 'projectId'),
      clientId: searchValue(params, 'clientId'),
      redirect: searchValue(params, 'redirect'),
    };
  }
  const match = projectPathPattern.exec(pathname);
  if (!match) return null;
  const clientId = pathId(match[1]!);
  const projectId = pathId(match[2]!);
  if (clientId === null || projectId === null) return null;
  return { page: 'project', clientId, projectId };
}

/** The gate's address for a project's page, as the app's router writes it. */
export function accessPath(clientId: string, projectId: string): string {
  const search = new URLSearchParams({
    projectId,
    clientId,
    redirect: portalPath(clientId, projectId),
  });
  return `/client-access?${search.toString()}`;
}

/**
 * Where a project's page sends the visitor before it shows: null to stay, else the gate (no live
 * session for this project and client, spec section 4).
 */
export function portalPageRedirect(
  page: PortalPage,
  session: PortalSession | null,
  now: number,
): string | null {
  if (page.page !== 'project') return null;
  const target = portalRedirect(session, page, now, portalPath(page.clientId, page.projectId));
  return target === null ? null : accessPath(page.clientId, page.projectId);
}
