/**
 * PostgreSQL adapter against a real server: set DATABASE_URL_TEST (e.g.
 * postgres://postgres@127.0.0.1:5432/test). Every run creates its own database `satchel_test_<random>`
 * from that connection and drops it afterwards (WITH (FORCE)), so runs never see each other's data.
 * Without the variable the file registers one skipped test that says why.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { checkDatabase, createDatabase } from './create-database.ts';
import { runDatabaseConformance } from './database.contract.ts';
import { loadMigrations } from './migrate.ts';
import { createPostgresDatabase } from './postgres-database.ts';

// A test-runner switch (set by .ci/run), not application configuration, so not part of server/env.ts.
// eslint-disable-next-line no-restricted-properties
const adminUrl = process.env['DATABASE_URL_TEST'];

/** A fresh, empty database on the test server and a function that drops it again. */
async function createScratchDatabase(url: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `satchel_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const scratch = new URL(url);
  scratch.pathname = `/${name}`;
  return {
    url: scratch.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

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
