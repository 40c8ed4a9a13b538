/**
 * Database on embedded PGlite (Postgres in WASM, one connection) under <dataDir>/pglite, or in
 * memory for tests. PGlite queues `query` behind a running transaction, so it never lands inside one.
 * A lock file keeps a second process out (PGlite does not). Durability: writes reach the OS
 * synchronously, so SIGKILL loses no commit; but Postgres runs with fsync off, so power loss may.
 */
import { PGlite } from '@electric-sql/pglite';
import type { Results } from '@electric-sql/pglite';
import { existsSync } from 'node:fs';
import { mkdir, readdir, rename, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { acquireDataDirLock } from './data-dir-lock.ts';
import type { Database, DatabaseLogger, QueryResult, Queryable } from './database.ts';
import { createOperationGate } from './operation-gate.ts';
import { pgliteParsers } from './type-parsers.ts';

export interface PgliteDatabaseOptions {
  /** Satchel's DATA_DIR; the cluster lives in `<dataDir>/pglite`, the lock in `<dataDir>/pglite.lock`. */
  dataDir: string;
  logger?: DatabaseLogger | undefined;
}

export async function createPgliteDatabase({
  dataDir,
  logger,
}: PgliteDatabaseOptions): Promise<Database> {
  const root = resolve(dataDir);
  const clusterDir = join(root, 'pglite');
  await mkdir(root, { recursive: true });
  const lock = await acquireDataDirLock(join(root, 'pglite.lock'));
  try {
    await ensureCluster(root, clusterDir, logger);
    const startedAt = Date.now();
    const pg = await PGlite.create({ dataDir: clusterDir, parsers: pgliteParsers });
    logger?.info({ dataDir: clusterDir, ms: Date.now() - startedAt }, 'embedded database opened');
    return wrapPglite(pg, () => lock.release());
  } catch (error) {
    await lock.release();
    throw error;
  }
}

/** A throwaway in-memory PGlite (tests, tools). Nothing is written to disk. */
export async function createMemoryPgliteDatabase(): Promise<Database> {
  const pg = await PGlite.create({ parsers: pgliteParsers });
  return wrapPglite(pg, async () => {});
}

/**
 * First start: initdb into a staging directory, then rename it into place. PGlite would otherwise
 * write the new cluster file by file into <dataDir>/pglite, and a crash in between could leave a
 * partial cluster that the next start takes for a valid one. Runs under the data-dir lock.
 */
async function ensureCluster(
  root: string,
  clusterDir: string,
  logger: DatabaseLogger | undefined,
): Promise<void> {
  if (existsSync(join(clusterDir, 'PG_VERSION'))) return;
  if (existsSync(clusterDir) && (await readdir(clusterDir)).length > 0) {
    throw new Error(
      `${clusterDir} exists but holds no database cluster (no PG_VERSION); move it away so Satchel can create one`,
    );
  }
  const staging = join(root, 'pglite.initializing');
  await rm(staging, { recursive: true, force: true });
  const startedAt = Date.now();
  const fresh = await PGlite.create({ dataDir: staging });
  await fresh.close();
  await rm(clusterDir, { recursive: true, force: true });
  await rename(staging, clusterDir);
  logger?.info({ dataDir: clusterDir, ms: Date.now() - startedAt }, 'embedded database created');
}

function wrapPglite(pg: PGlite, afterClose: () => Promise<void>): Database {
  const gate = createOperationGate();

  return {
    kind: 'pglite',

    query<R = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<QueryResult<R>> {
      return gate.run('query', async () => toQueryResult(await pg.query<R>(sql, params ?? [])));
    },

    transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
      return gate.run('transaction', () =>
        // PGlite sends BEGIN, COMMIT (rejecting with 25P02 if it turned into a rollback) or
        // ROLLBACK when the callback throws, and rethrows the callback's error unchanged.
        pg.transaction(async (pgTx) => {
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
              return toQueryResult(await pgTx.query<R>(sql, params ?? []));
            },
          };
          try {
            return await gate.inTransaction(() => fn(tx));
          } finally {
            open = false;
          }
        }),
      );
    },

    close(): Promise<void> {
      return gate.close(async () => {
        try {
          await pg.close();
        } finally {
          await afterClose();
        }
      });
    },
  };
}

function toQueryResult<R>(result: Results<R>): QueryResult<R> {
  // rowCount comes from the command tag (per statement); affectedRows is only a fallback.
  return {
    rows: result.rows,
    rowCount: result.rowCount ?? result.affectedRows ?? result.rows.length,
  };
}
