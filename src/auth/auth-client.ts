import type { SupabaseClient } from '@supabase/supabase-js';
import type { AuthLog } from './auth-log.ts';
import type { RegistrationResult } from './registration.ts';

/** The supabase-js auth client (`supabase.auth`). Type-only here, so no screen bundles the library. */
export type SupabaseAuth = SupabaseClient['auth'];

/**
 * The part of supabase-js auth the app uses. Screens and tests depend on this subset only, so a
 * fake needs to implement just what a test exercises.
 */
export type AuthClient = Pick<
  SupabaseAuth,
  | 'onAuthStateChange'
  | 'getSession'
  | 'getUser'
  | 'signInWithPassword'
  | 'signInWithOAuth'
  | 'signUp'
  | 'signOut'
  | 'resend'
  | 'resetPasswordForEmail'
  | 'updateUser'
  | 'getUserIdentities'
  | 'linkIdentity'
  | 'unlinkIdentity'
  | 'mfa'
  | 'reauthenticate'
>;

/**
 * What auth screens need besides the session state, created once at boot (src/app/mount-app.tsx)
 * from the server's public config. Null when the server has no sign-in configured.
 */
export interface AuthServices {
  client: AuthClient;
  /** The server offers "Continue with Google". */
  googleEnabled: boolean;
  /** hCaptcha site key when the auth service wants a captcha token on password recovery. */
  captchaSiteKey: string | null;
  /** Seconds to wait after the last 429 answer from the auth service (its Retry-After), or null. */
  retryAfterSeconds: () => number | null;
  /** Absolute URL on this origin for auth redirects (email links, Google). */
  redirectUrl: (pathAndQuery: string) => string;
  /**
   * Makes sure the signed-in user has a profile and a workspace (register-user, once per user per
   * browser session). Rejects (already logged) when the call failed or nobody is signed in.
   */
  ensureRegistered: () => Promise<RegistrationResult>;
  log: AuthLog;
}
