/**
 * PostgreSQL adapter against a real server: set DATABASE_URL_TEST (e.g.
 * postgres://postgres@127.0.0.1:5432/test). Every run creates its own database `satchel_test_<random>`
 * from that connection and drops it afterwards (WITH (FORCE)), so runs never see each other's data.
 * Without the variable the file registers one skipped test that says why.
 */
import { describe, expect, it } from 'vitest';
import { createScratchDatabase, postgresTestUrl } from '../../tests/fixtures/scratch-postgres.ts';
import { checkDatabase, createDatabase } from './create-database.ts';
import { runDatabaseConformance } from './database.contract.ts';
import { loadMigrations } from './migrate.ts';
import { createPostgresDatabase } from './postgres-database.ts';

const adminUrl = postgresTestUrl;

if (!adminUrl) {
  describe.skip('PostgreSQL adapter', () => {
    it.skip('skipped: set DATABASE_URL_TEST=postgres://user@host:5432/db to run against a PostgreSQL server', () => {});
  });
} else {
  const url = adminUrl;

  runDatabaseConformance('PostgreSQL', async () => {
    const scratch = await createScratchDatabase(url);
    const db = await createPostgresDatabase({ connectionString: scratch.url, max: 10 });
    return {
      db,
      async cleanup() {
        await db.close();
        await scratch.drop();
      },
    };
  });

  describe('PostgreSQL via createDatabase', () => {
    it('picks PostgreSQL when a URL is given and migrates it', async () => {
      const scratch = await createScratchDatabase(url);
      try {
        const db = await createDatabase({
          databaseUrl: scratch.url,
          dataDir: '/nonexistent-unused',
        });
        try {
          expect(db.kind).toBe('postgres');
          const latest = (await loadMigrations()).at(-1)?.version;
          expect(await checkDatabase(db)).toEqual({
            ok: true,
            kind: 'postgres',
            schemaVersion: latest,
          });
        } finally {
          await db.close();
        }
      } finally {
        await scratch.drop();
      }
    });

    it('fails fast with the connection error when the server cannot be reached', async () => {
      const unreachable = new URL(url);
      unreachable.port = '1'; // nothing listens on port 1
      await expect(
        createPostgresDatabase({ connectionString: unreachable.toString() }),
      ).rejects.toMatchObject({
        code: 'ECONNREFUSED',
      });
    });
  });
}
