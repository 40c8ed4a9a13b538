/**
 * Rows a live entity's writes pushed through the hub (rowsChanged), stored as they arrive so an
 * open chat shows another member's message without waiting for a pull. Entity-blind like
 * apply-pull-page.ts: the table's contract row schema checks each row.
 *
 * Invariants:
 * - A row never replaces the same or a newer version already here (a pull may have been faster),
 *   and pending local changes stay on top of it (entity-overlay.ts), as a pull would keep them.
 * - The sync cursor does not move: the change log stays the record, and the next pull brings the
 *   same rows again (a no-op then). A live row is only ever an early copy.
 * - A row for a workspace this device does not hold, a table it does not know, or a row that does
 *   not match the contract is ignored (counted in the result, never stored).
 * Any tab may call this, not just the sync leader: every open tab has its own hub connection.
 */
import * as v from 'valibot';
import { entityOfTable } from '#contract/synced-entities.ts';
import type { AppDatabase, SyncedRow } from '../db/app-database.ts';
import { rebaseServerRow } from '../db/entity-overlay.ts';

export interface LiveRows {
  workspaceId: string;
  table: string;
  rows: readonly Record<string, unknown>[];
}

/** Stores what is new; resolves how many rows were stored and how many were left out. */
export async function applyLiveRows(
  db: AppDatabase,
  message: LiveRows,
): Promise<{ stored: number; ignored: number }> {
  const entity = entityOfTable(message.table);
  if (!entity?.live) return { stored: 0, ignored: message.rows.length };
  const rows = message.rows.filter(
    (row) => row.workspaceId === message.workspaceId && v.is(entity.rowSchema, row),
  );
  const ignored = message.rows.length - rows.length;
  if (rows.length === 0) return { stored: 0, ignored };
  const table = db.table<SyncedRow, string>(entity.table);
  return db.transaction('rw', [db.workspaces, table], async () => {
    // A workspace this device dropped (or never had) takes nothing from the hub.
    if (!(await db.workspaces.get(message.workspaceId))) {
      return { stored: 0, ignored: message.rows.length };
    }
    const locals = await table.bulkGet(rows.map((row) => String(row.id)));
    const next: SyncedRow[] = [];
    rows.forEach((row, index) => {
      const local = locals[index];
      const version = Number(row.version);
      if (local && local._v >= version) return;
      // A pending delete of this row stays a pending delete.
      if (local?._deleted) return;
      next.push(rebaseServerRow<SyncedRow>({ ...row }, local, version));
    });
    await table.bulkPut(next);
    return { stored: next.length, ignored: ignored + rows.length - next.length };
  });
}
