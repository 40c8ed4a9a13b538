/**
 * Short-lived hub access tokens: what notification-connect hands out and what negotiate and the
 * WebSocket upgrade accept. An HS256 JWT with its own audience and key, so it is useless as an API
 * token and an API token is useless at the hub. The key lives in the database (one row), so every
 * process on that database and every restart accept the same tokens.
 *
 * A token names the auth session of the access token it was issued for (`sid`), when that token
 * named one: the hub refuses it once the session is signed out and closes its connections.
 */
import { randomBytes } from 'node:crypto';
import { errors, jwtVerify, SignJWT } from 'jose';
import * as v from 'valibot';
import { idSchema } from '#contract/entities/ids.ts';
import type { Queryable } from '../db/database.ts';

export const HUB_TOKEN_AUDIENCE = 'satchel-hub';
/** Long enough for a slow start (negotiate, then the WebSocket), short enough to be worthless if leaked. */
export const DEFAULT_HUB_TOKEN_TTL_SECONDS = 10 * 60;

export type HubTokenCheck =
  { ok: true; userId: string; sessionId: string | null } | { ok: false; reason: string };

export interface HubTokens {
  /**
   * A token for this user (and auth session, when known); `ttlSeconds` overrides the default
   * (tests sign expired ones).
   */
  sign(userId: string, ttlSeconds?: number, sessionId?: string): Promise<string>;
  /** Never throws: a bad token is a reason the caller reports as 401. */
  verify(token: string): Promise<HubTokenCheck>;
}

const claimsSchema = v.object({ sub: idSchema, sid: v.optional(v.string()) });

export function createHubTokens(deps: { secret: Uint8Array; ttlSeconds?: number }): HubTokens {
  const ttl = deps.ttlSeconds ?? DEFAULT_HUB_TOKEN_TTL_SECONDS;
  return {
    async sign(userId, ttlSeconds = ttl, sessionId) {
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT(sessionId === undefined ? {} : { sid: sessionId })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(userId)
        .setAudience(HUB_TOKEN_AUDIENCE)
        .setIssuedAt(now)
        .setExpirationTime(now + ttlSeconds)
        .sign(deps.secret);
    },
    async verify(token) {
      try {
        const { payload } = await jwtVerify(token, deps.secret, {
          audience: HUB_TOKEN_AUDIENCE,
          algorithms: ['HS256'],
          requiredClaims: ['exp', 'sub'],
        });
        const claims = v.safeParse(claimsSchema, payload);
        if (!claims.success) return { ok: false, reason: 'The hub token names no user.' };
        return { ok: true, userId: claims.output.sub, sessionId: claims.output.sid ?? null };
      } catch (error) {
        if (error instanceof errors.JWTExpired) {
          return {
            ok: false,
            reason: 'The hub token has expired; ask notification-connect again.',
          };
        }
        return { ok: false, reason: 'The hub token is not valid.' };
      }
    },
  };
}

/** The shared signing secret, created on first use; concurrent first starters agree on one row. */
export async function loadHubTokenSecret(db: Queryable): Promise<Uint8Array> {
  await db.query(
    'INSERT INTO realtime_signing_key (id, secret) VALUES (1, $1) ON CONFLICT (id) DO NOTHING',
    [randomBytes(32)],
  );
  const { rows } = await db.query<{ secret: Buffer }>(
    'SELECT secret FROM realtime_signing_key WHERE id = 1',
  );
  const secret = rows[0]?.secret;
  if (!secret || secret.length < 32) throw new Error('realtime_signing_key has no usable secret');
  return new Uint8Array(secret);
}
