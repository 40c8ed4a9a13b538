/**
 * Who is calling, as proven by a verified bearer token. Never built from ids a client sends.
 */
export interface Identity {
  userId: string;
  email: string | null;
  role: string;
  /** The auth session the token belongs to (its `session_id` claim), when it names one. */
  sessionId?: string;
  /** Assurance level of that session: aal2 once a second factor was verified. */
  aal?: 'aal1' | 'aal2' | 'aal3';
  /**
   * The account has a verified second factor and this token has not proven it (aal1): the
   * dispatcher refuses user operations until the session reaches aal2 (embedded mode only).
   */
  secondFactorPending?: true;
}

/** Verifies an access token; throws AppError UNAUTHORIZED when it is not acceptable. */
export type VerifyAccessToken = (token: string) => Promise<Identity>;
