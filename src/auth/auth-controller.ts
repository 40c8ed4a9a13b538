export interface AuthUser {
  id: string;
  email: string;
  displayName: string;
  /** From the session's metadata; `admin` when absent (spec 3). */
  role: string;
}

export type AuthState =
  | { status: 'loading' }
  | { status: 'authenticated'; user: AuthUser }
  | { status: 'unauthenticated' };

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
