import type { AuthState } from './auth-controller.ts';
import { safeReturnTo } from './safe-return-to.ts';

/**
 * Guest-only pages (/login, /signup ...): a signed-in user goes to `returnTo` when it is a safe
 * same-origin path, else /dashboard. Returns the target, or null to stay. While auth is loading
 * nobody is redirected; the layout shows a spinner and the guard runs again once it resolves.
 */
export function guestOnlyRedirect(
  auth: AuthState,
  search: { returnTo?: string | undefined },
): string | null {
  return auth.status === 'authenticated' ? safeReturnTo(search.returnTo) : null;
}

export interface SignedInRedirect {
  to: '/login';
  search: { returnTo: string };
}

/**
 * Signed-in pages: a signed-out visitor goes to /login with `returnTo` carrying the path and query
 * they asked for. Null to stay (signed in, or still loading).
 */
export function signedInRedirect(
  auth: AuthState,
  location: { pathname: string; searchStr: string },
): SignedInRedirect | null {
  if (auth.status !== 'unauthenticated') return null;
  return { to: '/login', search: { returnTo: `${location.pathname}${location.searchStr}` } };
}
