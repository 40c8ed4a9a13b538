/**
 * PGlite adapter: the shared conformance suite in memory and on disk, plus what only the embedded
 * database has: persistence across close/reopen under DATA_DIR and the one-opener lock.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { checkDatabase, createDatabase } from './create-database.ts';
import { runDatabaseConformance } from './database.contract.ts';
import { loadMigrations } from './migrate.ts';
import { createMemoryPgliteDatabase, createPgliteDatabase } from './pglite-database.ts';

const tempDirs: string[] = [];
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'satchel-pglite-'));
  tempDirs.push(dir);
  return dir;
}
afterAll(async () => {
  await Promise.all(tempDirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

runDatabaseConformance('PGlite in memory', async () => {
  const db = await createMemoryPgliteDatabase();
  return { db, cleanup: () => db.close() };
});

runDatabaseConformance('PGlite on disk', async () => {
  const db = await createPgliteDatabase({ dataDir: await tempDir() });
  return { db, cleanup: () => db.close() };
});

describe('PGlite under DATA_DIR', () => {
  it('keeps committed data across close and reopen, migrates once, and allows one opener', async () => {
    const dataDir = join(await tempDir(), 'nested', 'data'); // created on demand
    const messages: string[] = [];
    const logger = {
      info: (_: object, msg: string) => messages.push(msg),
      warn: (_: object, msg: string) => messages.push(msg),
    };
    const latest = (await loadMigrations()).at(-1)?.version;
    const id = randomUUID();
    // Leftover of a first start that crashed during initdb: must be discarded, not trusted.
    await mkdir(join(dataDir, 'pglite.initializing'), { recursive: true });
    await writeFile(join(dataDir, 'pglite.initializing', 'PG_VERSION'), '18\n');

    const first = await createDatabase({ dataDir, logger });
    expect(existsSync(join(dataDir, 'pglite.initializing'))).toBe(false);
    expect(first.kind).toBe('pglite');
    await first.query(
      `INSERT INTO contact_message (id, name, email, subject, message, ip) VALUES ($1, 'Ada', 'ada@x.test', 'Hi', 'Hello', '::1')`,
      [id],
    );
    await first.close();
    expect(existsSync(join(dataDir, 'pglite', 'PG_VERSION'))).toBe(true);
    expect(existsSync(join(dataDir, 'pglite.lock'))).toBe(false);
    expect(messages.filter((msg) => msg === 'database migration applied')).toHaveLength(
      latest ?? 0,
    );

    messages.length = 0;
    const second = await createDatabase({ dataDir, logger });
    try {
      expect(messages).not.toContain('database migration applied');
      const { rows } = await second.query<{ name: string; created_at: Date }>(
        'SELECT name, created_at FROM contact_message WHERE id = $1',
        [id],
      );
      expect(rows).toHaveLength(1);
      expect(rows[0]?.name).toBe('Ada');
      expect(await checkDatabase(second)).toEqual({
        ok: true,
        kind: 'pglite',
        schemaVersion: latest,
      });

      await expect(createPgliteDatabase({ dataDir })).rejects.toThrow(
        /in use by another Database in this process/,
      );
    } finally {
      await second.close();
    }

    const third = await createPgliteDatabase({ dataDir });
    expect((await third.query('SELECT id FROM contact_message')).rowCount).toBe(1);
    await third.close();
  });
});

describe('PGlite data directory checks', () => {
  it('refuses a pglite directory that holds something other than a cluster', async () => {
    const dataDir = await tempDir();
    await mkdir(join(dataDir, 'pglite'));
    await writeFile(join(dataDir, 'pglite', 'notes.txt'), 'not a database');
    await expect(createPgliteDatabase({ dataDir })).rejects.toThrow(/holds no database cluster/);
    expect(existsSync(join(dataDir, 'pglite.lock'))).toBe(false);
  });
});
