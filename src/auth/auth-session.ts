import type { Session, User } from '@supabase/supabase-js';
import type { AuthUser } from './auth-controller.ts';

/** The signed-in user as spec section 3 describes it: the app's user plus the access token. */
export interface SessionUser extends AuthUser {
  accessToken: string;
}

/**
 * Spec 5: a session counts only with an access token, a refresh token and an expiry. supabase-js
 * checks the same before saving one; this guards against a corrupt stored value.
 */
export function isValidSession(session: Session | null | undefined): session is Session {
  return (
    !!session &&
    typeof session.access_token === 'string' &&
    session.access_token.length > 0 &&
    typeof session.refresh_token === 'string' &&
    session.refresh_token.length > 0 &&
    typeof session.expires_at === 'number' &&
    session.expires_at > 0 &&
    !!session.user &&
    typeof session.user.id === 'string'
  );
}

/** The JWT payload, unverified: only used to read `aal` (as supabase-js itself does) and `exp`. */
export function decodeJwtPayload(token: string): Record<string, unknown> {
  const part = token.split('.')[1];
  if (!part) return {};
  try {
    const base64 = part.replace(/-/g, '+').replace(/_/g, '/');
    const padded = base64 + '='.repeat((4 - (base64.length % 4)) % 4);
    const bytes = Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
    const payload: unknown = JSON.parse(new TextDecoder().decode(bytes));
    return typeof payload === 'object' && payload !== null
      ? (payload as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

export interface Assurance {
  currentLevel: string | null;
  nextLevel: string | null;
}

/**
 * Same rule as supabase-js `mfa.getAuthenticatorAssuranceLevel()` (protocols.md A4.13): the
 * current level is the token's `aal`; the next is `aal2` when the user has a verified factor.
 * Computed from the session in hand because the auth-state callback must not call back into
 * supabase-js (its calls wait for the callback to finish).
 */
export function assuranceOf(session: Session): Assurance {
  const aal = decodeJwtPayload(session.access_token)['aal'];
  const currentLevel = typeof aal === 'string' ? aal : null;
  const hasVerifiedFactor = (session.user.factors ?? []).some(
    (factor) => factor.status === 'verified',
  );
  return { currentLevel, nextLevel: hasVerifiedFactor ? 'aal2' : currentLevel };
}

/** True while the second factor is still owed: the session must not open signed-in pages. */
export function needsSecondFactor(session: Session): boolean {
  const { currentLevel, nextLevel } = assuranceOf(session);
  return nextLevel === 'aal2' && currentLevel !== 'aal2';
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

/** Spec 3: display name from `display_name` metadata (Google accounts carry `full_name`). */
export function displayNameOf(user: User): string {
  const meta = user.user_metadata as Record<string, unknown> | undefined;
  return text(meta?.['display_name']) ?? text(meta?.['full_name']) ?? text(meta?.['name']) ?? '';
}

/**
 * Spec 3 and 6: the role from app metadata (set by the server), else user metadata, else `admin`.
 * It only shapes the UI; the server decides what a role may do.
 */
export function roleOf(user: User): string {
  const app = user.app_metadata as Record<string, unknown> | undefined;
  const meta = user.user_metadata as Record<string, unknown> | undefined;
  return text(app?.['role']) ?? text(meta?.['role']) ?? 'admin';
}

export function toSessionUser(session: Session): SessionUser {
  return {
    id: session.user.id,
    email: session.user.email ?? '',
    displayName: displayNameOf(session.user),
    role: roleOf(session.user),
    accessToken: session.access_token,
  };
}
