/**
 * How outbox entries end, inside the caller's transaction so row and queue never disagree:
 * applied (a pull reached it: its overlay is released), rejected (rolled back, a sync issue keeps
 * the payload, dependents follow), or a temporary failure (kept with backoff; after 20 answered
 * failures or 24 h also shown as stuck, still retried).
 * Entity-blind: rows are found in the table of each entry's entity, and a cascade's hidden rows
 * (`cascadeIds`, plain ids) in the tables of that entity's descendants (contract parent edges).
 */
import { allEntities, childrenOf } from '#contract/synced-entities.ts';
import type { AnySyncedEntity } from '#contract/synced-entity.ts';
import { entityTables, syncedTable, type AppDatabase, type SyncedRow } from '../db/app-database.ts';
import { releaseFields } from '../db/entity-overlay.ts';
import type { EntityName, OutboxEntry } from '../db/outbox-entry.ts';
import {
  overwroteIssueId,
  stuckIssueId,
  type SyncIssue,
  type SyncIssueReason,
} from '../db/sync-issue.ts';
import { isStuck, retryDelayMs } from './backoff.ts';
import { describeMutation } from './describe-mutation.ts';

export function settlementScope(db: AppDatabase) {
  return [...entityTables(db), db.outbox, db.syncIssues];
}

/** The entities below `name` (children, grandchildren...): where its cascades hide rows. */
function descendantEntities(name: string): AnySyncedEntity[] {
  const below = childrenOf(name);
  return [...below, ...below.flatMap((child) => descendantEntities(child.name))];
}

/**
 * The entity of each row a cascade delete hid. The ids are plain (UUIDs, unique across tables),
 * so each descendant table is asked; with one descendant table nothing needs reading.
 */
async function locateCascade(
  db: AppDatabase,
  entity: EntityName,
  ids: readonly string[],
): Promise<{ entity: EntityName; id: string }[]> {
  const tables = descendantEntities(entity);
  const only = tables.length === 1 ? tables[0] : undefined;
  if (only) return ids.map((id) => ({ entity: only.name as EntityName, id }));
  const found: { entity: EntityName; id: string }[] = [];
  for (const table of tables) {
    const rows = await syncedTable(db, table.name as EntityName).bulkGet([...ids]);
    rows.forEach((row) => {
      if (row) found.push({ entity: table.name as EntityName, id: row.id });
    });
  }
  return found;
}

/** Above this many rows, the remaining queue is read whole (one getAll) instead of per row. */
const PER_ROW_LOOKUPS = 20;

const rowKey = (entity: string, id: string) => `${entity}:${id}`;

/** Runs shorter than this are deleted key by key (a range delete costs a count and a delete). */
const MIN_RANGE_DELETE = 3;

/**
 * Deletes entries from the outbox: one range request per run of consecutive seqs (a pushed batch,
 * a pull page's acks) instead of one request per entry; scattered entries go in one bulkDelete.
 */
export async function deleteEntries(
  db: AppDatabase,
  entries: readonly { seq: number }[],
): Promise<void> {
  const seqs = [...new Set(entries.map((entry) => entry.seq))].sort((a, b) => a - b);
  const single: number[] = [];
  let from = 0;
  for (let index = 1; index <= seqs.length; index += 1) {
    if (index < seqs.length && seqs[index] === seqs[index - 1]! + 1) continue;
    // seqs[from..index-1] is a run of consecutive keys: every key in its range is to go.
    if (index - from >= MIN_RANGE_DELETE) {
      await db.outbox
        .where(':id')
        .between(seqs[from], seqs[index - 1], true, true)
        .delete();
    } else {
      single.push(...seqs.slice(from, index));
    }
    from = index;
  }
  await db.outbox.bulkDelete(single);
}

/**
 * What taking entries out of the outbox does to their rows, per entity: the rows as they are
 * to be written back (`puts`, by id) and the rows that are gone (`gone`). Computed, not written.
 */
export type RowSettlement = Map<EntityName, { puts: Map<string, SyncedRow>; gone: Set<string> }>;

/**
 * Takes entries out of the outbox and works out what becomes of their rows (and of the rows a
 * cascade delete hid), with a few bulk reads however many entries there are: a pull may ack
 * thousands. The rows are not written here: removeEntries writes them; a pull page merges them
 * with the server rows it brings, so a confirmed row is written once.
 * `restore`: fields no other pending patch overlays go back to the last known server value (false
 * only when the server applied the change without a seq to wait for: the local value is then the
 * server's).
 */
export async function takeEntries(
  db: AppDatabase,
  entries: readonly OutboxEntry[],
  outcome: 'applied' | 'rejected',
  restore = true,
): Promise<RowSettlement> {
  const settled: RowSettlement = new Map();
  if (entries.length === 0) return settled;
  await deleteEntries(db, entries);

  const touched = new Map<string, { entity: EntityName; id: string }>();
  const removed = new Map<string, OutboxEntry[]>();
  const cascadedBy = new Map<string, Set<string>>();
  for (const entry of entries) {
    const key = rowKey(entry.entity, entry.entityId);
    touched.set(key, { entity: entry.entity, id: entry.entityId });
    removed.set(key, [...(removed.get(key) ?? []), entry]);
    if (!entry.cascadeIds?.length) continue;
    for (const hidden of await locateCascade(db, entry.entity, entry.cascadeIds)) {
      const hiddenKey = rowKey(hidden.entity, hidden.id);
      touched.set(hiddenKey, hidden);
      cascadedBy.set(hiddenKey, (cascadedBy.get(hiddenKey) ?? new Set()).add(entry.mutationId));
    }
  }
  const leaving = (key: string) =>
    (removed.get(key)?.length ?? 0) + (cascadedBy.get(key)?.size ?? 0);

  const rows = new Map<string, SyncedRow>();
  for (const entity of allEntities().map((declared) => declared.name as EntityName)) {
    const ids = [...touched.values()].filter((ref) => ref.entity === entity).map((ref) => ref.id);
    if (ids.length === 0) continue;
    (await syncedTable(db, entity).bulkGet(ids)).forEach((row, index) => {
      const id = ids[index];
      if (row && id !== undefined) rows.set(rowKey(entity, id), row);
    });
  }

  // A row's `_pending` counts every entry touching it (its own and its ancestors' cascades), so
  // only a row counting more than the entries leaving now has others left to look up: a pull
  // confirming creates or plain edits reads no more of the outbox.
  const others = [...touched.entries()]
    .filter(([key]) => (rows.get(key)?._pending ?? 0) > leaving(key))
    .map(([, ref]) => ref);
  // (No await at all when nothing is left to look up: a bare await of a non-Dexie promise would
  // let the caller's transaction commit under it.)
  const left =
    others.length === 0
      ? []
      : others.length > PER_ROW_LOOKUPS
        ? (await db.outbox.toArray()).filter((entry) =>
            touched.has(rowKey(entry.entity, entry.entityId)),
          )
        : (
            await Promise.all(
              others.map((ref) =>
                db.outbox.where('[entity+entityId]').equals([ref.entity, ref.id]).toArray(),
              ),
            )
          ).flat();
  const remaining = new Map<string, OutboxEntry[]>();
  for (const entry of left) {
    const key = rowKey(entry.entity, entry.entityId);
    remaining.set(key, [...(remaining.get(key) ?? []), entry]);
  }

  for (const { entity, id } of touched.values()) {
    const key = rowKey(entity, id);
    const row = rows.get(key);
    if (!row) continue;
    const own = removed.get(key) ?? [];
    const rest = remaining.get(key) ?? [];
    const cascades = cascadedBy.get(key) ?? new Set<string>();
    const outcomeOf = settled.get(entity) ?? { puts: new Map(), gone: new Set() };
    settled.set(entity, outcomeOf);
    if (
      (outcome === 'rejected' && own.some((entry) => entry.op === 'create')) ||
      (outcome === 'applied' && own.some((entry) => entry.op === 'delete')) ||
      // The server deleted the cascade's rows with their ancestor.
      (outcome === 'applied' && cascades.size > 0)
    ) {
      outcomeOf.gone.add(id);
      continue;
    }
    const overlaid = new Set(
      rest.filter((other) => other.op === 'patch').flatMap((other) => Object.keys(other.args)),
    );
    const fields = [
      ...new Set(
        own.filter((entry) => entry.op === 'patch').flatMap((entry) => Object.keys(entry.args)),
      ),
    ];
    const released = releaseFields(row, fields, overlaid);
    // Applied without a seq to wait for: the local value is the server's; keep showing it.
    const kept = restore
      ? {}
      : pick(
          row,
          fields.filter((field) => !overlaid.has(field)),
        );
    const { _cascadeOf, ...plain } = { ...released, ...kept };
    const cascadeOf = (_cascadeOf ?? []).filter((mutationId) => !cascades.has(mutationId));
    outcomeOf.puts.set(id, {
      ...plain,
      ...(cascadeOf.length > 0 ? { _cascadeOf: cascadeOf } : {}),
      _pending: Math.max(0, row._pending - own.length - cascades.size),
      _deleted: rest.some((other) => other.op === 'delete') || cascadeOf.length > 0,
    });
  }
  return settled;
}

/**
 * Takes entries out of the outbox and fixes their rows (and the rows a cascade delete hid), in
 * the caller's transaction: takeEntries, then its rows written. (The writes are here, not in a
 * helper: each async layer between a Dexie await and the caller's next request costs the caller's
 * native await its transaction zone.)
 */
export async function removeEntries(
  db: AppDatabase,
  entries: readonly OutboxEntry[],
  outcome: 'applied' | 'rejected',
  restore = true,
): Promise<void> {
  if (entries.length === 0) return;
  const settled = await takeEntries(db, entries, outcome, restore);
  for (const [entity, { puts, gone }] of settled) {
    const table = syncedTable(db, entity);
    await table.bulkPut([...puts.values()]);
    await table.bulkDelete([...gone]);
  }
}

export function removeEntry(
  db: AppDatabase,
  entry: OutboxEntry,
  outcome: 'applied' | 'rejected',
  restore = true,
): Promise<void> {
  return removeEntries(db, [entry], outcome, restore);
}

function pick(row: Record<string, unknown>, fields: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(fields.map((field) => [field, row[field]]));
}

export interface Rejection {
  status?: number;
  reason: SyncIssueReason;
  message: string;
}

export function issueFor(
  entry: OutboxEntry,
  rejection: Rejection,
  now: number,
  id = entry.mutationId,
): SyncIssue {
  return {
    id,
    mutationId: entry.mutationId,
    workspaceId: entry.workspaceId,
    entity: entry.entity,
    entityId: entry.entityId,
    title: describeMutation(entry),
    reason: rejection.reason,
    serverMessage: rejection.message,
    ...(rejection.status === undefined ? {} : { httpStatus: rejection.status }),
    createdAt: now,
    attempts: entry.attempts,
    payload: {
      resource: entry.resource,
      operation: entry.operation,
      query: entry.query,
      op: entry.op,
      args: entry.args,
      label: entry.label,
    },
    ...(entry.baseValues ? { baseValues: entry.baseValues } : {}),
    resolved: false,
  };
}

/**
 * Final refusal: roll back, record the issue, and refuse what cannot stand without this change
 * (later changes of an entity whose create failed; entries that depend on it).
 */
export async function rejectEntry(
  db: AppDatabase,
  entry: OutboxEntry,
  rejection: Rejection,
  now: number,
): Promise<void> {
  await removeEntry(db, entry, 'rejected');
  await db.syncIssues.delete(stuckIssueId(entry.mutationId));
  await db.syncIssues.put(issueFor(entry, rejection, now));
  const title = describeMutation(entry);
  const dependents = (await db.outbox.toArray())
    .filter(
      (other) =>
        other.status !== 'acked' &&
        (other.dependsOn.includes(entry.mutationId) ||
          (entry.op === 'create' &&
            other.entity === entry.entity &&
            other.entityId === entry.entityId)),
    )
    .sort((a, b) => a.seq - b.seq);
  for (const dependent of dependents) {
    // Re-read: an earlier cascade step may have removed it already.
    const current = await db.outbox.get(dependent.seq);
    if (!current) continue;
    await rejectEntry(
      db,
      current,
      { reason: rejection.reason, message: `Depends on "${title}", which couldn't be saved.` },
      now,
    );
  }
}

/**
 * A temporary failure the server answered: counted for the stuck rule. `ownBackoff`: this entry
 * alone failed (a batch stopped at it), so it waits on its own and the rest of the queue goes on;
 * false when the whole request failed and the engine's backoff paces everything.
 */
export async function failTemporarily(
  db: AppDatabase,
  entry: OutboxEntry,
  failure: { status: number; code: string; message: string; retryAfterMs?: number },
  now: number,
  random: () => number,
  ownBackoff = true,
): Promise<OutboxEntry> {
  const attempts = entry.attempts + 1;
  const firstFailedAt = entry.firstFailedAt ?? now;
  const stuck = isStuck({ attempts, firstFailedAt }, now);
  const next: OutboxEntry = {
    ...entry,
    attempts,
    firstFailedAt,
    status: stuck ? 'stuck' : 'retry',
    nextAttemptAt: ownBackoff ? now + retryDelayMs(attempts - 1, random, failure.retryAfterMs) : 0,
    lastError: {
      httpStatus: failure.status,
      code: failure.code,
      message: failure.message,
      at: now,
    },
  };
  await db.outbox.put(next);
  if (stuck && !(await db.syncIssues.get(stuckIssueId(entry.mutationId)))) {
    await db.syncIssues.put(
      issueFor(
        next,
        {
          status: failure.status,
          reason: 'stuck',
          message: `Still trying: ${failure.message}`,
        },
        now,
        stuckIssueId(entry.mutationId),
      ),
    );
  }
  return next;
}

/**
 * The server applied this patch over someone else's edit of the same fields: a notice in the sync
 * issues panel ("yours was applied") with their values kept for a one-click revert.
 */
export async function recordOverwrite(
  db: AppDatabase,
  entry: OutboxEntry,
  conflict: { fields: string[]; theirs: Record<string, unknown>; by: string | null },
  now: number,
): Promise<void> {
  await db.syncIssues.put({
    id: overwroteIssueId(entry.mutationId),
    mutationId: entry.mutationId,
    workspaceId: entry.workspaceId,
    entity: entry.entity,
    entityId: entry.entityId,
    title: describeMutation(entry),
    reason: 'conflict',
    serverMessage: '',
    createdAt: now,
    attempts: entry.attempts + 1,
    payload: {
      resource: entry.resource,
      operation: entry.operation,
      query: entry.query,
      op: entry.op,
      args: entry.args,
      label: entry.label,
    },
    resolved: false,
    overwrote: conflict,
  });
}
