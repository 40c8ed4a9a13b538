/**
 * Sync pull for one workspace, read in one transaction (one consistent snapshot).
 * - No cursor: a snapshot of current rows, table by table in id order, in pages; the last page
 *   hands over to the change log at the sequence the snapshot started from.
 * - Log cursor: change-log entries after it. A cursor older than the retained log gets
 *   `{reset: true}`; the client re-downloads the workspace and keeps its outbox.
 * - A caller who is not (or no longer) a member gets a `scope_remove` of the workspace and
 *   nothing else, so the device purges what it had.
 * Rows are sent as the contract shapes; an entity changed several times in one page is sent once.
 */
import type { PullOutput, SyncChange, SyncedTable } from '#contract/sync.ts';
import type { Queryable } from '../db/database.ts';
import { allEntities } from '#contract/synced-entities.ts';
import { entitySql } from '../endpoints/entity-sql.ts';
import { toWorkspace, WORKSPACE_COLUMNS, type WorkspaceRow } from '../endpoints/row-mappers.ts';
import { decodeCursor, encodeCursor, type SyncCursor } from './sync-cursor.ts';

interface TableReader {
  table: SyncedTable;
  /** Rows by id, of this workspace only. */
  byIds(
    tx: Queryable,
    workspaceId: string,
    ids: string[],
  ): Promise<{ id: string; row: Record<string, unknown> }[]>;
  /** A page of rows with id > after, in id order. */
  page(
    tx: Queryable,
    workspaceId: string,
    after: string | null,
    limit: number,
  ): Promise<{ id: string; row: Record<string, unknown> }[]>;
}

function reader<R extends { id: string }>(
  table: SyncedTable,
  sqlTable: string,
  columns: string,
  workspaceColumn: string,
  map: (row: R) => object,
): TableReader {
  const wrap = (rows: R[]) =>
    rows.map((row) => ({ id: row.id, row: map(row) as Record<string, unknown> }));
  return {
    table,
    async byIds(tx, workspaceId, ids) {
      if (ids.length === 0) return [];
      const { rows } = await tx.query<R>(
        `SELECT ${columns} FROM ${sqlTable} WHERE ${workspaceColumn} = $1 AND id = ANY($2::uuid[])`,
        [workspaceId, ids],
      );
      return wrap(rows);
    },
    async page(tx, workspaceId, after, limit) {
      const { rows } = await tx.query<R>(
        `SELECT ${columns} FROM ${sqlTable} WHERE ${workspaceColumn} = $1 AND ($2::uuid IS NULL OR id > $2) ORDER BY id LIMIT $3`,
        [workspaceId, after, limit],
      );
      return wrap(rows);
    },
  };
}

/**
 * Snapshot order is the registry's parent order: a row's parent arrives before (or in the same
 * page as) the row.
 */
const READERS: readonly TableReader[] = [
  reader<WorkspaceRow>('workspaces', 'workspace', WORKSPACE_COLUMNS, 'id', toWorkspace),
  ...allEntities().map((entity) => {
    const sql = entitySql(entity);
    return reader<Record<string, unknown> & { id: string }>(
      entity.table as SyncedTable,
      sql.table,
      sql.select,
      'workspace_id',
      (row) => sql.toRow(row),
    );
  }),
];

export async function pullChanges(
  tx: Queryable,
  input: { workspaceId: string; userId: string; cursor: string | undefined; limit: number },
): Promise<PullOutput> {
  const cursor: SyncCursor | null = input.cursor === undefined ? null : decodeCursor(input.cursor);
  const member = await tx.query(
    'SELECT 1 FROM workspace_member WHERE workspace_id = $1 AND user_id = $2',
    [input.workspaceId, input.userId],
  );
  const head = await currentSeq(tx, input.workspaceId);
  if (member.rowCount === 0) {
    return {
      changes: [{ table: 'workspaces', id: input.workspaceId, op: 'scope_remove', seq: head }],
      cursor: encodeCursor({ v: 1, p: 'log', seq: 0 }),
      hasMore: false,
    };
  }
  if (cursor === null || cursor.p === 'snap') {
    return snapshotPage(tx, input, cursor ?? { v: 1, p: 'snap', at: head, table: 0, after: null });
  }
  return logPage(tx, input, cursor.seq, head);
}

async function currentSeq(tx: Queryable, workspaceId: string): Promise<number> {
  const { rows } = await tx.query<{ seq: string }>(
    'SELECT seq FROM workspace_seq WHERE workspace_id = $1',
    [workspaceId],
  );
  return Number(rows[0]?.seq ?? 0);
}

async function snapshotPage(
  tx: Queryable,
  input: { workspaceId: string; limit: number },
  start: Extract<SyncCursor, { p: 'snap' }>,
): Promise<PullOutput> {
  const changes: SyncChange[] = [];
  let table = start.table;
  let after = start.after;
  while (table < READERS.length) {
    const reader = READERS[table] as TableReader;
    const room = input.limit - changes.length;
    const rows = await reader.page(tx, input.workspaceId, after, room);
    for (const { id, row } of rows)
      changes.push({
        table: reader.table,
        id,
        op: 'upsert',
        row,
        seq: Number(row.version ?? start.at),
      });
    if (rows.length === room) {
      const last = rows.at(-1)?.id ?? null;
      return {
        changes,
        cursor: encodeCursor({ v: 1, p: 'snap', at: start.at, table, after: last }),
        hasMore: true,
      };
    }
    table += 1;
    after = null;
  }
  return { changes, cursor: encodeCursor({ v: 1, p: 'log', seq: start.at }), hasMore: false };
}

async function logPage(
  tx: Queryable,
  input: { workspaceId: string; limit: number },
  since: number,
  head: number,
): Promise<PullOutput> {
  if (since > head) return { reset: true };
  const floor = await tx.query<{ min_seq: string }>(
    'SELECT min_seq FROM change_log_floor WHERE workspace_id = $1',
    [input.workspaceId],
  );
  const minSeq = Number(floor.rows[0]?.min_seq ?? 0);
  if (since + 1 < minSeq) return { reset: true };

  const { rows } = await tx.query<{
    seq: string;
    table_name: SyncedTable;
    entity_id: string;
    op: 'upsert' | 'delete';
  }>(
    'SELECT seq, table_name, entity_id, op FROM change_log WHERE workspace_id = $1 AND seq > $2 ORDER BY seq LIMIT $3',
    [input.workspaceId, since, input.limit + 1],
  );
  const hasMore = rows.length > input.limit;
  const entries = rows.slice(0, input.limit);
  // Keep each entity's last entry in the page: its current row (or its deletion) is what counts.
  const last = new Map<string, (typeof entries)[number]>();
  for (const entry of entries) {
    const key = `${entry.table_name}:${entry.entity_id}`;
    last.delete(key);
    last.set(key, entry);
  }
  const wanted = new Map<SyncedTable, string[]>();
  for (const entry of last.values()) {
    if (entry.op === 'upsert')
      wanted.set(entry.table_name, [...(wanted.get(entry.table_name) ?? []), entry.entity_id]);
  }
  const current = new Map<string, Record<string, unknown>>();
  for (const reader of READERS) {
    for (const { id, row } of await reader.byIds(
      tx,
      input.workspaceId,
      wanted.get(reader.table) ?? [],
    ))
      current.set(`${reader.table}:${id}`, row);
  }
  const changes: SyncChange[] = [];
  for (const [key, entry] of last) {
    const seq = Number(entry.seq);
    if (entry.op === 'delete') {
      changes.push({ table: entry.table_name, id: entry.entity_id, op: 'delete', seq });
      continue;
    }
    const row = current.get(key);
    // Gone already: its deletion is a later log entry, which this or a later page delivers.
    if (row) changes.push({ table: entry.table_name, id: entry.entity_id, op: 'upsert', row, seq });
  }
  const end = entries.length > 0 ? Number(entries.at(-1)?.seq) : since;
  return { changes, cursor: encodeCursor({ v: 1, p: 'log', seq: end }), hasMore };
}
