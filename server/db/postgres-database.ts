/**
 * Database on a PostgreSQL server through a pg.Pool. A transaction holds one pooled client from
 * BEGIN to COMMIT/ROLLBACK; a client whose ROLLBACK failed is destroyed, never returned to the pool.
 * Type parsing is configured on this pool only (no global pg.types mutation) to match PGlite.
 */
import pg from 'pg';
import type { CustomTypesConfig, PoolClient, QueryConfig, QueryResult as PgQueryResult } from 'pg';
import type { Database, DatabaseLogger, QueryResult, Queryable } from './database.ts';
import { createOperationGate } from './operation-gate.ts';
import { PgOid, pgParserOverrides } from './type-parsers.ts';

export interface PostgresDatabaseOptions {
  connectionString: string;
  /** Pool size; default 10. */
  max?: number | undefined;
  logger?: DatabaseLogger | undefined;
}

export async function createPostgresDatabase({
  connectionString,
  max = 10,
  logger,
}: PostgresDatabaseOptions): Promise<Database> {
  const pool = new pg.Pool({
    connectionString,
    max,
    connectionTimeoutMillis: 10_000,
    application_name: 'satchel',
    types: createTypes(),
  });
  // An idle client losing its connection emits here; unhandled, it would crash the process.
  pool.on('error', (error) => {
    logger?.warn({ err: error }, 'idle PostgreSQL client failed; the pool will replace it');
  });
  try {
    await pool.query('SELECT 1');
  } catch (error) {
    await pool.end().catch(() => {});
    throw error;
  }
  logger?.info({ max }, 'PostgreSQL pool connected');

  const gate = createOperationGate();

  return {
    kind: 'postgres',

    query<R = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<QueryResult<R>> {
      return gate.run('query', async () =>
        toQueryResult<R>(await pool.query(extended(sql, params))),
      );
    },

    transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
      return gate.run('transaction', async () => {
        const client = await pool.connect();
        let open = true;
        const assertOpen = () => {
          if (!open)
            throw new Error('This transaction has already finished; tx cannot be used any more');
        };
        const tx: Queryable = {
          async query<R = Record<string, unknown>>(
            sql: string,
            params?: unknown[],
          ): Promise<QueryResult<R>> {
            assertOpen();
            return toQueryResult<R>(await client.query(extended(sql, params)));
          },
        };
        let releaseError: Error | undefined;
        try {
          await client.query('BEGIN');
          const result = await gate.inTransaction(() => fn(tx));
          open = false;
          const commit = await client.query('COMMIT');
          // COMMIT of a transaction in which a statement failed rolls back without raising an error.
          if (commit.command === 'ROLLBACK') throw transactionRolledBack();
          return result;
        } catch (error) {
          open = false;
          await rollback(client).catch((rollbackError: unknown) => {
            releaseError =
              rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
          });
          throw error;
        } finally {
          open = false;
          client.release(releaseError);
        }
      });
    },

    close(): Promise<void> {
      return gate.close(() => pool.end());
    },
  };
}

function createTypes(): CustomTypesConfig {
  const defaults = pg.types.getTypeParser.bind(pg.types) as (
    oid: number,
    format?: string,
  ) => unknown;
  const parseTextArray = defaults(PgOid.textArray, 'text') as (value: string) => (string | null)[];
  const overrides = pgParserOverrides(parseTextArray);
  const getTypeParser = (oid: number, format?: string) =>
    (format ?? 'text') === 'text'
      ? (overrides[oid] ?? defaults(oid, format))
      : defaults(oid, format);
  return { getTypeParser };
}

/**
 * Always the extended protocol, as PGlite's query does: parameters are bound server-side and a
 * string with several statements is rejected on both adapters alike.
 */
function extended(text: string, params: unknown[] | undefined): QueryConfig {
  return { text, values: params ?? [], queryMode: 'extended' } as QueryConfig;
}

async function rollback(client: PoolClient): Promise<void> {
  await client.query('ROLLBACK');
}

function transactionRolledBack(): Error {
  // Same SQLSTATE as PGlite raises in this situation (in_failed_sql_transaction).
  return Object.assign(
    new Error('Transaction was rolled back instead of committed: a statement in it failed'),
    {
      code: '25P02',
    },
  );
}

function toQueryResult<R>(result: PgQueryResult): QueryResult<R> {
  const rows = result.rows as R[];
  return { rows, rowCount: result.rowCount ?? rows.length };
}
