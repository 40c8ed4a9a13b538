/**
 * Loading migration files (no database needed): naming rules, ordering, and the shipped
 * migrations themselves. Applying them is covered by the conformance suite on every adapter.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadMigrations } from './migrate.ts';
import { splitSqlStatements } from './split-sql-statements.ts';

describe('loadMigrations', () => {
  let dir = '';
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'satchel-migrations-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reads the shipped migrations in version order, starting at 0001_foundation', async () => {
    const migrations = await loadMigrations();
    expect(migrations[0]).toMatchObject({ version: 1, name: 'foundation' });
    migrations.forEach((migration, index) => expect(migration.version).toBe(index + 1));
    for (const migration of migrations) {
      expect(splitSqlStatements(migration.sql).length).toBeGreaterThan(0);
      expect(migration.sql).not.toMatch(/^\s*(BEGIN|COMMIT)\b/im);
    }
  });

  it('sorts by version and ignores files that are not .sql', async () => {
    await writeFile(join(dir, '0002_second.sql'), 'SELECT 2;');
    await writeFile(join(dir, '0001_first.sql'), 'SELECT 1;');
    await writeFile(join(dir, 'README.md'), 'notes');
    expect(await loadMigrations(dir)).toEqual([
      { version: 1, name: 'first', sql: 'SELECT 1;' },
      { version: 2, name: 'second', sql: 'SELECT 2;' },
    ]);
  });

  it('rejects badly named and duplicate versions', async () => {
    await writeFile(join(dir, '1_short.sql'), 'SELECT 1;');
    await expect(loadMigrations(dir)).rejects.toThrow(/1_short.sql is not named NNNN_name.sql/);
    await rm(join(dir, '1_short.sql'));
    await writeFile(join(dir, '0003_a.sql'), 'SELECT 1;');
    await writeFile(join(dir, '0003_b.sql'), 'SELECT 1;');
    await expect(loadMigrations(dir)).rejects.toThrow(/0003_a and 0003_b share a version/);
  });
});
