export interface AuthUser {
  id: string;
  email: string;
  displayName: string;
  /** From the session's metadata; `admin` when absent (spec 3). */
  role: string;
}

export type AuthState =
  | { status: 'loading' }
  | {
      status: 'authenticated';
      user: AuthUser;
      /**
       * Signed in by a password-reset link (supabase-js `PASSWORD_RECOVERY`): the user may stay on
       * the guest-only /reset-password page to choose a new password. Cleared once they do.
       */
      passwordRecovery?: boolean;
    }
  | {
      status: 'unauthenticated';
      /**
       * The password (or link) was accepted but the account has a verified second factor and the
       * session is still `aal1`: /login shows the code step. Signed-in pages stay closed until then.
       */
      pendingMfa?: boolean;
    };

/**
 * The seam between the UI and whatever keeps the session (supabase-js in the accounts work).
 * States: `loading` until the stored session has been read, then `authenticated` or
 * `unauthenticated`, changing as the user signs in or out or the session expires.
 * `getState` returns the same object until the state changes (useSyncExternalStore relies on it).
 */
export interface AuthController {
  getState(): AuthState;
  subscribe(listener: () => void): () => void;
  signOut(): Promise<void>;
  dispose(): void;
}
