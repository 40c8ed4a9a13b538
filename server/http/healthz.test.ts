/**
 * /healthz is liveness: it must not queue behind application work on the database (PGlite's one
 * connection, or an exhausted pool), yet a database that is closed or broken reads as 503.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { loadMigrations } from '../db/migrate.ts';
import { createTestApp, type TestApp } from '../../tests/fixtures/create-test-app.ts';

describe('/healthz', () => {
  let t: TestApp | null = null;
  afterEach(async () => {
    await t?.cleanup();
    t = null;
  });

  it('answers 200 while application work holds the database connection', async () => {
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const app = await createTestApp({
      handlers: {
        // Application work that keeps its transaction (PGlite's only connection) open.
        'system/get-version': async ({ tx }) => {
          await tx.query('SELECT 1');
          entered();
          await held;
          return { version: 'held', schemaVersion: null };
        },
      },
    });
    t = app;
    expect((await app.app.request('/healthz')).status).toBe(200);

    const busy = app.app.request('/api/system?endpoint=get-version');
    await inside;
    const during = await app.app.request('/healthz');
    release();
    expect(during.status).toBe(200);
    const latest = (await loadMigrations()).at(-1)?.version;
    expect(await during.json()).toMatchObject({
      status: 'ok',
      database: { ok: true, kind: 'pglite', schemaVersion: latest },
    });
    expect((await busy).status).toBe(200);
  });

  it('answers 503 once the database is closed, even right after it answered', async () => {
    const app = await createTestApp();
    t = app;
    expect((await app.app.request('/api/system?endpoint=get-version')).status).toBe(200);
    await app.db.close();
    const response = await app.app.request('/healthz');
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({
      status: 'unavailable',
      database: { ok: false, error: expect.stringMatching(/closed/i) },
    });
  });
});
