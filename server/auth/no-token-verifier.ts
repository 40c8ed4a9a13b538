import { AppError, ErrorCode } from '../http/app-error.ts';
import type { VerifyAccessToken } from './identity.ts';

/**
 * The verifier used until the embedded auth service exists (accounts issue): no token can be
 * valid yet, so every bearer token is refused with the contract's 401.
 */
export const verifyNoTokens: VerifyAccessToken = () =>
  Promise.reject(
    new AppError(ErrorCode.UNAUTHORIZED, 'Invalid JWT: this server has no sign-in configured yet.'),
  );
