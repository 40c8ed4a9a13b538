/**
 * The sync issues panel's actions as data operations (the panel itself is later work). Discard:
 * a stuck entry leaves the outbox with its optimistic change rolled back (a refused one already
 * was). Retry: a stuck entry goes again at once; a refused change is queued anew (new mutation id)
 * and re-applied locally. The issue goes in the same transaction as the outbox change.
 * Entity-blind: a create's parent, a copy's label field and its create operation come from the
 * entity's contract declaration.
 */
import { entityNamed } from '#contract/synced-entities.ts';
import { entityTables, syncedTable, type AppDatabase } from '../db/app-database.ts';
import {
  newRowStamp,
  operationOf,
  parentRefs,
  writeCreate,
  writeDelete,
  writePatch,
} from '../db/local-write.ts';
import type { SyncIssue } from '../db/sync-issue.ts';
import { removeEntry } from './outbox-settlement.ts';

function scope(db: AppDatabase) {
  return [...entityTables(db), db.outbox, db.syncState, db.syncIssues];
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
  options: {
    userId: string;
    newId: () => string;
    now?: number;
    /** Edit and retry: the user's corrected values, in place of the refused ones. */
    args?: Record<string, unknown>;
  },
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
    const payload = options.args
      ? { ...issue.payload, args: { ...issue.payload.args, ...options.args } }
      : issue.payload;
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
      const args = payload.args as { id: string; workspaceId: string } & Record<string, unknown>;
      await writeCreate(db, {
        ...base,
        row: { ...args, ...newRowStamp(options.userId, now, issue.entity) },
        args: payload.args,
        label: payload.label,
        requires: parentRefs(issue.entity, args),
      });
    }
    await db.syncIssues.delete(issueId);
    return queued ? 'requeued' : 'unchanged';
  });
}

/** Fields a copy never takes over: identity, bookkeeping, and server-owned values. */
const NOT_COPIED = new Set(['id', 'version', 'createdAt', 'createdBy', 'updatedAt', 'updatedBy']);

/**
 * Keep a copy: the refused change's values become a new entity (new id, label marked as a copy),
 * so what the user typed survives even when the original can't take it (deleted, no access). The
 * issue goes with it. Resolves the new entity's id; throws when the workspace is gone from here.
 */
export async function keepSyncIssueCopy(
  db: AppDatabase,
  issueId: string,
  options: { userId: string; newId: () => string; now?: number },
): Promise<string | null> {
  const now = options.now ?? Date.now();
  return db.transaction('rw', scope(db), async () => {
    const issue = await db.syncIssues.get(issueId);
    if (!issue || issue.payload.op === 'delete') return null;
    const current = await syncedTable(db, issue.entity).get(issue.entityId);
    const values: Record<string, unknown> = {
      ...(current ?? {}),
      ...(issue.payload.op === 'create' ? issue.payload.args : {}),
      ...(issue.payload.op === 'patch' ? issue.payload.args : {}),
    };
    for (const key of Object.keys(values)) {
      if (key.startsWith('_') || NOT_COPIED.has(key)) delete values[key];
    }
    const entity = entityNamed(issue.entity);
    const id = options.newId();
    const label = values[entity.label];
    const name = `${typeof label === 'string' ? label : 'Untitled'} (copy)`;
    const args: Record<string, unknown> & { id: string; workspaceId: string } = {
      ...values,
      id,
      workspaceId: issue.workspaceId,
      [entity.label]: name,
    };
    await writeCreate(db, {
      userId: options.userId,
      mutationId: options.newId(),
      now,
      ...operationOf(entity.endpoints.create),
      entity: issue.entity,
      row: { ...args, ...newRowStamp(options.userId, now, issue.entity) },
      args,
      label: name,
      requires: parentRefs(issue.entity, args),
    });
    if (issue.reason === 'stuck') {
      const entry = await stuckEntry(db, issue);
      if (entry) await removeEntry(db, entry, 'rejected');
    }
    await db.syncIssues.delete(issueId);
    return id;
  });
}

/** Copy details: everything about the change, for a support message or the user's own notes. */
export function describeSyncIssueDetails(issue: SyncIssue): string {
  return JSON.stringify(
    {
      change: issue.title,
      reason: issue.reason,
      serverMessage: issue.serverMessage,
      httpStatus: issue.httpStatus,
      at: new Date(issue.createdAt).toISOString(),
      attempts: issue.attempts,
      operation: issue.payload.operation,
      entity: `${issue.entity} ${issue.entityId}`,
      values: issue.payload.args,
      mutationId: issue.mutationId,
    },
    null,
    2,
  );
}

/**
 * Undo of a change still waiting in its undo window (or otherwise not sent yet): the entry leaves
 * the outbox and its optimistic change is rolled back, as if it never happened. Resolves false
 * when it is already on its way or applied; the caller then says it is too late to undo.
 */
export async function cancelQueuedChange(db: AppDatabase, mutationId: string): Promise<boolean> {
  return db.transaction('rw', scope(db), async () => {
    const entry = await db.outbox.where('mutationId').equals(mutationId).first();
    if (!entry || entry.status !== 'pending') return false;
    await removeEntry(db, entry, 'rejected');
    return true;
  });
}

/**
 * "Use theirs" on an overwrite notice: their values go back as a new change (so every device
 * converges on them), and the notice goes. Resolves false when the entity is gone from here.
 */
export async function revertToTheirs(
  db: AppDatabase,
  issueId: string,
  options: { userId: string; newId: () => string; now?: number },
): Promise<boolean> {
  return db.transaction('rw', scope(db), async () => {
    const issue = await db.syncIssues.get(issueId);
    if (!issue?.overwrote) return false;
    const row = await syncedTable(db, issue.entity).get(issue.entityId);
    if (row && !row._deleted) {
      await writePatch(db, {
        userId: options.userId,
        mutationId: options.newId(),
        now: options.now ?? Date.now(),
        resource: issue.payload.resource,
        operation: issue.payload.operation,
        entity: issue.entity,
        id: issue.entityId,
        patch: issue.overwrote.theirs,
      });
    }
    await db.syncIssues.delete(issueId);
    return row !== undefined && !row._deleted;
  });
}
