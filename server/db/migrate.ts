/**
 * Schema migrations: files `NNNN_name.sql` in ./migrations, applied in version order, each in ONE
 * transaction together with its schema_migrations row, so a failing migration leaves neither
 * tables nor a version row behind. Concurrent starters serialize on a transaction-scoped advisory
 * lock and re-check under it. A database newer than this build is refused, never written to.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Database, DatabaseLogger, Queryable } from './database.ts';
import { splitSqlStatements } from './split-sql-statements.ts';

export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

export interface RunMigrationsOptions {
  /** Defaults to the files in ./migrations; tests pass synthetic lists. */
  migrations?: readonly Migration[] | undefined;
  logger?: DatabaseLogger | undefined;
}

export interface MigrationRunResult {
  /** Versions this call applied (empty when the schema was already current). */
  applied: number[];
  /** Highest applied version afterwards (0 for an empty list on an empty database). */
  schemaVersion: number;
}

export const MIGRATIONS_DIR = new URL('./migrations/', import.meta.url);

/** Thrown when the database was migrated by a newer build than this one. */
export class SchemaTooNewError extends Error {
  readonly databaseVersion: number;
  readonly supportedVersion: number;

  constructor(databaseVersion: number, supportedVersion: number) {
    super(
      `Database schema version ${databaseVersion} is newer than this build supports (${supportedVersion}). ` +
        'Upgrade Satchel before starting it against this database.',
    );
    this.name = 'SchemaTooNewError';
    this.databaseVersion = databaseVersion;
    this.supportedVersion = supportedVersion;
  }
}

const FILE_NAME = /^(\d{4})_([a-z0-9][a-z0-9_]*)\.sql$/;

// Arbitrary constant shared by every Satchel build; only migrations take this advisory lock.
const MIGRATION_LOCK_KEY = '7236915502143';

const CREATE_MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS schema_migrations (
  version    integer     PRIMARY KEY,
  name       text        NOT NULL,
  applied_at timestamptz NOT NULL DEFAULT now()
)`;

/** Reads `NNNN_name.sql` files, sorted by version. Other `.sql` names and duplicates are errors. */
export async function loadMigrations(dir: URL | string = MIGRATIONS_DIR): Promise<Migration[]> {
  const dirPath = dir instanceof URL ? fileURLToPath(dir) : dir;
  const files = (await readdir(dirPath)).filter((file) => file.endsWith('.sql'));
  const migrations: Migration[] = [];
  for (const file of files) {
    const match = FILE_NAME.exec(file);
    if (!match?.[1] || !match[2]) {
      throw new Error(`Migration file ${file} is not named NNNN_name.sql (lowercase name)`);
    }
    migrations.push({
      version: Number(match[1]),
      name: match[2],
      sql: await readFile(join(dirPath, file), 'utf8'),
    });
  }
  return checkedInOrder(migrations);
}

export async function runMigrations(
  db: Database,
  options: RunMigrationsOptions = {},
): Promise<MigrationRunResult> {
  const { logger } = options;
  const migrations = checkedInOrder(options.migrations ?? (await loadMigrations()));
  const supported = migrations.at(-1)?.version ?? 0;

  const done = await db.transaction(async (tx) => {
    // Under the lock: concurrent CREATE TABLE IF NOT EXISTS can still collide in the catalog.
    await takeMigrationLock(tx);
    await tx.query(CREATE_MIGRATIONS_TABLE);
    const versions = await appliedVersions(tx);
    assertSupported(versions, supported);
    return versions;
  });

  const applied: number[] = [];
  for (const migration of migrations) {
    if (done.has(migration.version)) continue;
    const startedAt = Date.now();
    const didApply = await db.transaction(async (tx) => {
      await takeMigrationLock(tx);
      const versions = await appliedVersions(tx);
      assertSupported(versions, supported);
      if (versions.has(migration.version)) return false; // another starter got here first
      await applyStatements(tx, migration);
      await tx.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [
        migration.version,
        migration.name,
      ]);
      return true;
    });
    if (didApply) {
      applied.push(migration.version);
      logger?.info(
        { version: migration.version, name: migration.name, ms: Date.now() - startedAt },
        'database migration applied',
      );
    }
  }

  const { rows } = await db.query<{ version: number | null }>(
    'SELECT max(version) AS version FROM schema_migrations',
  );
  const schemaVersion = rows[0]?.version ?? 0;
  logger?.info({ schemaVersion, applied }, 'database schema is current');
  return { applied, schemaVersion };
}

async function takeMigrationLock(tx: Queryable): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock($1::bigint)', [MIGRATION_LOCK_KEY]);
}

async function appliedVersions(tx: Queryable): Promise<Set<number>> {
  const { rows } = await tx.query<{ version: number }>('SELECT version FROM schema_migrations');
  return new Set(rows.map((row) => row.version));
}

function assertSupported(applied: Set<number>, supported: number): void {
  const newest = Math.max(0, ...applied);
  if (newest > supported) throw new SchemaTooNewError(newest, supported);
}

async function applyStatements(tx: Queryable, migration: Migration): Promise<void> {
  const statements = splitSqlStatements(migration.sql);
  for (const [index, statement] of statements.entries()) {
    try {
      await tx.query(statement);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new Error(
        `Migration ${label(migration)} failed at statement ${index + 1} of ${statements.length} ` +
          `and was rolled back: ${reason}`,
        { cause: error },
      );
    }
  }
}

function checkedInOrder(migrations: readonly Migration[]): Migration[] {
  const sorted = [...migrations].sort((a, b) => a.version - b.version);
  sorted.forEach((migration, index) => {
    if (!Number.isInteger(migration.version) || migration.version < 1) {
      throw new Error(`Migration ${label(migration)} has an invalid version`);
    }
    const previous = sorted[index - 1];
    if (previous?.version === migration.version) {
      throw new Error(`Migrations ${label(previous)} and ${label(migration)} share a version`);
    }
  });
  return sorted;
}

function label(migration: Migration): string {
  return `${String(migration.version).padStart(4, '0')}_${migration.name}`;
}
