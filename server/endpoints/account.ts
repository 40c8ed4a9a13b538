/**
 * Deleting your own account (contract/endpoints/account.ts), in one transaction:
 *
 * 1. every shared workspace you own has a decision (else 409, nothing changed) and each decision
 *    names a member of that workspace (else 422); a paid workspace that would be deleted is
 *    refused until its subscription is cancelled (409), so nobody keeps paying for nothing;
 * 2. the proof (password or mailed code) is checked, rate limited per account;
 * 3. shared workspaces you own pass to the chosen member, you leave the others, and workspaces
 *    only you are in are deleted with their rows (cascade), their file ledger rows and change log;
 * 4. what others keep loses your name: invitations you made or that were for your address go,
 *    notifications you caused say "Deleted user", feedback forgets you; records that carry your
 *    id (authorship of tasks, chat messages, activity) keep the bare id, which names nobody once
 *    the profile is gone (the app shows a neutral word for an id without a profile);
 * 5. your profile, device records and auth user (with every session) are deleted.
 *
 * After the commit: the user's open devices are told (hub event accountDeleted: they sign out
 * and delete their copy of the data), then the ended sessions are refused at once and their hub
 * connections closed (session-check listeners), the bytes of deleted workspaces' files are removed (a failure leaves
 * blobs no ledger row knows, which the hourly orphan sweep removes), and a confirmation is
 * mailed. Other members' devices hear of the membership change through the change log; the
 * deleted user's devices are refused on their next call and drop the account.
 */
import type {
  AccountDeletionCandidate,
  AccountDeletionWorkspace,
} from '#contract/endpoints/account.ts';
import type { WorkspaceRole } from '#contract/entities/workspace.ts';
import type { AccountAuth } from '../auth/account-auth.ts';
import type { Queryable } from '../db/database.ts';
import type { RealtimePublisher } from '../realtime/realtime-publisher.ts';
import type { BlobStorage } from '../files/storage/blob-storage.ts';
import { AppError, ErrorCode } from '../http/app-error.ts';
import type { ResourceHandlers } from '../http/endpoint-handler.ts';
import type { RateLimiter, RateLimitRule } from '../http/rate-limiter.ts';
import type { Mailer } from '../mail/mailer.ts';
import { forgetWorkspaceRoles } from './workspace-access.ts';

export interface AccountHandlerDeps {
  /** The embedded auth service's part; null in hosted mode (the account lives at Supabase). */
  accounts: AccountAuth | null;
  mailer: Mailer;
  rateLimiter: RateLimiter;
  /** File storage, for the bytes of deleted workspaces; null: left to the orphan sweep. */
  storage: BlobStorage | null;
  /** The hub: tells the user's other devices (accountDeleted) before their sessions end. */
  publisher?: Pick<RealtimePublisher, 'publishAccountDeleted'>;
}

/** Proof attempts per account: a person mistypes a few times, a stolen session guesses. */
export const deleteAccountRateLimit: RateLimitRule = {
  name: 'delete-account',
  max: 10,
  windowMs: 15 * 60_000,
};

export const DELETED_USER = 'Deleted user';
const NOT_AVAILABLE =
  'Accounts on this server are managed by its hosted sign-in service: ask its operator to delete yours.';

interface MembershipRow {
  workspace_id: string;
  name: string;
  role: WorkspaceRole;
}

interface CandidateRow {
  workspace_id: string;
  user_id: string;
  email: string;
  first_name: string;
  last_name: string;
  role: WorkspaceRole;
}

interface OwnedWorkspace {
  workspaceId: string;
  name: string;
  candidates: AccountDeletionCandidate[];
}

async function memberships(tx: Queryable, userId: string, lock: boolean): Promise<MembershipRow[]> {
  const { rows } = await tx.query<MembershipRow>(
    `SELECT w.id AS workspace_id, w.name, m.role
     FROM workspace_member m JOIN workspace w ON w.id = m.workspace_id
     WHERE m.user_id = $1
     ORDER BY w.id${lock ? ' FOR UPDATE OF w' : ''}`,
    [userId],
  );
  return rows;
}

/** The other members of each workspace, next owner first: admins, then members, by seniority. */
async function candidatesOf(
  tx: Queryable,
  workspaceIds: string[],
  userId: string,
): Promise<Map<string, AccountDeletionCandidate[]>> {
  const byWorkspace = new Map<string, AccountDeletionCandidate[]>();
  if (workspaceIds.length === 0) return byWorkspace;
  const { rows } = await tx.query<CandidateRow>(
    `SELECT m.workspace_id, m.user_id, p.email, p.first_name, p.last_name, m.role
     FROM workspace_member m JOIN user_profile p ON p.id = m.user_id
     WHERE m.workspace_id = ANY($1::uuid[]) AND m.user_id <> $2
     ORDER BY m.workspace_id, CASE m.role WHEN 'admin' THEN 0 ELSE 1 END, m.joined_at, m.user_id`,
    [workspaceIds, userId],
  );
  for (const row of rows) {
    const list = byWorkspace.get(row.workspace_id) ?? [];
    list.push({
      userId: row.user_id,
      name: `${row.first_name} ${row.last_name}`.trim() || row.email,
      email: row.email,
      role: row.role,
    });
    byWorkspace.set(row.workspace_id, list);
  }
  return byWorkspace;
}

async function deletionCounts(
  tx: Queryable,
  workspaceId: string,
): Promise<AccountDeletionWorkspace['counts']> {
  const { rows } = await tx.query<{
    clients: string;
    projects: string;
    files: string;
    file_bytes: string;
  }>(
    `SELECT (SELECT count(*) FROM client WHERE workspace_id = $1)::text AS clients,
            (SELECT count(*) FROM project WHERE workspace_id = $1)::text AS projects,
            (SELECT count(*) FROM project_file WHERE workspace_id = $1)::text AS files,
            (SELECT coalesce(sum(size), 0) FROM file_blob WHERE workspace_id = $1)::text AS file_bytes`,
    [workspaceId],
  );
  const row = rows[0];
  return {
    clients: Number(row?.clients ?? 0),
    projects: Number(row?.projects ?? 0),
    files: Number(row?.files ?? 0),
    fileBytes: Number(row?.file_bytes ?? 0),
  };
}

/** Sorts the caller's workspaces into owned-and-shared, owned-alone and the rest. */
async function classify(tx: Queryable, userId: string, lock: boolean) {
  const rows = await memberships(tx, userId, lock);
  const owned = rows.filter((row) => row.role === 'owner');
  const candidates = await candidatesOf(
    tx,
    owned.map((row) => row.workspace_id),
    userId,
  );
  const shared: OwnedWorkspace[] = [];
  const alone: MembershipRow[] = [];
  for (const row of owned) {
    const others = candidates.get(row.workspace_id) ?? [];
    if (others.length > 0) {
      shared.push({ workspaceId: row.workspace_id, name: row.name, candidates: others });
    } else {
      alone.push(row);
    }
  }
  return { rows, shared, alone, left: rows.filter((row) => row.role !== 'owner') };
}

function accountDeletedMail(to: string, summary: string[]) {
  return {
    to,
    subject: 'Your Satchel account has been deleted',
    text: [
      'Your Satchel account and the personal data it held have been deleted, as you asked.',
      '',
      ...summary,
      ...(summary.length > 0 ? [''] : []),
      'You have been signed out on every device. Devices that still hold a copy of your data',
      'drop it the next time they connect.',
      '',
      'If you did not ask for this, reply to this mail at once.',
    ].join('\n'),
  };
}

export function createAccountHandlers(deps: AccountHandlerDeps): ResourceHandlers<'account'> {
  return {
    async 'account/get-account-deletion-plan'({ identity, tx }) {
      const { rows, shared } = await classify(tx, identity.userId, false);
      const sharedById = new Map(shared.map((entry) => [entry.workspaceId, entry]));
      const workspaces: AccountDeletionWorkspace[] = [];
      for (const row of rows) {
        const transfer = sharedById.get(row.workspace_id);
        const fate = row.role !== 'owner' ? 'leave' : transfer ? 'transfer' : 'delete';
        workspaces.push({
          workspaceId: row.workspace_id,
          name: row.name,
          role: row.role,
          fate,
          candidates: transfer?.candidates ?? [],
          defaultNewOwnerId: transfer?.candidates[0]?.userId ?? null,
          counts:
            fate === 'delete'
              ? await deletionCounts(tx, row.workspace_id)
              : { clients: 0, projects: 0, files: 0, fileBytes: 0 },
        });
      }
      const { rows: profile } = await tx.query<{ email: string }>(
        'SELECT email FROM user_profile WHERE id = $1',
        [identity.userId],
      );
      return {
        plan: {
          email: identity.email ?? profile[0]?.email ?? '',
          hasPassword: deps.accounts ? await deps.accounts.hasPassword(tx, identity.userId) : false,
          workspaces,
        },
      };
    },

    async 'account/delete-account'({ body, identity, tx, changes, afterCommit, clientIp, logger }) {
      const accounts = deps.accounts;
      if (!accounts) throw new AppError(ErrorCode.BUSINESS_RULE, NOT_AVAILABLE);
      const userId = identity.userId;

      // 1. Decisions, with the caller's workspaces locked: no membership changes underneath.
      const { shared, alone, left } = await classify(tx, userId, true);
      const sharedById = new Map(shared.map((entry) => [entry.workspaceId, entry]));
      const chosen = new Map<string, string | null>();
      for (const decision of body.workspaces) {
        const workspace = sharedById.get(decision.workspaceId);
        if (!workspace) {
          throw new AppError(
            ErrorCode.BUSINESS_RULE,
            'A decision names a workspace you do not own with other members. Reload and try again.',
            { details: { workspaceId: decision.workspaceId } },
          );
        }
        if (
          decision.newOwnerId !== null &&
          !workspace.candidates.some((member) => member.userId === decision.newOwnerId)
        ) {
          throw new AppError(
            ErrorCode.BUSINESS_RULE,
            `The new owner of ${workspace.name} must be one of its members.`,
            { details: { workspaceId: workspace.workspaceId } },
          );
        }
        chosen.set(workspace.workspaceId, decision.newOwnerId);
      }
      const undecided = shared.filter((workspace) => !chosen.has(workspace.workspaceId));
      if (undecided.length > 0) {
        throw new AppError(
          ErrorCode.CONFLICT,
          `You own ${undecided.map((workspace) => workspace.name).join(', ')} with other members: choose who owns ${undecided.length === 1 ? 'it' : 'them'} next before deleting your account.`,
          {
            details: {
              reason: 'owner_decision_required',
              workspaces: undecided.map((workspace) => ({
                workspaceId: workspace.workspaceId,
                name: workspace.name,
              })),
            },
          },
        );
      }
      const doomed = alone.map((row) => row.workspace_id);
      if (doomed.length > 0) {
        const { rows: paid } = await tx.query<{ name: string }>(
          `SELECT w.name FROM workspace_subscription s JOIN workspace w ON w.id = s.workspace_id
           WHERE s.workspace_id = ANY($1::uuid[]) AND s.status <> 'canceled'
             AND NOT s.cancel_at_period_end`,
          [doomed],
        );
        if (paid.length > 0) {
          throw new AppError(
            ErrorCode.CONFLICT,
            `${paid.map((row) => row.name).join(', ')} has a paid subscription: cancel it in Settings > Billing first, so it stops being charged, then delete your account.`,
            { details: { reason: 'subscription_active' } },
          );
        }
      }

      // 2. The proof.
      deps.rateLimiter.consume(deleteAccountRateLimit, userId);
      await accounts.verifyProof(tx, userId, body);

      const { rows: profileRows } = await tx.query<{
        email: string;
        first_name: string;
        last_name: string;
      }>('SELECT email, first_name, last_name FROM user_profile WHERE id = $1', [userId]);
      const profile = profileRows[0];
      const email = identity.email ?? profile?.email ?? null;
      const fullName = profile ? `${profile.first_name} ${profile.last_name}`.trim() : '';

      // 3. Workspaces.
      const transferred: { workspaceId: string; newOwnerId: string; name: string; to: string }[] =
        [];
      for (const workspace of shared) {
        const newOwnerId = chosen.get(workspace.workspaceId) ?? workspace.candidates[0]?.userId;
        const heir = workspace.candidates.find((member) => member.userId === newOwnerId);
        if (!heir) continue; // unreachable: shared workspaces have candidates
        // Out first: one owner per workspace is a unique index (migration 0017).
        await tx.query('DELETE FROM workspace_member WHERE workspace_id = $1 AND user_id = $2', [
          workspace.workspaceId,
          userId,
        ]);
        await tx.query(
          `UPDATE workspace_member SET role = 'owner' WHERE workspace_id = $1 AND user_id = $2`,
          [workspace.workspaceId, heir.userId],
        );
        await changes.record({
          workspaceId: workspace.workspaceId,
          table: 'workspaces',
          entityId: workspace.workspaceId,
          op: 'upsert',
        });
        transferred.push({
          workspaceId: workspace.workspaceId,
          newOwnerId: heir.userId,
          name: workspace.name,
          to: heir.name,
        });
      }
      for (const row of left) {
        await tx.query('DELETE FROM workspace_member WHERE workspace_id = $1 AND user_id = $2', [
          row.workspace_id,
          userId,
        ]);
        await changes.record({
          workspaceId: row.workspace_id,
          table: 'workspaces',
          entityId: row.workspace_id,
          op: 'upsert',
        });
      }
      let blobNames: string[] = [];
      if (doomed.length > 0) {
        // The ledger rows go with the workspace; the bytes after the commit (below).
        const { rows: blobs } = await tx.query<{ blob_name: string }>(
          'DELETE FROM file_blob WHERE workspace_id = ANY($1::uuid[]) RETURNING blob_name',
          [doomed],
        );
        blobNames = blobs.map((row) => row.blob_name);
        // Every row of the workspace goes by cascade; the change log has no key to it.
        await tx.query('DELETE FROM workspace WHERE id = ANY($1::uuid[])', [doomed]);
        await tx.query('DELETE FROM change_log WHERE workspace_id = ANY($1::uuid[])', [doomed]);
        await tx.query('DELETE FROM change_log_floor WHERE workspace_id = ANY($1::uuid[])', [
          doomed,
        ]);
      }
      forgetWorkspaceRoles(tx);

      // 4. What others keep, without the name.
      await tx.query(
        'DELETE FROM workspace_invite WHERE created_by = $1 OR ($2::text IS NOT NULL AND lower(email) = lower($2))',
        [userId, email],
      );
      if (fullName !== '') {
        await tx.query(
          `UPDATE notification SET title = left(replace(title, $2, $3), 200),
                                   body = left(replace(body, $2, $3), 2000)
           WHERE actor_id = $1`,
          [userId, fullName, DELETED_USER],
        );
      }
      await tx.query('UPDATE feedback SET user_id = NULL, email = NULL WHERE user_id = $1', [
        userId,
      ]);

      // 5. The person: device records, profile (notifications and calendar feed by cascade; the
      // workspaces they made keep going with owner_id emptied), and the auth user.
      await tx.query('DELETE FROM sync_mutation WHERE user_id = $1', [userId]);
      await tx.query('DELETE FROM sync_client WHERE user_id = $1', [userId]);
      await tx.query('DELETE FROM idempotency_key WHERE scope = $1', [`user:${userId}`]);
      await tx.query('DELETE FROM user_profile WHERE id = $1', [userId]);
      const endedSessions = await accounts.deleteUser(tx, userId, clientIp);

      afterCommit(async () => {
        // The other devices first, while their hub connections are still open: they sign out and
        // delete their copy of the data. Then the sessions end, which closes those connections.
        await deps.publisher?.publishAccountDeleted(userId);
        accounts.sessionsEnded(endedSessions);
      });
      const storage = deps.storage;
      if (storage && blobNames.length > 0) {
        afterCommit(async () => {
          for (const name of blobNames) {
            try {
              await storage.delete(name);
            } catch (error) {
              // No ledger row knows it any more: the orphan sweep removes it within a day.
              logger.warn({ err: error, blob: name }, 'account deletion: blob left to the sweep');
            }
          }
        });
      }
      if (email) {
        const summary = [
          ...transferred.map((entry) => `${entry.name} now belongs to ${entry.to}.`),
          ...alone.map((row) => `${row.name} was deleted with its projects, clients and files.`),
          ...left.map((row) => `You left ${row.name}; its work stays with its members.`),
        ];
        afterCommit(() => deps.mailer.send(accountDeletedMail(email, summary)));
      }
      return {
        deleted: true as const,
        transferred: transferred.map(({ workspaceId, newOwnerId }) => ({
          workspaceId,
          newOwnerId,
        })),
        deletedWorkspaceIds: doomed,
        leftWorkspaceIds: left.map((row) => row.workspace_id),
      };
    },
  };
}
