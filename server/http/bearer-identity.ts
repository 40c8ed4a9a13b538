/**
 * The caller's identity from an `Authorization: Bearer <token>` header, for routes outside the
 * `/api` dispatcher (file uploads). Same rules as the dispatcher: no header or a malformed one is
 * a 401, and a session that still owes its second factor reaches no workspace data.
 */
import type { Identity, VerifyAccessToken } from '../auth/identity.ts';
import { AppError, ErrorCode } from './app-error.ts';

export const SECOND_FACTOR_PENDING_MESSAGE =
  'Complete two-factor sign-in first: this account has a second factor and this session has not verified it.';

/** The token in the header, or null when there is no header; a malformed header throws 401. */
export function bearerToken(header: string | null | undefined): string | null {
  if (header === undefined || header === null) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match?.[1]) {
    throw new AppError(
      ErrorCode.UNAUTHORIZED,
      'The Authorization header must be "Bearer <token>".',
    );
  }
  return match[1];
}

/** A verified user with full assurance; throws 401 or 403 (AppError) otherwise. */
export async function requireBearerIdentity(
  header: string | null | undefined,
  verifyAccessToken: VerifyAccessToken,
): Promise<Identity> {
  const token = bearerToken(header);
  if (token === null) {
    throw new AppError(ErrorCode.UNAUTHORIZED, 'Sign in to continue: no bearer token was sent.');
  }
  const identity = await verifyAccessToken(token);
  if (identity.secondFactorPending) {
    throw new AppError(ErrorCode.FORBIDDEN, SECOND_FACTOR_PENDING_MESSAGE);
  }
  return identity;
}
