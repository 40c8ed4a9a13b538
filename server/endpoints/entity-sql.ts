/**
 * A synced entity's SQL, derived from its declaration (contract/synced-entity.ts): the columns in
 * contract order, the SELECT list that reads them in the contract's shapes (dates as YYYY-MM-DD,
 * numerics as decimal strings, bigints and versions as numbers, timestamps as ISO strings), the
 * mapping of a database row to the contract row, and the casts a write needs. Column names come
 * from the declaration only, never from a request, so no input can name a column.
 */
import { columnOf, type AnySyncedEntity, type SqlCodec } from '#contract/synced-entity.ts';

export interface EntityColumn {
  key: string;
  column: string;
  sql: SqlCodec | 'timestamptz' | 'version' | undefined;
}

export interface EntitySql {
  readonly entity: AnySyncedEntity;
  readonly table: string;
  readonly columns: readonly EntityColumn[];
  /** The SELECT list (every column, in the contract's shapes). */
  readonly select: string;
  /** A database row to the contract row. */
  toRow(row: Record<string, unknown>): Record<string, unknown>;
  /** `$n` with the cast its column needs, and the value as the driver should get it. */
  param(key: string, n: number): string;
  encode(key: string, value: unknown): unknown;
  column(key: string): EntityColumn | undefined;
}

const cache = new WeakMap<AnySyncedEntity, EntitySql>();

export function entitySql(entity: AnySyncedEntity): EntitySql {
  const known = cache.get(entity);
  if (known) return known;
  const parentKey = entity.parent?.key;
  const columns: EntityColumn[] = [
    { key: 'id', column: 'id', sql: undefined },
    { key: 'workspaceId', column: 'workspace_id', sql: undefined },
    ...(parentKey ? [{ key: parentKey, column: columnOf(entity, parentKey), sql: undefined }] : []),
    ...Object.entries(entity.fields).map(([key, def]) => ({
      key,
      column: columnOf(entity, key),
      sql: def.sql,
    })),
    { key: 'createdAt', column: 'created_at', sql: 'timestamptz' },
    { key: 'createdBy', column: 'created_by', sql: undefined },
    { key: 'updatedAt', column: 'updated_at', sql: 'timestamptz' },
    { key: 'updatedBy', column: 'updated_by', sql: undefined },
    { key: 'version', column: 'version', sql: 'version' },
  ];
  const byKey = new Map(columns.map((column) => [column.key, column]));
  const select = columns
    .map(({ column, sql }) => {
      if (sql === 'date') return `to_char(${column}, 'YYYY-MM-DD') AS ${column}`;
      if (sql === 'numeric') return `${column}::text AS ${column}`;
      return column;
    })
    .join(', ');
  const sql: EntitySql = {
    entity,
    table: entity.sqlTable,
    columns,
    select,
    toRow(row) {
      const out: Record<string, unknown> = {};
      for (const { key, column, sql: codec } of columns) {
        const value = row[column];
        if (value === null || value === undefined) out[key] = value ?? null;
        else if (codec === 'timestamptz')
          out[key] =
            value instanceof Date ? value.toISOString() : new Date(value as string).toISOString();
        else if (codec === 'version' || codec === 'bigint') out[key] = Number(value);
        else out[key] = value;
      }
      return out;
    },
    param(key, n) {
      const codec = byKey.get(key)?.sql;
      return codec === 'date' || codec === 'numeric' || codec === 'jsonb' || codec === 'bigint'
        ? `$${n}::${codec}`
        : `$${n}`;
    },
    encode(key, value) {
      return byKey.get(key)?.sql === 'jsonb' && value !== null && value !== undefined
        ? JSON.stringify(value)
        : value;
    },
    column: (key) => byKey.get(key),
  };
  cache.set(entity, sql);
  return sql;
}
