/**
 * Sessions and refresh-token rotation (GoTrue tokens/service.go), and the token response every
 * sign-in returns (protocols.md A3.1).
 *
 * Rotation: presenting the active refresh token revokes it and returns its child. A revoked token
 * presented again within the reuse window (default 10 s) returns the session's currently active
 * token: two tabs refreshing at once both stay signed in and end up with the same token. After the
 * window, a rotated token coming back means two parties hold one token family, one of them not the
 * user: the whole session is revoked and the caller gets refresh_token_already_used.
 */
import { randomUUID } from 'node:crypto';
import * as v from 'valibot';
import type { Queryable } from '../db/database.ts';
import type { AccessTokenSigner, AmrEntry } from './access-tokens.ts';
import { randomToken, seal, sha256Hex, unseal } from './auth-crypto.ts';
import { type AuthError, badRequest } from './auth-error.ts';
import {
  audit,
  loadUserJson,
  sessionRowSchema,
  type SessionRow,
  type UserRow,
} from './auth-store.ts';

export interface TokenResponse {
  access_token: string;
  token_type: 'bearer';
  expires_in: number;
  expires_at: number;
  refresh_token: string;
  user: Record<string, unknown>;
  weak_password?: { reasons: string[]; message: string };
}

export interface SessionDeps {
  signer: AccessTokenSigner;
  now: () => Date;
  reuseIntervalSeconds: number;
}

/** Revoked tokens older than this are deleted when their session rotates (keeps tables small). */
const REVOKED_TOKEN_RETENTION_MS = 24 * 3600 * 1000;

const SESSION_COLUMNS = 'id, user_id, aal, factor_id, amr, created_at';

export async function findSession(
  tx: Queryable,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<SessionRow | null> {
  const { rows } = await tx.query(
    `SELECT ${SESSION_COLUMNS} FROM auth_session WHERE id = $1${options.forUpdate ? ' FOR UPDATE' : ''}`,
    [id],
  );
  return rows[0] ? v.parse(sessionRowSchema, rows[0]) : null;
}

async function insertRefreshToken(
  tx: Queryable,
  session: { id: string; user_id: string },
  parentId: string | null,
  now: Date,
): Promise<{ id: string; token: string }> {
  const token = randomToken();
  const { rows } = await tx.query<{ id: string }>(
    `INSERT INTO auth_refresh_token (token_hash, session_id, user_id, parent_id, created_at)
     VALUES ($1, $2, $3, $4, $5) RETURNING id`,
    [sha256Hex(token), session.id, session.user_id, parentId, now],
  );
  return { id: String(rows[0]?.id), token };
}

/** Newest first, one entry per method (a repeated method refreshes its timestamp). */
export function addAmr(amr: AmrEntry[], entry: AmrEntry): AmrEntry[] {
  return [entry, ...amr.filter((existing) => existing.method !== entry.method)];
}

export async function createSession(
  tx: Queryable,
  deps: SessionDeps,
  input: {
    user: UserRow;
    method: string;
    provider?: string;
    ip: string | null;
    userAgent: string | null;
  },
): Promise<{ session: SessionRow; refreshToken: string }> {
  const now = deps.now();
  const amr: AmrEntry[] = [
    {
      method: input.method,
      timestamp: Math.floor(now.getTime() / 1000),
      ...(input.provider ? { provider: input.provider } : {}),
    },
  ];
  const { rows } = await tx.query(
    `INSERT INTO auth_session (id, user_id, aal, amr, user_agent, ip, created_at, updated_at)
     VALUES ($1, $2, 'aal1', $3, $4, $5, $6, $6) RETURNING ${SESSION_COLUMNS}`,
    [randomUUID(), input.user.id, JSON.stringify(amr), input.userAgent, input.ip, now],
  );
  const session = v.parse(sessionRowSchema, rows[0]);
  const { token } = await insertRefreshToken(tx, session, null, now);
  return { session, refreshToken: token };
}

export async function tokenResponse(
  tx: Queryable,
  deps: SessionDeps,
  user: UserRow,
  session: SessionRow,
  refreshToken: string,
): Promise<TokenResponse> {
  const signed = await deps.signer.sign({
    userId: user.id,
    email: user.email ?? '',
    appMetadata: user.app_metadata,
    userMetadata: user.user_metadata,
    sessionId: session.id,
    aal: session.aal,
    amr: session.amr,
  });
  return {
    access_token: signed.token,
    token_type: 'bearer',
    expires_in: signed.expiresIn,
    expires_at: signed.expiresAt,
    refresh_token: refreshToken,
    user: await loadUserJson(tx, user),
  };
}

/** A new session for a successful sign-in, recorded as the user's last sign-in. */
export async function signIn(
  tx: Queryable,
  deps: SessionDeps,
  input: {
    user: UserRow;
    method: string;
    provider?: string;
    ip: string | null;
    userAgent: string | null;
  },
): Promise<TokenResponse> {
  const now = deps.now();
  const { rows } = await tx.query(
    'UPDATE auth_user SET last_sign_in_at = $2 WHERE id = $1 RETURNING id',
    [input.user.id, now],
  );
  if (rows.length === 0) throw new Error('signIn: user vanished inside its transaction');
  const user = { ...input.user, last_sign_in_at: now };
  const { session, refreshToken } = await createSession(tx, deps, { ...input, user });
  await audit(tx, {
    userId: user.id,
    action: 'login',
    ip: input.ip,
    detail: { method: input.method, ...(input.provider ? { provider: input.provider } : {}) },
    now,
  });
  return tokenResponse(tx, deps, user, session, refreshToken);
}

const refreshRowSchema = v.object({
  id: v.string(),
  session_id: v.string(),
  revoked_at: v.nullable(v.date()),
  child_sealed: v.nullable(v.string()),
});

export type RefreshOutcome =
  | { ok: true; session: SessionRow; refreshToken: string }
  /** `endedSessionId`: the session this failure revoked (reuse detected), to be told after commit. */
  | { ok: false; error: AuthError; endedSessionId?: string };

const notFound = () =>
  badRequest('refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found');
const alreadyUsed = () =>
  badRequest('refresh_token_already_used', 'Invalid Refresh Token: Already Used');

/**
 * The refresh_token grant. Failures that must persist (revoking a session on reuse) are written
 * and returned, not thrown, so the caller commits them before answering with the error.
 */
export async function refreshGrant(
  tx: Queryable,
  deps: SessionDeps,
  presented: string,
  ip: string | null,
): Promise<RefreshOutcome> {
  const now = deps.now();
  const { rows } = await tx.query(
    `SELECT id::text AS id, session_id, revoked_at, child_sealed FROM auth_refresh_token
      WHERE token_hash = $1 FOR UPDATE`,
    [sha256Hex(presented)],
  );
  if (!rows[0]) return { ok: false, error: notFound() };
  const token = v.parse(refreshRowSchema, rows[0]);
  // Locking the session serializes concurrent refreshes of one family on PostgreSQL.
  const session = await findSession(tx, token.session_id, { forUpdate: true });
  if (!session) return { ok: false, error: notFound() };

  if (token.revoked_at === null) {
    const child = await insertRefreshToken(tx, session, token.id, now);
    await tx.query(
      'UPDATE auth_refresh_token SET revoked_at = $2, child_sealed = $3 WHERE id = $1',
      [token.id, now, seal(presented, child.token)],
    );
    await tx.query('UPDATE auth_session SET refreshed_at = $2, updated_at = $2 WHERE id = $1', [
      session.id,
      now,
    ]);
    await tx.query('DELETE FROM auth_refresh_token WHERE session_id = $1 AND revoked_at < $2', [
      session.id,
      new Date(now.getTime() - REVOKED_TOKEN_RETENTION_MS),
    ]);
    return { ok: true, session, refreshToken: child.token };
  }

  const withinWindow =
    now.getTime() - token.revoked_at.getTime() <= deps.reuseIntervalSeconds * 1000;
  if (withinWindow && token.child_sealed) {
    const active = await followChain(tx, session.id, presented, token.child_sealed);
    if (active) return { ok: true, session, refreshToken: active };
    return { ok: false, error: alreadyUsed() };
  }
  if (token.child_sealed) {
    // A rotated token replayed after the window: revoke the family (the whole session).
    await tx.query('DELETE FROM auth_session WHERE id = $1', [session.id]);
    await audit(tx, {
      userId: session.user_id,
      action: 'token_reuse_detected',
      ip,
      detail: { session_id: session.id },
      now,
    });
    return { ok: false, error: alreadyUsed(), endedSessionId: session.id };
  }
  // Without a sealed child the token was retired by an MFA upgrade: refused, but no theft signal.
  return { ok: false, error: alreadyUsed() };
}

/** From a rotated token down its children to the session's active token, if the chain holds. */
async function followChain(
  tx: Queryable,
  sessionId: string,
  presented: string,
  sealed: string,
): Promise<string | null> {
  let secret = presented;
  let next = sealed;
  for (let depth = 0; depth < 50; depth += 1) {
    const child = unseal(secret, next);
    if (!child) return null;
    const { rows } = await tx.query(
      `SELECT id::text AS id, session_id, revoked_at, child_sealed FROM auth_refresh_token
        WHERE token_hash = $1 AND session_id = $2`,
      [sha256Hex(child), sessionId],
    );
    if (!rows[0]) return null;
    const row = v.parse(refreshRowSchema, rows[0]);
    if (row.revoked_at === null) return child;
    if (!row.child_sealed) return null;
    secret = child;
    next = row.child_sealed;
  }
  return null;
}

/**
 * After a second factor is verified: the session becomes aal2 under a fresh refresh token, and
 * its earlier tokens are retired so none of them can be refreshed into the aal2 session.
 */
export async function upgradeSession(
  tx: Queryable,
  deps: SessionDeps,
  session: SessionRow,
  upgrade: { factorId: string; method: string },
): Promise<{ session: SessionRow; refreshToken: string }> {
  const now = deps.now();
  const amr = addAmr(session.amr, {
    method: upgrade.method,
    timestamp: Math.floor(now.getTime() / 1000),
  });
  const { rows } = await tx.query(
    `UPDATE auth_session SET aal = 'aal2', factor_id = $2, amr = $3, updated_at = $4
      WHERE id = $1 RETURNING ${SESSION_COLUMNS}`,
    [session.id, upgrade.factorId, JSON.stringify(amr), now],
  );
  const upgraded = v.parse(sessionRowSchema, rows[0]);
  await tx.query(
    'UPDATE auth_refresh_token SET revoked_at = $2 WHERE session_id = $1 AND revoked_at IS NULL',
    [session.id, now],
  );
  const { token } = await insertRefreshToken(tx, upgraded, null, now);
  return { session: upgraded, refreshToken: token };
}
