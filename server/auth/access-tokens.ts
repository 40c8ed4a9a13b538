/**
 * Access tokens: ES256 JWTs with GoTrue's claims (protocols.md A3.5), and their verification
 * against a JWKS. The same verification core serves the embedded service (local key set) and
 * hosted mode (remote JWKS, see hosted-auth.ts); callers map its failure kinds to their own error
 * shape (/api: AppError UNAUTHORIZED; /auth/v1: 403 bad_jwt).
 */
import {
  errors,
  jwtVerify,
  SignJWT,
  type CryptoKey,
  type JWTVerifyGetKey,
  type JWSHeaderParameters,
  type FlattenedJWSInput,
} from 'jose';
import * as v from 'valibot';
import { AppError, ErrorCode } from '../http/app-error.ts';
import type { Identity, VerifyAccessToken } from './identity.ts';

export const AUDIENCE = 'authenticated';

export interface AmrEntry {
  method: string;
  timestamp: number;
  provider?: string | undefined;
}

export interface AccessTokenInput {
  userId: string;
  email: string;
  appMetadata: Record<string, unknown>;
  userMetadata: Record<string, unknown>;
  sessionId: string;
  aal: 'aal1' | 'aal2';
  amr: AmrEntry[];
}

export interface AccessTokenSigner {
  sign(input: AccessTokenInput): Promise<{ token: string; expiresIn: number; expiresAt: number }>;
}

export function createAccessTokenSigner(options: {
  privateKey: CryptoKey;
  kid: string;
  issuer: string;
  expirySeconds: number;
  now: () => Date;
}): AccessTokenSigner {
  return {
    async sign(input) {
      const iat = Math.floor(options.now().getTime() / 1000);
      const expiresAt = iat + options.expirySeconds;
      // `aud` as a plain string, not an array (GoTrue: MarshalSingleStringAsArray = false).
      const token = await new SignJWT({
        email: input.email,
        phone: '',
        app_metadata: input.appMetadata,
        user_metadata: input.userMetadata,
        role: 'authenticated',
        aal: input.aal,
        amr: input.amr,
        session_id: input.sessionId,
        is_anonymous: false,
      })
        .setProtectedHeader({ alg: 'ES256', kid: options.kid, typ: 'JWT' })
        .setIssuer(options.issuer)
        .setSubject(input.userId)
        .setAudience(AUDIENCE)
        .setIssuedAt(iat)
        .setExpirationTime(expiresAt)
        .sign(options.privateKey);
      return { token, expiresIn: options.expirySeconds, expiresAt };
    },
  };
}

const claimsSchema = v.looseObject({
  sub: v.pipe(v.string(), v.minLength(1)),
  email: v.optional(v.string()),
  role: v.optional(v.string()),
  session_id: v.optional(v.string()),
  aal: v.optional(v.picklist(['aal1', 'aal2', 'aal3'])),
  amr: v.optional(v.array(v.looseObject({ method: v.string(), timestamp: v.number() }))),
});
export type VerifiedClaims = v.InferOutput<typeof claimsSchema>;

export type TokenFailure = 'expired' | 'signature' | 'invalid';

export class TokenVerificationError extends Error {
  readonly kind: TokenFailure;
  constructor(kind: TokenFailure, message: string) {
    super(message);
    this.name = 'TokenVerificationError';
    this.kind = kind;
  }
}

type KeySource =
  JWTVerifyGetKey | ((header: JWSHeaderParameters, token: FlattenedJWSInput) => Promise<CryptoKey>);

/**
 * Verifies signature (ES256/RS256 only: never `none` or HS*, which would invite algorithm
 * confusion), expiry, audience `authenticated` and issuer. Throws TokenVerificationError.
 */
export async function verifyJwt(
  token: string,
  keys: KeySource,
  options: {
    issuer: string;
    now?: () => Date;
    /** Seconds past `exp` still accepted (only for ending the token's own session). */
    expiredGraceSeconds?: number;
  },
): Promise<VerifiedClaims> {
  try {
    const { payload } = await jwtVerify(token, keys as JWTVerifyGetKey, {
      algorithms: ['ES256', 'RS256'],
      audience: AUDIENCE,
      issuer: options.issuer,
      requiredClaims: ['exp', 'sub'],
      ...(options.expiredGraceSeconds ? { clockTolerance: options.expiredGraceSeconds } : {}),
      ...(options.now ? { currentDate: options.now() } : {}),
    });
    const parsed = v.safeParse(claimsSchema, payload);
    if (!parsed.success)
      throw new TokenVerificationError('invalid', 'Invalid JWT: malformed claims');
    return parsed.output;
  } catch (error) {
    throw classify(error);
  }
}

function classify(error: unknown): TokenVerificationError {
  if (error instanceof TokenVerificationError) return error;
  if (error instanceof errors.JWTExpired) {
    return new TokenVerificationError('expired', 'Invalid JWT: token has expired');
  }
  // A key we do not have is, to us, a signature we cannot verify: foreign-signed.
  if (
    error instanceof errors.JWSSignatureVerificationFailed ||
    error instanceof errors.JWKSNoMatchingKey ||
    error instanceof errors.JOSEAlgNotAllowed
  ) {
    return new TokenVerificationError('signature', 'Invalid JWT signature');
  }
  if (error instanceof errors.JWTClaimValidationFailed) {
    return new TokenVerificationError('invalid', `Invalid JWT: ${error.claim} claim is not valid`);
  }
  if (error instanceof errors.JWKSTimeout || error instanceof errors.JWKSInvalid) {
    // The key server did not answer properly: not the caller's fault, but still no identity.
    return new TokenVerificationError('invalid', 'Invalid JWT: signing keys are unavailable');
  }
  return new TokenVerificationError('invalid', 'Invalid JWT: unable to parse the token');
}

export function identityFromClaims(claims: VerifiedClaims): Identity {
  return {
    userId: claims.sub,
    email: claims.email ? claims.email : null,
    role: claims.role ?? AUDIENCE,
    ...(claims.session_id ? { sessionId: claims.session_id } : {}),
    ...(claims.aal ? { aal: claims.aal } : {}),
  };
}

/** The /api side: any failure is the contract's 401 UNAUTHORIZED, with the reason as message. */
export function createJwksVerifier(
  keys: KeySource,
  options: { issuer: string; now?: () => Date },
): VerifyAccessToken {
  return async (token) => {
    try {
      return identityFromClaims(await verifyJwt(token, keys, options));
    } catch (error) {
      if (error instanceof TokenVerificationError) {
        throw new AppError(ErrorCode.UNAUTHORIZED, error.message);
      }
      throw error;
    }
  };
}
