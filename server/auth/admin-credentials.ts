/**
 * Who may call the admin API (GoTrue's requireAdminCredentials): a bearer JWT whose `role` is an
 * admin role (service_role, supabase_admin: GoTrue's JWT_ADMIN_ROLES default).
 *
 * Two kinds of token qualify:
 * - the service-role key, signed by this service's own key and made by
 *   `node scripts/auth-service-role-key.mjs`; it is accepted only while the SHA-256 of the exact
 *   token is a non-revoked row of auth_service_role_key, so making a new key retires the old one;
 * - a token signed by one of the operator's own public keys (AUTH_ADMIN_JWT_KEYS), for keys kept
 *   outside this server (the auth-js test suite signs its own); it must carry `exp`.
 *
 * Neither is ever a user: /api and the user routes require audience `authenticated` and a
 * session, which these tokens do not have.
 */
import { randomUUID } from 'node:crypto';
import type { Context } from 'hono';
import {
  createLocalJWKSet,
  decodeProtectedHeader,
  errors,
  jwtVerify,
  SignJWT,
  type JWK,
  type JWTPayload,
  type JWTVerifyGetKey,
} from 'jose';
import type { Database, Queryable } from '../db/database.ts';
import type { AppEnv } from '../http/app-env.ts';
import { bearerToken } from './auth-context.ts';
import { sha256Hex } from './auth-crypto.ts';
import { forbidden } from './auth-error.ts';
import type { SigningKeyRing } from './signing-keys.ts';

export const ADMIN_ROLES = ['service_role', 'supabase_admin'];

const SERVICE_ROLE_KEY_LIFETIME_SECONDS = 10 * 365 * 24 * 3600;

export interface AdminCredentials {
  /** GoTrue requireAdminCredentials: 401 no_authorization, 403 bad_jwt or 403 not_admin. */
  requireAdmin(c: Context<AppEnv>): Promise<{ role: string }>;
  /** For the apikey gate: the string is a currently valid admin token. */
  isAdminKey(key: string): Promise<boolean>;
}

class BadAdminToken extends Error {}

export function createAdminCredentials(options: {
  db: Database;
  keys: SigningKeyRing;
  issuer: string;
  now: () => Date;
  /** Public JWKs whose admin-role tokens are accepted (AUTH_ADMIN_JWT_KEYS). */
  trustedKeys: readonly JWK[];
}): AdminCredentials {
  const own = createLocalJWKSet(options.keys.jwks);
  const trusted =
    options.trustedKeys.length > 0
      ? createLocalJWKSet({ keys: options.trustedKeys.map(publicPart) })
      : null;

  const ownKids = new Set(options.keys.jwks.keys.map((key) => key.kid));

  async function verify(token: string): Promise<JWTPayload> {
    const common = { requiredClaims: ['exp'], currentDate: options.now() };
    const { kid } = decodeProtectedHeader(token);
    if (trusted && !(kid && ownKids.has(kid))) {
      const { payload } = await jwtVerify(token, trusted as JWTVerifyGetKey, {
        ...common,
        algorithms: ['RS256', 'ES256'],
      });
      return payload;
    }
    const { payload } = await jwtVerify(token, own, {
      ...common,
      algorithms: ['ES256'],
      issuer: options.issuer,
    });
    if (payload.role === 'service_role' && !(await isCurrentServiceKey(options.db, token))) {
      throw new BadAdminToken('the service-role key was revoked or never issued');
    }
    return payload;
  }

  async function adminPayload(token: string): Promise<JWTPayload> {
    let payload: JWTPayload;
    try {
      payload = await verify(token);
    } catch (error) {
      const reason =
        error instanceof errors.JWTExpired
          ? 'token has expired'
          : error instanceof BadAdminToken
            ? error.message
            : error instanceof errors.JOSEError
              ? error.message
              : 'token is malformed';
      throw forbidden('bad_jwt', `invalid JWT: unable to parse or verify signature, ${reason}`);
    }
    if (typeof payload.role !== 'string' || !ADMIN_ROLES.includes(payload.role)) {
      throw forbidden('not_admin', 'User not allowed');
    }
    return payload;
  }

  return {
    async requireAdmin(c) {
      const payload = await adminPayload(bearerToken(c));
      return { role: String(payload.role) };
    },
    async isAdminKey(key) {
      try {
        await adminPayload(key);
        return true;
      } catch {
        return false;
      }
    },
  };
}

async function isCurrentServiceKey(db: Queryable, token: string): Promise<boolean> {
  const { rows } = await db.query(
    'SELECT 1 FROM auth_service_role_key WHERE key_hash = $1 AND revoked_at IS NULL',
    [sha256Hex(token)],
  );
  return rows.length > 0;
}

/** Only the public members of a JWK: a private key given by mistake is never used to sign. */
function publicPart(jwk: JWK): JWK {
  const { kty, crv, x, y, n, e, kid, alg } = jwk;
  return Object.fromEntries(
    Object.entries({ kty, crv, x, y, n, e, kid, alg }).filter(([, value]) => value !== undefined),
  );
}

/**
 * Makes a service-role key with the current signing key and records its hash; unless `keep`,
 * the keys made before are revoked in the same transaction. The key is returned once, never
 * stored.
 */
export async function createServiceRoleKey(
  db: Database,
  keys: SigningKeyRing,
  options: { issuer: string; now: Date; keep?: boolean },
): Promise<string> {
  const iat = Math.floor(options.now.getTime() / 1000);
  const key = await new SignJWT({ role: 'service_role' })
    .setProtectedHeader({ alg: 'ES256', kid: keys.kid, typ: 'JWT' })
    .setIssuer(options.issuer)
    .setIssuedAt(iat)
    .setExpirationTime(iat + SERVICE_ROLE_KEY_LIFETIME_SECONDS)
    .setJti(randomUUID())
    .sign(keys.privateKey);
  await db.transaction(async (tx) => {
    if (!options.keep) {
      await tx.query('UPDATE auth_service_role_key SET revoked_at = $1 WHERE revoked_at IS NULL', [
        options.now,
      ]);
    }
    await tx.query(
      `INSERT INTO auth_service_role_key (id, key_hash, kid, created_at) VALUES ($1, $2, $3, $4)`,
      [randomUUID(), sha256Hex(key), keys.kid, options.now],
    );
  });
  return key;
}

/** Revokes every service-role key (none is accepted afterwards); returns how many were live. */
export async function revokeServiceRoleKeys(db: Database, now: Date): Promise<number> {
  const { rowCount } = await db.query(
    'UPDATE auth_service_role_key SET revoked_at = $1 WHERE revoked_at IS NULL',
    [now],
  );
  return rowCount;
}
