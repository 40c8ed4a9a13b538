/**
 * Invitations into a workspace (contract/endpoints/workspace-invite.ts). An owner or admin makes,
 * lists and revokes them; anyone holding a token may ask what it is; a signed-in user accepts it.
 *
 * Invariants: an invitation's use_count never passes max_uses, and a member row is added only in
 * the transaction that counts the use and checks the plan's member limit (`requireMemberRoom`
 * locks the workspace row first), so two people racing for the last use or the last seat cannot
 * both have it, and a refusal leaves nothing behind.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import {
  createWorkspaceInvite,
  getWorkspaceInvites,
  INVITE_PATH,
  revokeWorkspaceInvite,
  type InvitableRole,
  type InviteStatus,
  type WorkspaceInvite,
} from '#contract/endpoints/workspace-invite.ts';
import type { Queryable } from '../db/database.ts';
import { AppError, ErrorCode } from '../http/app-error.ts';
import type { ResourceHandlers } from '../http/endpoint-handler.ts';
import type { RateLimiter, RateLimitRule } from '../http/rate-limiter.ts';
import type { Mailer } from '../mail/mailer.ts';
import { requireDeclaredRole } from './members-access.ts';
import { requireMemberRoom } from './plan-limits.ts';
import { forgetWorkspaceRoles } from './workspace-access.ts';

export interface WorkspaceInviteDeps {
  mailer: Mailer;
  /** Where the app is served: links point at its /invite/ page. */
  publicUrl: string;
  rateLimiter: RateLimiter;
}

/** Per address, for looking tokens up or accepting them: they cannot be guessed, but nobody needs more. */
export const inviteLookupRateLimit: RateLimitRule = {
  name: 'invite-lookup',
  max: 60,
  windowMs: 60_000,
};
/** Per account, for accepting: keyed by user, not address, so one office's shared address is fine. */
export const inviteAcceptRateLimit: RateLimitRule = {
  name: 'invite-accept',
  max: 20,
  windowMs: 60_000,
};

interface InviteRow {
  id: string;
  workspace_id: string;
  email: string | null;
  role: InvitableRole;
  max_uses: number | null;
  use_count: number;
  expires_at: Date;
  revoked_at: Date | null;
  created_by: string;
  created_at: Date;
  created_by_name: string | null;
}

const INVITE_SELECT = `SELECT i.id, i.workspace_id, i.email, i.role, i.max_uses, i.use_count,
    i.expires_at, i.revoked_at, i.created_by, i.created_at,
    trim(p.first_name || ' ' || p.last_name) AS created_by_name
  FROM workspace_invite i LEFT JOIN user_profile p ON p.id = i.created_by`;

const INVALID_INVITE = 'This invite link is not valid. Check that you have all of it.';
const NO_SUCH_INVITE = 'No such invitation.';
const NO_OWNER_INVITES =
  'Nobody is invited as owner: invite them as admin, then hand ownership over with Transfer ownership.';

export function hashInviteToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

function statusOf(row: InviteRow, now: Date): InviteStatus {
  if (row.revoked_at) return 'revoked';
  if (row.expires_at.getTime() <= now.getTime()) return 'expired';
  if (row.max_uses !== null && row.use_count >= row.max_uses) return 'used_up';
  return 'active';
}

/** Why an invitation can no longer be accepted, in words for the person holding it. */
function deadReason(row: InviteRow, now: Date): string | null {
  switch (statusOf(row, now)) {
    case 'revoked':
      return 'This invitation was withdrawn. Ask the person who sent it for a new one.';
    case 'expired':
      return `This invitation expired on ${row.expires_at.toUTCString()}. Ask for a new one.`;
    case 'used_up':
      return row.max_uses === 1
        ? 'This invitation has already been used.'
        : `This invitation has been used by all ${row.max_uses} people it allowed.`;
    case 'active':
      return null;
  }
}

function toInvite(row: InviteRow, now: Date): WorkspaceInvite {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    email: row.email,
    role: row.role,
    maxUses: row.max_uses,
    useCount: row.use_count,
    expiresAt: row.expires_at.toISOString(),
    revokedAt: row.revoked_at?.toISOString() ?? null,
    createdAt: row.created_at.toISOString(),
    createdBy: row.created_by,
    createdByName: row.created_by_name ?? '',
    status: statusOf(row, now),
  };
}

async function inviteByToken(tx: Queryable, token: string, lock: boolean): Promise<InviteRow> {
  const { rows } = await tx.query<InviteRow>(
    `${INVITE_SELECT} WHERE i.token_hash = $1${lock ? ' FOR UPDATE OF i' : ''}`,
    [hashInviteToken(token)],
  );
  const row = rows[0];
  if (!row) throw new AppError(ErrorCode.NOT_FOUND, INVALID_INVITE);
  return row;
}

async function workspaceName(tx: Queryable, workspaceId: string): Promise<string> {
  const { rows } = await tx.query<{ name: string }>('SELECT name FROM workspace WHERE id = $1', [
    workspaceId,
  ]);
  return rows[0]?.name ?? '';
}

export function inviteUrl(publicUrl: string, token: string): string {
  return `${publicUrl.replace(/\/+$/, '')}${INVITE_PATH}${token}`;
}

function inviteMail(options: {
  to: string;
  inviter: string;
  workspace: string;
  role: InvitableRole;
  url: string;
  expiresAt: Date;
}) {
  const who = options.inviter || 'A Satchel user';
  return {
    to: options.to,
    subject: `${who} invited you to ${options.workspace} on Satchel`,
    text: [
      `${who} invited you to join ${options.workspace} on Satchel as ${options.role === 'admin' ? 'an admin' : 'a member'}.`,
      '',
      `Accept the invitation: ${options.url}`,
      '',
      `The link works until ${options.expiresAt.toUTCString()} and only for ${options.to}.`,
      'If you did not expect this mail, ignore it: nothing happens until the link is opened and accepted.',
    ].join('\n'),
  };
}

/**
 * An invitation by email to someone already in the workspace, or to an address with an open
 * invitation (same address in any case), would only send a second mail: refused, saying which.
 */
async function refuseNeedlessInvite(tx: Queryable, workspaceId: string, email: string) {
  const member = await tx.query(
    `SELECT 1 FROM workspace_member m JOIN user_profile p ON p.id = m.user_id
     WHERE m.workspace_id = $1 AND lower(p.email) = $2`,
    [workspaceId, email],
  );
  if (member.rows.length > 0) {
    throw new AppError(ErrorCode.CONFLICT, `${email} is already a member of this workspace.`);
  }
  const open = await tx.query(
    `SELECT 1 FROM workspace_invite
     WHERE workspace_id = $1 AND lower(email) = $2 AND revoked_at IS NULL AND expires_at > now()
       AND (max_uses IS NULL OR use_count < max_uses)`,
    [workspaceId, email],
  );
  if (open.rows.length > 0) {
    throw new AppError(
      ErrorCode.CONFLICT,
      `${email} already has an open invitation. Copy its link, or revoke it to send a new one.`,
    );
  }
}

export function createWorkspaceInviteHandlers(
  deps: WorkspaceInviteDeps,
): ResourceHandlers<'workspace-invite'> {
  return {
    async 'workspace-invite/create-workspace-invite'({ query, body, identity, tx, afterCommit }) {
      await requireDeclaredRole(tx, createWorkspaceInvite, query.workspaceId, identity.userId);
      if (body.role === 'owner') throw new AppError(ErrorCode.BUSINESS_RULE, NO_OWNER_INVITES);
      const role: InvitableRole = body.role;
      const token = randomBytes(32).toString('base64url');
      const id = randomUUID();
      const email = body.email === null ? null : body.email.toLowerCase();
      if (email !== null) await refuseNeedlessInvite(tx, query.workspaceId, email);
      await tx.query(
        `INSERT INTO workspace_invite
           (id, workspace_id, token_hash, email, role, max_uses, expires_at, created_by)
         VALUES ($1, $2, $3, $4, $5, $6, now() + make_interval(days => $7::int), $8)`,
        [
          id,
          query.workspaceId,
          hashInviteToken(token),
          email,
          role,
          body.maxUses,
          body.expiresInDays,
          identity.userId,
        ],
      );
      const { rows } = await tx.query<InviteRow>(`${INVITE_SELECT} WHERE i.id = $1`, [id]);
      const row = rows[0] as InviteRow;
      const url = inviteUrl(deps.publicUrl, token);
      if (email !== null) {
        const mail = inviteMail({
          to: email,
          inviter: row.created_by_name ?? '',
          workspace: await workspaceName(tx, query.workspaceId),
          role,
          url,
          expiresAt: row.expires_at,
        });
        // Mailed only once the invitation exists for good; a rolled-back one sends nothing.
        afterCommit(() => deps.mailer.send(mail));
      }
      return { invite: toInvite(row, new Date()), url };
    },

    async 'workspace-invite/get-workspace-invites'({ query, identity, tx }) {
      await requireDeclaredRole(tx, getWorkspaceInvites, query.workspaceId, identity.userId);
      const { rows } = await tx.query<InviteRow>(
        `${INVITE_SELECT} WHERE i.workspace_id = $1 ORDER BY i.created_at DESC, i.id`,
        [query.workspaceId],
      );
      const now = new Date();
      return { invites: rows.map((row) => toInvite(row, now)) };
    },

    async 'workspace-invite/revoke-workspace-invite'({ query, identity, tx }) {
      await requireDeclaredRole(tx, revokeWorkspaceInvite, query.workspaceId, identity.userId);
      // Scoped by the workspace whose role was checked: another workspace's invitation is unknown.
      const { rows } = await tx.query<InviteRow>(
        `UPDATE workspace_invite SET revoked_at = coalesce(revoked_at, now())
         WHERE id = $1 AND workspace_id = $2 RETURNING id`,
        [query.id, query.workspaceId],
      );
      if (rows.length === 0) throw new AppError(ErrorCode.NOT_FOUND, NO_SUCH_INVITE);
      const { rows: found } = await tx.query<InviteRow>(`${INVITE_SELECT} WHERE i.id = $1`, [
        query.id,
      ]);
      return { invite: toInvite(found[0] as InviteRow, new Date()) };
    },

    async 'workspace-invite/preview-workspace-invite'({ query, tx, clientIp }) {
      deps.rateLimiter.consume(inviteLookupRateLimit, clientIp);
      const row = await inviteByToken(tx, query.token, false);
      const now = new Date();
      return {
        invite: {
          workspaceName: await workspaceName(tx, row.workspace_id),
          role: row.role,
          inviterName: row.created_by_name ?? '',
          email: row.email,
          expiresAt: row.expires_at.toISOString(),
          status: statusOf(row, now),
          reason: deadReason(row, now),
        },
      };
    },

    async 'workspace-invite/accept-workspace-invite'({ body, identity, tx, changes }) {
      deps.rateLimiter.consume(inviteAcceptRateLimit, identity.userId);
      // Locked: a racing acceptance of the last use waits for this one and then sees it used.
      const row = await inviteByToken(tx, body.token, true);
      const dead = deadReason(row, new Date());
      if (dead) throw new AppError(ErrorCode.GONE, dead);
      if (row.email !== null && row.email !== (identity.email ?? '').toLowerCase()) {
        throw new AppError(
          ErrorCode.FORBIDDEN,
          `This invitation is for ${row.email}. Sign in with that address to accept it.`,
        );
      }
      // The workspace's membership changes one at a time from here (as in members.ts), so two
      // acceptances by one person cannot both pass the check below.
      await tx.query('SELECT 1 FROM workspace WHERE id = $1 FOR UPDATE', [row.workspace_id]);
      const { rows: existing } = await tx.query<{ role: string }>(
        'SELECT role FROM workspace_member WHERE workspace_id = $1 AND user_id = $2',
        [row.workspace_id, identity.userId],
      );
      if (existing[0]) {
        throw new AppError(
          ErrorCode.CONFLICT,
          `You are already in this workspace (as ${existing[0].role}).`,
        );
      }
      const { rows: profile } = await tx.query('SELECT 1 FROM user_profile WHERE id = $1', [
        identity.userId,
      ]);
      if (profile.length === 0) {
        throw new AppError(
          ErrorCode.BUSINESS_RULE,
          'Finish setting up your account first, then open the invitation again.',
        );
      }
      await requireMemberRoom(tx, row.workspace_id);
      await tx.query(
        `INSERT INTO workspace_member (workspace_id, user_id, role) VALUES ($1, $2, $3)`,
        [row.workspace_id, identity.userId, row.role],
      );
      await tx.query('UPDATE workspace_invite SET use_count = use_count + 1 WHERE id = $1', [
        row.id,
      ]);
      forgetWorkspaceRoles(tx);
      // A change on the workspace row: the other members' devices hear of it and pull.
      await changes.record({
        workspaceId: row.workspace_id,
        table: 'workspaces',
        entityId: row.workspace_id,
        op: 'upsert',
      });
      return {
        workspaceId: row.workspace_id,
        workspaceName: await workspaceName(tx, row.workspace_id),
        role: row.role,
      };
    },
  };
}
