/**
 * The sync issues panel's actions as data operations (the panel itself is later work). Discard:
 * a stuck entry leaves the outbox with its optimistic change rolled back (a refused one already
 * was). Retry: a stuck entry goes again at once; a refused change is queued anew (new mutation id)
 * and re-applied locally. The issue goes in the same transaction as the outbox change.
 */
import type { AppDatabase } from '../db/app-database.ts';
import { writeCreate, writeDelete, writePatch } from '../db/local-write.ts';
import type { SyncIssue } from '../db/sync-issue.ts';
import { removeEntry } from './outbox-settlement.ts';

function scope(db: AppDatabase) {
  return [db.clients, db.projects, db.outbox, db.syncState, db.syncIssues];
}

async function stuckEntry(db: AppDatabase, issue: SyncIssue) {
  return issue.reason === 'stuck'
    ? db.outbox.where('mutationId').equals(issue.mutationId).first()
    : undefined;
}

export async function discardSyncIssue(db: AppDatabase, issueId: string): Promise<void> {
  await db.transaction('rw', scope(db), async () => {
    const issue = await db.syncIssues.get(issueId);
    if (!issue) return;
    const entry = await stuckEntry(db, issue);
    if (entry) await removeEntry(db, entry, 'rejected');
    await db.syncIssues.delete(issueId);
  });
}

/**
 * Resolves 'retrying' (a stuck entry goes again), 'requeued' (a refused change queued anew), or
 * 'unchanged' (nothing left to send: the values are already what the change wanted). Throws the
 * local write's error (LocalWriteError 'not_found' when the row is gone), leaving the issue.
 */
export async function retrySyncIssue(
  db: AppDatabase,
  issueId: string,
  options: { userId: string; newId: () => string; now?: number },
): Promise<'retrying' | 'requeued' | 'unchanged'> {
  const now = options.now ?? Date.now();
  return db.transaction('rw', scope(db), async () => {
    const issue = await db.syncIssues.get(issueId);
    if (!issue) return 'unchanged';
    const entry = await stuckEntry(db, issue);
    if (entry) {
      const { firstFailedAt: _first, ...fresh } = entry;
      await db.outbox.put({ ...fresh, status: 'retry', attempts: 0, nextAttemptAt: 0 });
      await db.syncIssues.delete(issueId);
      return 'retrying';
    }
    const { payload } = issue;
    const base = {
      userId: options.userId,
      mutationId: options.newId(),
      now,
      resource: payload.resource,
      operation: payload.operation,
      entity: issue.entity,
    };
    let queued = true;
    if (payload.op === 'patch') {
      queued =
        (await writePatch(db, { ...base, id: issue.entityId, patch: payload.args })) !== null;
    } else if (payload.op === 'delete') {
      await writeDelete(db, {
        ...base,
        id: issue.entityId,
        cascade: payload.query.cascade === 'true',
      });
    } else {
      const at = new Date(now).toISOString();
      const args = payload.args as { id: string; workspaceId: string; name: string } & Record<
        string,
        unknown
      >;
      const clientId = args.clientId;
      await writeCreate(db, {
        ...base,
        row: {
          ...args,
          archived: false,
          createdAt: at,
          createdBy: options.userId,
          updatedAt: at,
          updatedBy: options.userId,
          version: 0,
        },
        args: payload.args,
        label: payload.label,
        ...(typeof clientId === 'string' ? { requires: [{ entity: 'client', id: clientId }] } : {}),
      });
    }
    await db.syncIssues.delete(issueId);
    return queued ? 'requeued' : 'unchanged';
  });
}
