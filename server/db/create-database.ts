/**
 * Startup entry of the database layer: PostgreSQL when DATABASE_URL is set, else embedded PGlite
 * under DATA_DIR; either way the schema is migrated before the Database is handed out, and a
 * failed migration closes it again. `checkDatabase` backs /healthz and never throws.
 */
import type { Database, DatabaseLogger } from './database.ts';
import { runMigrations } from './migrate.ts';
import { createPgliteDatabase } from './pglite-database.ts';
import { createPostgresDatabase } from './postgres-database.ts';

export interface CreateDatabaseOptions {
  /** A postgres:// URL; empty or absent selects embedded PGlite. */
  databaseUrl?: string | undefined;
  /** Satchel's DATA_DIR; PGlite keeps its files in `<dataDir>/pglite`. */
  dataDir: string;
  logger?: DatabaseLogger | undefined;
}

export interface DatabaseHealth {
  ok: boolean;
  kind: Database['kind'];
  /** Highest applied migration, or null when it could not be read (or none ran yet). */
  schemaVersion: number | null;
  error?: string;
}

export async function createDatabase({
  databaseUrl,
  dataDir,
  logger,
}: CreateDatabaseOptions): Promise<Database> {
  const db = databaseUrl
    ? await createPostgresDatabase({ connectionString: databaseUrl, logger })
    : await createPgliteDatabase({ dataDir, logger });
  try {
    await runMigrations(db, { logger });
  } catch (error) {
    await db.close().catch(() => {});
    throw error;
  }
  return db;
}

export async function checkDatabase(
  db: Database,
  { timeoutMs = 2_000 }: { timeoutMs?: number } = {},
): Promise<DatabaseHealth> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`database did not answer within ${timeoutMs} ms`)),
      timeoutMs,
    );
  });
  try {
    return await Promise.race([probe(db), timeout]);
  } catch (error) {
    return {
      ok: false,
      kind: db.kind,
      schemaVersion: null,
      error: error instanceof Error ? error.message : String(error),
    };
  } finally {
    clearTimeout(timer);
  }
}

async function probe(db: Database): Promise<DatabaseHealth> {
  // SELECT 1 proves the connection; a database without the migrations table is reachable but
  // unversioned, which is reported rather than raised.
  const { rows: tables } = await db.query<{ present: boolean }>(
    "SELECT 1 AS one, to_regclass('schema_migrations') IS NOT NULL AS present",
  );
  if (!tables[0]?.present) return { ok: true, kind: db.kind, schemaVersion: null };
  const { rows } = await db.query<{ version: number | null }>(
    'SELECT max(version) AS version FROM schema_migrations',
  );
  return { ok: true, kind: db.kind, schemaVersion: rows[0]?.version ?? null };
}
