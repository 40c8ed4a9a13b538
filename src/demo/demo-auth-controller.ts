/**
 * The demo's auth: a fixed, signed-in visitor from the first render (no loading state: there is
 * no session to read). Signing out leaves the demo: `onLeave` clears the tab's demo mark and goes
 * to the public site, where the real app (and a real sign-in) takes over.
 */
import type { AuthController, AuthState, AuthUser } from '../auth/auth-controller.ts';
import { DEMO_USER_ID } from './demo-mode.ts';

export const demoUser: AuthUser = {
  id: DEMO_USER_ID,
  email: 'demo@satchel.example',
  displayName: 'Demo visitor',
  role: 'admin',
};

export function createDemoAuthController(options: { onLeave: () => void }): AuthController {
  const signedIn: AuthState = { status: 'authenticated', user: demoUser };
  const signedOut: AuthState = { status: 'unauthenticated' };
  let state: AuthState = signedIn;
  const listeners = new Set<() => void>();
  return {
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    signOut() {
      if (state !== signedOut) {
        state = signedOut;
        for (const listener of listeners) listener();
        options.onLeave();
      }
      return Promise.resolve();
    },
    dispose() {
      listeners.clear();
    },
  };
}
