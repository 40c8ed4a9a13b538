/**
 * Deferred writes of a batch's fast path (run-operation.ts `batch` without savepoints, which is
 * rolled back whole on any failure): inserts that nothing reads back at once are queued, and
 * consecutive ones into the same table with the same shape go to the database as ONE multi-row
 * statement. On embedded PGlite a statement, not a row, is the cost: a push of 100 creates paid
 * for 100 inserts and now pays for one.
 *
 * What keeps this invisible to the operations:
 * - The batch's operations get `tx`, a wrapper that writes every queued insert before any other
 *   statement, so whatever an operation reads (a plan limit's count, a task's column) sees every
 *   write made before it, exactly as if each insert had run in its place.
 * - An insert's result (its RETURNING row, or none on ON CONFLICT DO NOTHING) goes to its `done`
 *   callback; an operation whose output waits on one returns a `DeferredOutput`, completed by the
 *   runner once the batch's writes are flushed. A failure there (a conflict) fails the batch's
 *   attempt, which the caller runs again carefully (push-mutations.ts).
 * - Facts learned in the batch (a row exists in a workspace) are kept for its rest: the whole
 *   attempt is one transaction rolled back on any failure, so a fact can never outlive the write
 *   that made it. Any DELETE forgets them all.
 */
import type { Queryable, QueryResult } from '../db/database.ts';

type Row = Record<string, unknown>;

export interface DeferredInsert {
  /** `INSERT INTO table (columns...)`: inserts with the same head, casts and tail merge. */
  into: string;
  /** Each value's cast in its placeholder ('' or '::jsonb', ...), in column order. */
  casts: readonly string[];
  values: readonly unknown[];
  /** What follows VALUES (`ON CONFLICT (id) DO NOTHING RETURNING ...`), if anything. */
  tail?: string;
  /** With a tail that returns rows: this row's id, which its returned row is matched by. */
  id?: string;
  /** Told the returned row (undefined when none came back: a conflict), once written. */
  done?: (row: Row | undefined) => void | Promise<void>;
}

/** An operation's output known only once the batch's writes are flushed. */
export class DeferredOutput {
  readonly value: () => unknown;
  constructor(value: () => unknown) {
    this.value = value;
  }
}

export interface BatchWrites {
  /** The batch's transaction for its operations: queued inserts are written before any statement. */
  readonly tx: Queryable;
  /** Queues an insert (merged with the previous one when they fit one statement). */
  insert(insert: DeferredInsert): void;
  /** Writes everything queued, in order; a failure leaves the attempt to be rolled back. */
  flush(): Promise<void>;
  /** A row of `table` known to exist in `workspaceId` in this batch (created or checked). */
  knows(table: string, id: string, workspaceId: string): boolean;
  remember(table: string, id: string, workspaceId: string): void;
}

/** Far below PostgreSQL's 65,535 parameters per statement. */
const MAX_PARAMS = 30_000;

interface Group {
  key: string;
  inserts: DeferredInsert[];
  ids: Set<string>;
  params: number;
}

const fact = (table: string, id: string, workspaceId: string) =>
  `${table}/${id.toLowerCase()}/${workspaceId.toLowerCase()}`;

const writesOf = new WeakMap<Queryable, BatchWrites>();

/** The deferred writes behind a batch's `tx`, if it has them (only a fast path's does). */
export function batchWritesOf(tx: Queryable): BatchWrites | undefined {
  return writesOf.get(tx);
}

export function createBatchWrites(raw: Queryable): BatchWrites {
  const groups: Group[] = [];
  const known = new Set<string>();
  let flushing = false;

  async function write(group: Group): Promise<void> {
    const first = group.inserts[0];
    if (!first) return;
    const params: unknown[] = [];
    const rows = group.inserts.map((insert) => {
      const placeholders = insert.values.map((value, index) => {
        params.push(value);
        return `$${params.length}${insert.casts[index] ?? ''}`;
      });
      return `(${placeholders.join(', ')})`;
    });
    const result = await raw.query<Row>(
      `${first.into} VALUES ${rows.join(', ')}${first.tail ? ` ${first.tail}` : ''}`,
      params,
    );
    const byId = new Map(result.rows.map((row) => [String(row.id).toLowerCase(), row]));
    for (const insert of group.inserts) {
      await insert.done?.(insert.id === undefined ? undefined : byId.get(insert.id.toLowerCase()));
    }
  }

  async function flush(): Promise<void> {
    if (flushing) return;
    flushing = true;
    try {
      for (let group = groups.shift(); group; group = groups.shift()) await write(group);
    } catch (error) {
      groups.length = 0;
      throw error;
    } finally {
      flushing = false;
    }
  }

  const tx: Queryable = {
    async query<R = Row>(sql: string, params?: unknown[]): Promise<QueryResult<R>> {
      // A `done` callback's statement runs in its place, while the flush that called it goes on.
      if (!flushing) await flush();
      if (/\bDELETE\b/i.test(sql)) known.clear();
      return raw.query<R>(sql, params);
    },
  };

  const writes: BatchWrites = {
    tx,
    insert(insert) {
      const key = `${insert.into}\n${insert.casts.join(',')}\n${insert.tail ?? ''}`;
      const id = insert.id?.toLowerCase();
      const last = groups.at(-1);
      // The same id twice in one statement could not tell its two rows apart: a new statement.
      const fits =
        last &&
        last.key === key &&
        (id === undefined || !last.ids.has(id)) &&
        last.params + insert.values.length <= MAX_PARAMS;
      const group = fits ? last : { key, inserts: [], ids: new Set<string>(), params: 0 };
      if (!fits) groups.push(group);
      group.inserts.push(insert);
      group.params += insert.values.length;
      if (id !== undefined) group.ids.add(id);
    },
    flush,
    knows: (table, id, workspaceId) => known.has(fact(table, id, workspaceId)),
    remember(table, id, workspaceId) {
      known.add(fact(table, id, workspaceId));
    },
  };
  writesOf.set(tx, writes);
  return writes;
}
