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

type Change = Parameters<ChangeRecorder['record']>[0];

/**
 * A batch's change log, written once before its commit: sequences are handed out from a block
 * reserved on the workspace's counter row (which stays locked until commit, so the order
 * guarantee above holds), the unused tail is given back, and the log rows go in one insert.
 * Only for a transaction that is rolled back whole on any failure: a savepoint rolled back after
 * handing out sequences would leave log rows for changes that never happened.
 */
export interface ChangeLogBuffer {
  record(change: Change): Promise<number>;
  flush(): Promise<void>;
}

export function createChangeLogBuffer(tx: Queryable, blockSize = 128): ChangeLogBuffer {
  const blocks = new Map<string, { next: number; end: number }>();
  const pending: (Change & { seq: number })[] = [];
  return {
    async record(change) {
      let block = blocks.get(change.workspaceId);
      if (!block || block.next > block.end) {
        const { rows } = await tx.query<{ seq: string }>(
          `INSERT INTO workspace_seq (workspace_id, seq) VALUES ($1::uuid, $2)
           ON CONFLICT (workspace_id) DO UPDATE SET seq = workspace_seq.seq + $2
           RETURNING seq`,
          [change.workspaceId, blockSize],
        );
        const end = Number(rows[0]?.seq);
        block = { next: end - blockSize + 1, end };
        blocks.set(change.workspaceId, block);
      }
      const seq = block.next;
      block.next += 1;
      pending.push({ ...change, seq });
      return seq;
    },
    async flush() {
      // Give back what was not used (the workspace's sequence has no gaps), in the statement
      // that writes the log: on embedded PGlite a statement, not a row, is the cost.
      const params: unknown[] = [];
      const unused: string[] = [];
      for (const [workspaceId, block] of blocks) {
        if (block.next > block.end) continue;
        params.push(workspaceId, block.next - 1);
        unused.push(`($${params.length - 1}::uuid, $${params.length}::bigint)`);
        block.end = block.next - 1;
      }
      const giveBack =
        unused.length === 0
          ? ''
          : `UPDATE workspace_seq SET seq = back.seq FROM (VALUES ${unused.join(', ')}) AS back (workspace_id, seq)
             WHERE workspace_seq.workspace_id = back.workspace_id`;
      if (pending.length === 0) {
        if (giveBack) await tx.query(giveBack, params);
        return;
      }
      const values = pending.map((change) => {
        params.push(change.workspaceId, change.seq, change.table, change.entityId, change.op);
        const n = params.length - 5;
        return `($${n + 1}::uuid, $${n + 2}::bigint, $${n + 3}, $${n + 4}::uuid, $${n + 5})`;
      });
      await tx.query(
        `${giveBack ? `WITH given_back AS (${giveBack}) ` : ''}INSERT INTO change_log (workspace_id, seq, table_name, entity_id, op) VALUES ${values.join(', ')}`,
        params,
      );
      pending.length = 0;
    },
  };
}

export function createChangeRecorder(tx: Queryable, buffer?: ChangeLogBuffer): ChangeRecorder {
  let lastSeq: number | null = null;
  const touched = new Map<string, { tables: Set<SyncedTable>; seq: number }>();
  const write = async ({ workspaceId, table, entityId, op }: Change): Promise<number> => {
    if (buffer) return buffer.record({ workspaceId, table, entityId, op });
    // One statement for the sequence bump and the log row: statements, not rows, are the cost
    // on embedded PGlite.
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
    return Number(rows[0]?.seq);
  };
  return {
    async record(change) {
      const { workspaceId, table } = change;
      const seq = await write(change);
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
