import type { AuthChangeEvent, Session } from '@supabase/supabase-js';
import type { AuthClient } from './auth-client.ts';
import type { AuthController, AuthState } from './auth-controller.ts';
import { createAuthLog, type AuthLog } from './auth-log.ts';
import {
  isValidSession,
  needsSecondFactor,
  toSessionUser,
  type SessionUser,
} from './auth-session.ts';

export interface SupabaseAuthController extends AuthController {
  /** The supabase session behind the state (also while the second factor is pending), or null. */
  getSession(): Session | null;
}

export interface SupabaseAuthControllerOptions {
  client: Pick<AuthClient, 'onAuthStateChange' | 'signOut'>;
  log?: AuthLog;
  /**
   * The page was opened from a password-reset link (/reset-password?code=...): the session the
   * client restores from it is a recovery session, even if `INITIAL_SESSION` arrives before
   * `PASSWORD_RECOVERY`.
   */
  recoveryLanding?: boolean;
  /** Runs `task` on a later macrotask and returns a cancel function; tests pass their own. */
  defer?: (task: () => void) => () => void;
  /**
   * How a sign-out ends the session (see `signOut`): the stored session is dropped here first,
   * then the server is told. Absent: supabase-js's own order, server first (tests of other parts).
   */
  signOutSteps?: {
    /** Removes the stored session and holds its writes until the returned release. */
    forgetStoredSession(): () => void;
    endOnServer(accessToken: string): Promise<void>;
  };
}

const loading: AuthState = { status: 'loading' };
const signedOut: AuthState = { status: 'unauthenticated' };
const pendingMfa: AuthState = { status: 'unauthenticated', pendingMfa: true };

const deferToNextTask = (task: () => void) => {
  const timer = setTimeout(task, 0);
  return () => clearTimeout(timer);
};

function sameUser(a: SessionUser, b: SessionUser): boolean {
  return (
    a.id === b.id &&
    a.email === b.email &&
    a.displayName === b.displayName &&
    a.role === b.role &&
    a.accessToken === b.accessToken
  );
}

function sameState(a: AuthState, b: AuthState): boolean {
  if (a.status !== b.status) return false;
  if (a.status === 'unauthenticated' && b.status === 'unauthenticated') {
    return (a.pendingMfa ?? false) === (b.pendingMfa ?? false);
  }
  if (a.status === 'authenticated' && b.status === 'authenticated') {
    return (
      (a.passwordRecovery ?? false) === (b.passwordRecovery ?? false) &&
      sameUser(a.user as SessionUser, b.user as SessionUser)
    );
  }
  return true;
}

/**
 * The real auth state over supabase-js (spec 4): `loading` until the client has read the stored
 * session or the one in the URL, then `authenticated` or `unauthenticated`, following the
 * client's events: INITIAL_SESSION, SIGNED_IN, SIGNED_OUT, TOKEN_REFRESHED, USER_UPDATED,
 * MFA_CHALLENGE_VERIFIED and PASSWORD_RECOVERY. Token refresh itself is supabase-js's job
 * (`autoRefreshToken`: near expiry and when the tab becomes visible); each refresh arrives here as
 * TOKEN_REFRESHED and updates the user's access token.
 *
 * A session whose account has a verified second factor but which is still `aal1` is not signed
 * in yet: the state is `unauthenticated` with `pendingMfa`, so guards keep signed-in pages closed
 * and /login shows the code step.
 */
export function createSupabaseAuthController(
  options: SupabaseAuthControllerOptions,
): SupabaseAuthController {
  const { client } = options;
  const log = options.log ?? createAuthLog();
  const defer = options.defer ?? deferToNextTask;
  const listeners = new Set<() => void>();
  let state: AuthState = loading;
  let session: Session | null = null;
  let recovery = false;
  let recoveryLanding = options.recoveryLanding ?? false;
  let eventCount = 0;
  let cancelDeferred: (() => void) | null = null;

  const publish = (next: AuthState) => {
    if (sameState(state, next)) return;
    state = next;
    for (const listener of listeners) listener();
  };

  const apply = (next: Session | null) => {
    session = isValidSession(next) ? next : null;
    if (!session) {
      recovery = false;
      publish(signedOut);
      return;
    }
    if (needsSecondFactor(session)) {
      publish(pendingMfa);
      return;
    }
    const user = toSessionUser(session);
    publish(
      recovery
        ? { status: 'authenticated', user, passwordRecovery: true }
        : { status: 'authenticated', user },
    );
  };

  const handle = (event: AuthChangeEvent, next: Session | null) => {
    eventCount += 1;
    switch (event) {
      case 'INITIAL_SESSION': {
        if (recoveryLanding && isValidSession(next)) recovery = true;
        recoveryLanding = false;
        // supabase-js queues PASSWORD_RECOVERY (or SIGNED_IN) for a session found in the URL on a
        // timer, after INITIAL_SESSION. Publishing one task later lets that event land first, so a
        // recovering user is never bounced off /reset-password by a momentary plain sign-in.
        const seen = eventCount;
        cancelDeferred?.();
        cancelDeferred = defer(() => {
          cancelDeferred = null;
          if (eventCount === seen) apply(next);
        });
        return;
      }
      case 'PASSWORD_RECOVERY':
        recovery = true;
        break;
      case 'USER_UPDATED':
        // The recovering user has chosen a new password (or changed something else: either way
        // the recovery page has done its job).
        recovery = false;
        break;
      case 'SIGNED_IN':
        // supabase-js also reports SIGNED_IN when a tab regains focus; only another user ends
        // a recovery.
        if (session && next && next.user.id !== session.user.id) recovery = false;
        break;
      default:
        break;
    }
    apply(next);
  };

  const {
    data: { subscription },
  } = client.onAuthStateChange((event, next) => {
    // supabase-js logs and rethrows a callback's exception: keep it here, with our context.
    try {
      handle(event, next);
    } catch (error) {
      log.error(`Could not apply the auth event ${event}`, error);
    }
  });

  return {
    getState: () => state,
    getSession: () => session,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async signOut() {
      // `local`: this device only (settings > security has "sign out everywhere").
      const steps = options.signOutSteps;
      const accessToken = session?.access_token ?? null;
      let release = () => {};
      if (steps) {
        // This device forgets the session first, so nothing can bring it back: not a reload, not
        // a tab opened meanwhile, not a sign-out made offline (supabase-js removes its stored copy
        // only once the server has answered, and keeps it when the server cannot be reached).
        try {
          release = steps.forgetStoredSession();
        } catch (error) {
          log.warn('Could not remove the stored session', error);
        }
      }
      try {
        // With nothing stored, supabase-js calls no server: it clears its state and tells the
        // app's other tabs (SIGNED_OUT). It runs after its work under way (a refresh), whose
        // save of the session is held. Without the steps it asks the server first.
        const { error } = await client.signOut({ scope: 'local' });
        if (error) log.warn('The server did not confirm the sign-out', error.message);
      } catch (error) {
        log.warn('The server did not confirm the sign-out', error);
      } finally {
        release();
      }
      session = null;
      recovery = false;
      publish(signedOut);
      if (!steps || !accessToken) return;
      // Then the server, a task later: by then the signed-in screens have stopped their hub and
      // sync, so no request of theirs meets the ended session. Offline, it is told later.
      await new Promise<void>((resolve) => defer(resolve));
      await steps.endOnServer(accessToken);
    },
    dispose() {
      cancelDeferred?.();
      subscription.unsubscribe();
      listeners.clear();
    },
  };
}
