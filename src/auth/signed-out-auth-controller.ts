import type { AuthController, AuthState } from './auth-controller.ts';

/**
 * The controller for a server without sign-in (its public config has no anon key, so there is no
 * supabase client to create): after startup the state is always `unauthenticated`. It still
 * starts in `loading` and resolves on a later task, like the real one, so guards and spinners see
 * both states.
 */
export function createSignedOutAuthController(): AuthController {
  const loading: AuthState = { status: 'loading' };
  const signedOut: AuthState = { status: 'unauthenticated' };
  let state: AuthState = loading;
  const listeners = new Set<() => void>();
  const set = (next: AuthState) => {
    if (next === state) return;
    state = next;
    for (const listener of listeners) listener();
  };
  const startup = setTimeout(() => set(signedOut), 0);

  return {
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    signOut() {
      set(signedOut);
      return Promise.resolve();
    },
    dispose() {
      clearTimeout(startup);
      listeners.clear();
    },
  };
}
