import type { AuthState } from './auth-controller.ts';
import { safeReturnTo } from './safe-return-to.ts';

/** The guest-only page a password-reset link opens. */
export const resetPasswordPath = '/reset-password';

/**
 * Guest-only pages (/login, /signup ...): a signed-in user goes to `returnTo` when it is a safe
 * same-origin path, else /dashboard. Returns the target, or null to stay. While auth is loading
 * nobody is redirected; the layout shows a spinner and the guard runs again once it resolves.
 *
 * One exception: the password-reset link signs the user in (supabase-js PASSWORD_RECOVERY) before
 * they have chosen a new password, so a recovering user may stay on /reset-password, the one
 * page that lets them do it. Once the password is changed the recovery flag clears and this
 * guard sends them on like any signed-in user.
 */
export function guestOnlyRedirect(
  auth: AuthState,
  search: { returnTo?: string | undefined },
  pathname?: string,
): string | null {
  if (auth.status !== 'authenticated') return null;
  if (auth.passwordRecovery && pathname === resetPasswordPath) return null;
  return safeReturnTo(search.returnTo);
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
