/**
 * Applying pulled data to Dexie (sync spec b.4, b.5). Each page is ONE transaction: the acked
 * entries this page reaches leave the outbox (ack rule), rows are upserted with pending local
 * patches re-applied on top (entity-overlay.ts) or deleted, then the cursor moves. A row that an
 * ack releases and the page brings (the pull confirming a push) is written once: the server's row
 * over the row as the ack left it. A crash mid-page leaves the previous page's state and cursor,
 * so the page is simply fetched again.
 * Also here: the sweep that ends a reset, and the purge of a workspace the user lost access to.
 * Entity-blind: row schemas, tables, sweep and purge loop over the contract's declared entities,
 * so an entity that is declared is applied, swept and purged with no line here naming it.
 */
import * as v from 'valibot';
import { workspaceSchema } from '#contract/entities/workspace.ts';
import type { SyncChange, SyncedTable } from '#contract/sync.ts';
import { allEntities, entityOfTable } from '#contract/synced-entities.ts';
import {
  entityTables,
  syncedTable,
  type AppDatabase,
  type LocalWorkspace,
  type SyncedRow,
} from '../db/app-database.ts';
import { rebaseServerRow } from '../db/entity-overlay.ts';
import { stuckIssueId } from '../db/sync-issue.ts';
import type { WorkspaceSyncState } from '../db/sync-state.ts';
import type { OutboxEntry, EntityName } from '../db/outbox-entry.ts';
import { issueFor, takeEntries, type RowSettlement } from './outbox-settlement.ts';

/** The contract row schema of each table a pull may send. */
const ROW_SCHEMAS: ReadonlyMap<string, v.GenericSchema> = new Map<string, v.GenericSchema>([
  ['workspaces', workspaceSchema],
  ...allEntities().map((entity): [string, v.GenericSchema] => [entity.table, entity.rowSchema]),
]);

export interface CheckedPage {
  upserts: Map<SyncedTable, { id: string; row: Record<string, unknown>; version: number }[]>;
  deletes: Map<SyncedTable, string[]>;
  /** Highest change seq in the page. */
  maxSeq: number;
  /** Rows that did not match the contract and were left out (reported, never stored). */
  invalid: number;
}

/**
 * Checks each row against its contract schema before the transaction (valibot work outside it
 * keeps the IndexedDB transaction short). The row is stored as sent, so fields a newer server
 * adds survive without a local migration (b.12).
 */
export function checkPage(changes: readonly SyncChange[]): CheckedPage {
  const page: CheckedPage = { upserts: new Map(), deletes: new Map(), maxSeq: 0, invalid: 0 };
  for (const change of changes) {
    page.maxSeq = Math.max(page.maxSeq, change.seq);
    const schema = ROW_SCHEMAS.get(change.table);
    // A table this build does not know (a newer server's entity) has no place here: left out.
    if (!schema) {
      if (change.op === 'upsert') page.invalid += 1;
      continue;
    }
    if (change.op === 'delete') {
      page.deletes.set(change.table, [...(page.deletes.get(change.table) ?? []), change.id]);
      continue;
    }
    if (change.op !== 'upsert' || !change.row || !v.is(schema, change.row)) {
      if (change.op === 'upsert') page.invalid += 1;
      continue;
    }
    const row: Record<string, unknown> = change.row;
    const version = typeof row.version === 'number' ? row.version : change.seq;
    const list = page.upserts.get(change.table) ?? [];
    list.push({ id: change.id, row, version });
    page.upserts.set(change.table, list);
  }
  return page;
}

function pageScope(db: AppDatabase) {
  return [db.workspaces, ...entityTables(db), db.outbox, db.syncState, db.syncIssues];
}

export async function applyPullPage(
  db: AppDatabase,
  input: {
    workspaceId: string;
    page: CheckedPage;
    /**
     * The workspace's acked entries when the pull started, the only ones a page may take out of
     * the outbox (acks come from pushes alone, and a push never runs during a pull).
     */
    acked: readonly OutboxEntry[];
    /** Acked entries with ackSeq <= this leave (log pages); null: none by seq (snapshot pages). */
    coverUpToSeq: number | null;
    /** Every entry of `acked` leaves, whatever its seq (the final page of a pull). */
    coverAll: boolean;
    state: WorkspaceSyncState;
    /** Ids seen by a re-download, for the sweep that ends it. */
    seen: Set<string> | null;
  },
): Promise<void> {
  const { page, workspaceId } = input;
  const cover = input.coverUpToSeq;
  const candidates = input.acked.filter(
    (entry) =>
      entry.workspaceId === workspaceId &&
      (input.coverAll || (cover !== null && (entry.ackSeq ?? Infinity) <= cover)),
  );
  await db.transaction('rw', pageScope(db), async () => {
    // The entries this page reaches that are still here (an earlier page may have taken them):
    // the acked index's keys, not the entries, so a page never reads the outbox whole.
    let reached: OutboxEntry[] = [];
    if (candidates.length > 0) {
      const still = new Set(await db.outbox.where('status').equals('acked').primaryKeys());
      reached = candidates.filter((entry) => still.has(entry.seq));
    }
    // Their rows are worked out, not written yet: a row this page brings is written once, the
    // server's row with what remains pending on top (the ack rule and the overlay in one put).
    const settled: RowSettlement =
      reached.length > 0 ? await takeEntries(db, reached, 'applied') : new Map<never, never>();
    const merged = new Set<EntityName>();

    // Rows with local changes exist only while the workspace has outbox entries: without any,
    // a page is a plain bulkPut (the common case, and the one the benchmark measures).
    const hasLocal =
      (await db.outbox.where('workspaceId').equals(workspaceId).limit(1).primaryKeys()).length > 0;
    for (const [tableName, upserts] of page.upserts) {
      for (const { id } of upserts) input.seen?.add(id);
      if (tableName === 'workspaces') {
        await db.workspaces.bulkPut(
          upserts.map(({ row, version }) => ({ ...(row as LocalWorkspace), _v: version })),
        );
        continue;
      }
      const table = db.table<SyncedRow, string>(tableName);
      const entity = entityOfTable(tableName)?.name as EntityName | undefined;
      const mine = entity === undefined ? undefined : settled.get(entity);
      if (entity !== undefined) merged.add(entity);
      // Rows an applied delete (or its cascade) removed go first; the page may bring them back.
      if (mine && mine.gone.size > 0) await table.bulkDelete([...mine.gone]);
      const inPage = new Set(upserts.map(({ id }) => id));
      // Settled rows the page does not bring are written as they were worked out.
      const untouched = mine
        ? [...mine.puts.entries()].filter(([id]) => !inPage.has(id)).map(([, row]) => row)
        : [];
      if (!hasLocal) {
        // Nothing local to keep: the freshly parsed rows are stored as they are, plus the local
        // fields (no copy: this is the hot path of a first download).
        await table.bulkPut([
          ...(upserts.map(({ row, version }) =>
            Object.assign(row, { _v: version, _pending: 0, _deleted: false, _base: {} }),
          ) as SyncedRow[]),
          ...untouched,
        ]);
        continue;
      }
      // The local row: as settled when an entry of it just left, else as stored.
      const unread = [...inPage].filter((id) => !mine?.puts.has(id) && !mine?.gone.has(id));
      const stored = new Map<string, SyncedRow | undefined>();
      if (unread.length > 0) {
        (await table.bulkGet(unread)).forEach((row, index) => stored.set(unread[index]!, row));
      }
      const next: SyncedRow[] = [];
      upserts.forEach(({ id, row, version }) => {
        const settledRow = mine?.puts.get(id);
        const local = settledRow ?? stored.get(id);
        // Never let an older copy replace a newer one (the settled row is still written).
        if (local && local._v > version) {
          if (settledRow) next.push(settledRow);
          return;
        }
        next.push(rebaseServerRow<SyncedRow>(row, local, version));
      });
      await table.bulkPut([...next, ...untouched]);
    }
    // Settled rows of tables this page does not bring.
    for (const [entity, { puts, gone }] of settled) {
      if (merged.has(entity)) continue;
      const table = syncedTable(db, entity);
      await table.bulkPut([...puts.values()]);
      await table.bulkDelete([...gone]);
    }
    for (const [tableName, ids] of page.deletes) {
      // Delete wins over edit: pending local patches of a deleted row are refused by the server
      // later and become sync issues, with the user's values kept there.
      await db.table(tableName).bulkDelete(ids);
    }
    await db.syncState.put(input.state);
  });
}

/** End of a re-download: rows the snapshot did not contain are gone on the server. */
export async function sweepUnseen(
  db: AppDatabase,
  workspaceId: string,
  seen: ReadonlySet<string>,
): Promise<void> {
  await db.transaction('rw', entityTables(db), async () => {
    for (const table of entityTables(db)) {
      const rows = await table.where('workspaceId').equals(workspaceId).toArray();
      // Rows with pending local changes stay: a local create is not on the server yet.
      await table.bulkDelete(
        rows.filter((row) => !seen.has(row.id) && row._pending === 0).map((row) => row.id),
      );
    }
  });
}

/**
 * Lost access (scope_remove): the workspace's data leaves this device, and its queued changes
 * become `access_revoked` issues (kept with their payload, never silently dropped).
 */
export async function purgeWorkspace(
  db: AppDatabase,
  workspaceId: string,
  stateKey: string,
  now: number,
): Promise<void> {
  const fileStores = [db.uploads, db.fileCopies, db.keptProjects];
  await db.transaction('rw', [...pageScope(db), db.members, ...fileStores], async () => {
    const entries = await db.outbox.where('workspaceId').equals(workspaceId).sortBy('seq');
    for (const entry of entries) {
      await db.syncIssues.delete(stuckIssueId(entry.mutationId));
      if (entry.status !== 'acked') {
        await db.syncIssues.put(
          issueFor(
            entry,
            {
              reason: 'access_revoked',
              message: 'You no longer have access to this workspace.',
            },
            now,
          ),
        );
      }
    }
    await db.outbox.bulkDelete(entries.map((entry) => entry.seq));
    for (const table of entityTables(db)) {
      await table.where('workspaceId').equals(workspaceId).delete();
    }
    await db.members.where('workspaceId').equals(workspaceId).delete();
    // Waiting uploads and offline copies are the workspace's data too: they leave with it.
    for (const store of fileStores) await store.where('workspaceId').equals(workspaceId).delete();
    await db.workspaces.delete(workspaceId);
    await db.syncState.delete(stateKey);
  });
}
