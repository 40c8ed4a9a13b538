/**
 * Client portal sessions: a browser that entered a project's portal password holds a random token
 * in an httpOnly cookie; the database keeps only the token's SHA-256, with the project and client
 * it opens. A session ends after PORTAL_IDLE_MINUTES without a call, after
 * PORTAL_SESSION_MAX_HOURS whatever the activity, and at once when a member rotates the password,
 * turns the portal off or deletes the project (its rows are deleted).
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import {
  PORTAL_IDLE_MINUTES,
  PORTAL_SESSION_MAX_HOURS,
} from '#contract/endpoints/client-portal.ts';
import type { Queryable } from '../db/database.ts';

export const PORTAL_COOKIE = 'satchel_portal';
/** The cookie goes only to the portal's calls, nowhere else on the origin. */
export const PORTAL_COOKIE_PATH = '/api/client-portal';

/** What a valid portal cookie proves: this browser may read this one project. */
export interface PortalIdentity {
  sessionId: string;
  projectId: string;
  clientId: string;
  workspaceId: string;
}

// Writing last_seen_at on every call would make each read a write; a minute off is harmless.
const TOUCH_AFTER_MS = 30_000;
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export async function openPortalSession(
  tx: Queryable,
  session: Omit<PortalIdentity, 'sessionId'> & { ip: string; userAgent: string },
): Promise<{ token: string; identity: PortalIdentity }> {
  const token = randomBytes(32).toString('base64url');
  const id = randomUUID();
  await tx.query(
    `INSERT INTO portal_session (id, token_hash, project_id, client_id, workspace_id, ip, user_agent, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, now() + make_interval(hours => $8::int))`,
    [
      id,
      hashToken(token),
      session.projectId,
      session.clientId,
      session.workspaceId,
      session.ip,
      session.userAgent.slice(0, 500),
      PORTAL_SESSION_MAX_HOURS,
    ],
  );
  return {
    token,
    identity: {
      sessionId: id,
      projectId: session.projectId,
      clientId: session.clientId,
      workspaceId: session.workspaceId,
    },
  };
}

/**
 * The session a cookie's token opens, or null when it is malformed, unknown, idle too long, past
 * its end, or its project's portal is off. Refreshes its idle clock.
 */
export async function findPortalSession(
  db: Queryable,
  token: string,
  now: Date = new Date(),
): Promise<PortalIdentity | null> {
  if (!TOKEN.test(token)) return null;
  const { rows } = await db.query<{
    id: string;
    project_id: string;
    client_id: string;
    workspace_id: string;
    last_seen_at: Date;
    expires_at: Date;
  }>(
    `SELECT s.id, s.project_id, s.client_id, s.workspace_id, s.last_seen_at, s.expires_at
     FROM portal_session s JOIN project_portal p ON p.project_id = s.project_id AND p.enabled
     WHERE s.token_hash = $1`,
    [hashToken(token)],
  );
  const row = rows[0];
  if (!row) return null;
  const idleMs = now.getTime() - row.last_seen_at.getTime();
  if (idleMs >= PORTAL_IDLE_MINUTES * 60_000 || row.expires_at.getTime() <= now.getTime()) {
    await db.query('DELETE FROM portal_session WHERE id = $1', [row.id]);
    return null;
  }
  if (idleMs >= TOUCH_AFTER_MS) {
    await db.query('UPDATE portal_session SET last_seen_at = $2 WHERE id = $1', [row.id, now]);
  }
  return {
    sessionId: row.id,
    projectId: row.project_id,
    clientId: row.client_id,
    workspaceId: row.workspace_id,
  };
}

export async function endPortalSession(tx: Queryable, token: string): Promise<void> {
  if (!TOKEN.test(token)) return;
  await tx.query('DELETE FROM portal_session WHERE token_hash = $1', [hashToken(token)]);
}

/** Ends every session of a project; answers how many were open. */
export async function endProjectPortalSessions(tx: Queryable, projectId: string): Promise<number> {
  const { rows } = await tx.query<{ n: number }>(
    `WITH gone AS (DELETE FROM portal_session WHERE project_id = $1 RETURNING 1)
     SELECT count(*)::int AS n FROM gone`,
    [projectId],
  );
  return rows[0]?.n ?? 0;
}

/** The Set-Cookie value that stores `token` (or, with null, removes the cookie). */
export function portalCookie(token: string | null, secure: boolean): string {
  const parts = [
    `${PORTAL_COOKIE}=${token ?? ''}`,
    `Path=${PORTAL_COOKIE_PATH}`,
    'HttpOnly',
    'SameSite=Strict',
    `Max-Age=${token === null ? 0 : PORTAL_SESSION_MAX_HOURS * 3600}`,
  ];
  if (secure) parts.push('Secure');
  return parts.join('; ');
}

/** The portal token in a Cookie header, if any. */
export function portalCookieToken(cookieHeader: string | undefined): string | null {
  if (!cookieHeader) return null;
  for (const part of cookieHeader.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === PORTAL_COOKIE) return part.slice(eq + 1).trim() || null;
  }
  return null;
}
