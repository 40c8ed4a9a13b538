/**
 * Writes the change log. Every entity write calls `record` inside its transaction: the
 * workspace's counter row is bumped (its row lock orders the workspace's writers, so sequences
 * commit in order and pulls never skip a slower transaction) and a change_log row is added.
 * The recorder remembers the highest sequence it handed out, which a pushed mutation stores as
 * the point a pull must reach before the client drops its optimistic copy.
 */
import type { SyncedTable } from '#contract/sync.ts';
import type { Queryable } from '../db/database.ts';

export interface ChangeRecorder {
  record(change: {
    workspaceId: string;
    table: SyncedTable;
    entityId: string;
    op: 'upsert' | 'delete';
  }): Promise<number>;
  /** Highest sequence recorded so far in this transaction, or null. */
  readonly lastSeq: number | null;
  /** Workspaces changed in this transaction (for invalidation after commit). */
  readonly touched: ReadonlyMap<string, { tables: Set<SyncedTable>; seq: number }>;
}

export function createChangeRecorder(tx: Queryable): ChangeRecorder {
  let lastSeq: number | null = null;
  const touched = new Map<string, { tables: Set<SyncedTable>; seq: number }>();
  return {
    async record({ workspaceId, table, entityId, op }) {
      // One statement for the sequence bump and the log row: statements, not rows, are the cost
      // on embedded PGlite (a sync push writes one change per mutation).
      const { rows } = await tx.query<{ seq: string }>(
        `WITH next AS (
           INSERT INTO workspace_seq (workspace_id, seq) VALUES ($1::uuid, 1)
           ON CONFLICT (workspace_id) DO UPDATE SET seq = workspace_seq.seq + 1
           RETURNING seq
         )
         INSERT INTO change_log (workspace_id, seq, table_name, entity_id, op)
         SELECT $1::uuid, seq, $2::text, $3::uuid, $4::text FROM next
         RETURNING seq`,
        [workspaceId, table, entityId, op],
      );
      const seq = Number(rows[0]?.seq);
      lastSeq = Math.max(lastSeq ?? 0, seq);
      const entry = touched.get(workspaceId) ?? { tables: new Set<SyncedTable>(), seq };
      entry.tables.add(table);
      entry.seq = Math.max(entry.seq, seq);
      touched.set(workspaceId, entry);
      return seq;
    },
    get lastSeq() {
      return lastSeq;
    },
    get touched() {
      return touched;
    },
  };
}
