import type { CallEndpoint } from '#contract/define-endpoint.ts';
import type { AuthState } from '../auth/auth-controller.ts';

/** What every route's `beforeLoad` and component can read. */
export interface RouterContext {
  /** The current auth state; the app passes it again on each change. */
  auth: AuthState;
  /**
   * Direct API calls, for what is not synced data (public forms, sign-up registration).
   * Synced entities are written through the outbox instead.
   */
  api: { callEndpoint: CallEndpoint };
}
