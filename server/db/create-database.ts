/**
 * Startup entry of the database layer: PostgreSQL when DATABASE_URL is set, else embedded PGlite
 * under DATA_DIR; either way the schema is migrated before the Database is handed out, and a
 * failed migration closes it again. `checkDatabase` backs /healthz and never throws.
 */
import { databaseActivity, trackDatabase } from './database-activity.ts';
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
  // Tracked, so /healthz can see the database answering other work while it is busy.
  return trackDatabase(db);
}

/** A database that answered within this long and has work in flight is busy, not dead. */
const RECENT_ANSWER_MS = 10_000;

/**
 * Liveness of the database for /healthz. A probe (SELECT 1 and the schema version) answers when
 * the database is idle. When the database is tracked (trackDatabase) and busy (work in flight) and
 * answered within the last 10 s with no failure since, it is alive without probing: a probe would
 * only queue behind that work (PGlite's single connection, or a full pool). A probe that fails or
 * times out with no such recent answer is a real failure.
 */
export async function checkDatabase(
  db: Database,
  { timeoutMs = 2_000 }: { timeoutMs?: number } = {},
): Promise<DatabaseHealth> {
  const activity = databaseActivity(db);
  const busyButAnswering = () =>
    activity !== undefined &&
    activity.inFlight > 0 &&
    activity.lastAnswerAt !== null &&
    performance.now() - activity.lastAnswerAt < RECENT_ANSWER_MS &&
    (activity.lastFailureAt === null || activity.lastFailureAt < activity.lastAnswerAt);
  if (activity?.schemaVersion !== undefined && busyButAnswering()) {
    return { ok: true, kind: db.kind, schemaVersion: activity.schemaVersion };
  }
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`database did not answer within ${timeoutMs} ms`)),
      timeoutMs,
    );
  });
  try {
    const health = await Promise.race([probe(db), timeout]);
    if (activity) activity.schemaVersion = health.schemaVersion;
    return health;
  } catch (error) {
    if (busyButAnswering()) {
      return { ok: true, kind: db.kind, schemaVersion: activity?.schemaVersion ?? null };
    }
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
