/**
 * Whether an access token's session is still signed in, and whether its user has a verified
 * second factor: what /api and the hub ask before trusting a token (embedded mode only; hosted
 * Supabase keeps its sessions to itself).
 *
 * One query answers both per session id, cached for `ttlMs` (5 s) in a bounded map, so a busy
 * client costs one lookup per 5 s, not one per request. Changes made by this process are seen at
 * once: a sign-out marks its sessions ended (`sessionsEnded`) and a factor verified or removed
 * drops the user's entries (`factorsChanged`). Another process on the same database sees them
 * when its entry expires, within `ttlMs`. A lookup that was already running when an invalidation
 * happened answers its caller but is not cached (it may have read the old state).
 */
import type { Queryable } from '../db/database.ts';
import { AppError, ErrorCode } from '../http/app-error.ts';
import type { VerifyAccessToken } from './identity.ts';

export interface SessionState {
  /** The session exists (nobody signed it out, it was not revoked). */
  active: boolean;
  /** Its user, when active. */
  userId: string | null;
  /** That user has a verified MFA factor: tokens must be aal2 before data is served. */
  hasVerifiedFactor: boolean;
}

export interface SessionCheck {
  lookup(sessionId: string): Promise<SessionState>;
  /** The session exists and belongs to `userId` (the hub's question about a hub token). */
  isActive(sessionId: string, userId: string): Promise<boolean>;
  /** Call after the commit that deleted these sessions: refused from now on, listeners told. */
  sessionsEnded(sessionIds: readonly string[]): void;
  /** Call after the commit that verified or removed one of the user's factors. */
  factorsChanged(userId: string): void;
  /** Told about every `sessionsEnded` (the hub closes their connections); returns an unsubscribe. */
  onSessionsEnded(listener: (sessionIds: readonly string[]) => void): () => void;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ENDED: SessionState = { active: false, userId: null, hasVerifiedFactor: false };

export function createSessionCheck(deps: {
  db: Queryable;
  ttlMs?: number;
  maxEntries?: number;
  /** Monotonic milliseconds; tests may move it. */
  now?: () => number;
}): SessionCheck {
  const ttlMs = deps.ttlMs ?? 5_000;
  const maxEntries = deps.maxEntries ?? 10_000;
  const now = deps.now ?? (() => performance.now());
  const cache = new Map<string, { state: SessionState; until: number }>();
  const running = new Map<string, Promise<SessionState>>();
  const listeners = new Set<(sessionIds: readonly string[]) => void>();
  // Bumped by every invalidation: a lookup started under an older generation is not cached.
  let generation = 0;

  function remember(sessionId: string, state: SessionState): void {
    cache.delete(sessionId);
    if (cache.size >= maxEntries) {
      // Oldest insertion first (Map order); an expired entry would be replaced anyway.
      const oldest = cache.keys().next();
      if (!oldest.done) cache.delete(oldest.value);
    }
    cache.set(sessionId, { state, until: now() + ttlMs });
  }

  async function read(sessionId: string): Promise<SessionState> {
    const { rows } = await deps.db.query<{ user_id: string; has_factor: boolean }>(
      `SELECT s.user_id,
              EXISTS (SELECT 1 FROM auth_mfa_factor f
                       WHERE f.user_id = s.user_id AND f.status = 'verified') AS has_factor
         FROM auth_session s WHERE s.id = $1`,
      [sessionId],
    );
    const row = rows[0];
    return row ? { active: true, userId: row.user_id, hasVerifiedFactor: row.has_factor } : ENDED;
  }

  function lookup(sessionId: string): Promise<SessionState> {
    if (!UUID.test(sessionId)) return Promise.resolve(ENDED);
    const cached = cache.get(sessionId);
    if (cached && cached.until > now()) return Promise.resolve(cached.state);
    const pending = running.get(sessionId);
    if (pending) return pending;
    const startedAt = generation;
    const work = read(sessionId)
      .then((state) => {
        if (generation === startedAt) remember(sessionId, state);
        return state;
      })
      .finally(() => running.delete(sessionId));
    running.set(sessionId, work);
    return work;
  }

  return {
    lookup,
    async isActive(sessionId, userId) {
      const state = await lookup(sessionId);
      return state.active && state.userId === userId;
    },
    sessionsEnded(sessionIds) {
      if (sessionIds.length === 0) return;
      generation += 1;
      // A deleted session never comes back, so the mark is right for as long as it is kept.
      for (const id of sessionIds) {
        running.delete(id);
        remember(id, ENDED);
      }
      for (const listener of listeners) listener(sessionIds);
    },
    factorsChanged(userId) {
      generation += 1;
      for (const [id, entry] of cache) if (entry.state.userId === userId) cache.delete(id);
      running.clear();
    },
    onSessionsEnded(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/**
 * The embedded service's /api verifier: the token's signature and claims, then its session. A
 * token naming no session is refused (every token this service signs names one), as is one whose
 * session ended. An aal1 token of a user with a verified factor passes with
 * `secondFactorPending`, and the dispatcher keeps it away from user data.
 */
export function verifyWithSessions(
  verifyToken: VerifyAccessToken,
  sessions: SessionCheck,
): VerifyAccessToken {
  return async (token) => {
    const identity = await verifyToken(token);
    if (!identity.sessionId) {
      throw new AppError(ErrorCode.UNAUTHORIZED, 'Invalid JWT: the token names no session.');
    }
    const state = await sessions.lookup(identity.sessionId);
    if (!state.active || state.userId !== identity.userId) {
      throw new AppError(
        ErrorCode.UNAUTHORIZED,
        'This session has ended (signed out or revoked); sign in again.',
      );
    }
    const proven = identity.aal === 'aal2' || identity.aal === 'aal3';
    return state.hasVerifiedFactor && !proven
      ? { ...identity, secondFactorPending: true }
      : identity;
  };
}
