/**
 * Who is calling, as proven by a verified bearer token. Never built from ids a client sends.
 */
export interface Identity {
  userId: string;
  email: string | null;
  role: string;
}

/** Verifies an access token; throws AppError UNAUTHORIZED when it is not acceptable. */
export type VerifyAccessToken = (token: string) => Promise<Identity>;
