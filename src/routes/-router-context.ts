import type { AuthState } from '../auth/auth-controller.ts';

/** What every route's `beforeLoad` can read. The app passes the current auth state on each change. */
export interface RouterContext {
  auth: AuthState;
}
