/**
 * The behaviour every Database adapter must show, as one vitest suite that each adapter's test
 * file registers with its own factory (pglite-database.test.ts, postgres-database.pg.test.ts).
 * Each registration gets ONE fresh, empty database: the migration tests run first because they need
 * it without schema_migrations; later tests create their own `conf_*` tables; close() is tested last.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkDatabase } from './create-database.ts';
import type { Database, Queryable } from './database.ts';
import { loadMigrations, runMigrations, SchemaTooNewError, type Migration } from './migrate.ts';

export interface ConformanceTarget {
  db: Database;
  cleanup(): Promise<void>;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A promise plus its resolve function, for stepping two concurrent flows deterministically. */
function signal(): { promise: Promise<void>; resolve: () => void } {
  let resolve: () => void = () => {};
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the promise to reject');
}

export function runDatabaseConformance(
  name: string,
  create: () => Promise<ConformanceTarget>,
): void {
  describe(`Database conformance: ${name}`, () => {
    let target: ConformanceTarget | undefined;
    const db = (): Database => {
      if (!target) throw new Error('the conformance database was not created');
      return target.db;
    };

    beforeAll(async () => {
      target = await create();
    });
    afterAll(async () => {
      await target?.cleanup();
    });

    describe('migrations', () => {
      let real: Migration[] = [];
      let latest = 0;
      const extra = (offset: number, migrationName: string, sql: string): Migration => ({
        version: latest + offset,
        name: migrationName,
        sql,
      });
      const versionRows = async () =>
        (
          await db().query<{ version: number }>(
            'SELECT version FROM schema_migrations ORDER BY version',
          )
        ).rows.map((row) => row.version);

      beforeAll(async () => {
        real = await loadMigrations();
        latest = real.at(-1)?.version ?? 0;
      });

      it('applies every migration to an empty database and records each one', async () => {
        expect(latest).toBeGreaterThan(0);
        const result = await runMigrations(db());
        expect(result).toEqual({ applied: real.map((m) => m.version), schemaVersion: latest });

        const { rows } = await db().query<{ version: number; name: string; applied_at: Date }>(
          'SELECT version, name, applied_at FROM schema_migrations ORDER BY version',
        );
        expect(rows.map((row) => [row.version, row.name])).toEqual(
          real.map((m) => [m.version, m.name]),
        );
        expect(rows[0]?.applied_at).toBeInstanceOf(Date);

        const tables = await db().query<{ name: string }>(
          `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema()`,
        );
        expect(tables.rows.map((row) => row.name)).toEqual(
          expect.arrayContaining([
            'schema_migrations',
            'idempotency_key',
            'contact_message',
            'feedback',
          ]),
        );
      });

      it('applies nothing when run again', async () => {
        expect(await runMigrations(db())).toEqual({ applied: [], schemaVersion: latest });
        expect(await versionRows()).toEqual(real.map((m) => m.version));
      });

      it('creates the foundation tables with their keys, checks and defaults', async () => {
        const key = randomUUID();
        const insertKey = (scope: string) =>
          db().query(
            `INSERT INTO idempotency_key (scope, key, request_hash, status, response_body)
             VALUES ($1, $2, 'hash', 201, $3::jsonb)`,
            [scope, key, JSON.stringify({ ok: true })],
          );
        await insertKey('public');
        await insertKey('ip:127.0.0.1'); // same key, other scope: allowed
        expect(await rejectionOf(insertKey('public'))).toMatchObject({ code: '23505' });
        const stored = await db().query<{ response_body: unknown; created_at: Date }>(
          'SELECT response_body, created_at FROM idempotency_key WHERE scope = $1 AND key = $2',
          ['public', key],
        );
        expect(stored.rows[0]?.response_body).toEqual({ ok: true });
        expect(stored.rows[0]?.created_at).toBeInstanceOf(Date);

        const feedback = (rating: number) =>
          db().query(
            `INSERT INTO feedback (id, rating, category, message, email, user_id, ip)
             VALUES ($1, $2, 'idea', 'text', NULL, NULL, '::1')`,
            [randomUUID(), rating],
          );
        await feedback(5);
        expect(await rejectionOf(feedback(6))).toMatchObject({ code: '23514' });
        expect(await rejectionOf(feedback(0))).toMatchObject({ code: '23514' });

        await db().query(
          `INSERT INTO contact_message (id, name, email, subject, message) VALUES ($1, 'n', 'e@x.test', 's', 'm')`,
          [randomUUID()],
        );
      });

      it('applies only the migrations a longer list adds', async () => {
        const list = [
          ...real,
          extra(1, 'conformance_a', 'CREATE TABLE conformance_a (id int PRIMARY KEY);'),
        ];
        expect(await runMigrations(db(), { migrations: list })).toEqual({
          applied: [latest + 1],
          schemaVersion: latest + 1,
        });
      });

      it('lets concurrent starters apply each migration exactly once', async () => {
        const list = [
          ...real,
          extra(1, 'conformance_a', 'CREATE TABLE conformance_a (id int PRIMARY KEY);'),
          // Not idempotent on purpose: a second application would fail.
          extra(2, 'conformance_b', 'CREATE TABLE conformance_b (id int PRIMARY KEY);'),
        ];
        const results = await Promise.all([
          runMigrations(db(), { migrations: list }),
          runMigrations(db(), { migrations: list }),
          runMigrations(db(), { migrations: list }),
        ]);
        expect(results.flatMap((result) => result.applied)).toEqual([latest + 2]);
        expect(results.map((result) => result.schemaVersion)).toEqual([
          latest + 2,
          latest + 2,
          latest + 2,
        ]);
      });

      it('refuses a database whose schema is newer than the build', async () => {
        const error = await rejectionOf(runMigrations(db(), { migrations: real }));
        expect(error).toBeInstanceOf(SchemaTooNewError);
        expect((error as Error).message).toBe(
          `Database schema version ${latest + 2} is newer than this build supports (${latest}). ` +
            'Upgrade Satchel before starting it against this database.',
        );
        expect(await versionRows()).toEqual([
          ...real.map((m) => m.version),
          latest + 1,
          latest + 2,
        ]);
      });

      it('rolls a failing migration back completely: no tables, no rows, no version', async () => {
        const broken = extra(
          3,
          'conformance_broken',
          `CREATE TABLE conformance_c (id int);
           INSERT INTO conformance_b VALUES (1);
           SELECT 1 / 0;`,
        );
        const list = [
          ...real,
          extra(1, 'conformance_a', ''),
          extra(2, 'conformance_b', ''),
          broken,
          extra(4, 'never_reached', 'CREATE TABLE conformance_d (id int);'),
        ];
        const error = await rejectionOf(runMigrations(db(), { migrations: list }));
        expect((error as Error).message).toMatch(
          /conformance_broken failed at statement 3 of 3 and was rolled back/,
        );
        expect((error as Error).cause).toMatchObject({ code: '22012' });

        const left = await db().query<{ c: string | null; d: string | null; rows: string }>(
          `SELECT to_regclass('conformance_c')::text AS c, to_regclass('conformance_d')::text AS d,
                  (SELECT count(*) FROM conformance_b) AS rows`,
        );
        expect(left.rows[0]).toEqual({ c: null, d: null, rows: '0' });
        expect(await versionRows()).toEqual([
          ...real.map((m) => m.version),
          latest + 1,
          latest + 2,
        ]);
      });
    });

    describe('queries', () => {
      it('binds positional parameters, including null', async () => {
        const { rows } = await db().query<{ sum: number; label: string; missing: string | null }>(
          'SELECT $1::int + $2::int AS sum, $3::text AS label, $4::text AS missing',
          [2, 3, 'x', null],
        );
        expect(rows).toEqual([{ sum: 5, label: 'x', missing: null }]);
      });

      it('maps Postgres types to the same JS values', async () => {
        const { rows } = await db().query<Record<string, unknown>>(
          `SELECT 7::int2 AS small, 42::int4 AS int, 9007199254740993::int8 AS big, 1.50::numeric AS exact,
                  2.5::float8 AS float, '2020-01-01 10:00:00.123+02'::timestamptz AS at,
                  '2020-01-01 10:00:00.5'::timestamp AS local_at, '2020-01-02'::date AS day,
                  '{"x":1,"nested":[true,null]}'::jsonb AS doc, '[1,"a"]'::json AS list,
                  true AS yes, false AS no, 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid AS id,
                  NULL::text AS nothing, NULL::int8 AS no_big, 'abc'::bytea AS bytes,
                  ARRAY[1, 2]::int8[] AS bigs, ARRAY[1.5]::numeric[] AS exacts, ARRAY['2020-01-02'::date] AS days,
                  ARRAY['2020-01-01 10:00:00+00'::timestamptz] AS ats, ARRAY['x', NULL]::text[] AS texts`,
        );
        const row = rows[0];
        expect(row).toEqual({
          small: 7,
          int: 42,
          big: '9007199254740993',
          exact: '1.50',
          float: 2.5,
          at: new Date('2020-01-01T08:00:00.123Z'),
          local_at: new Date('2020-01-01T10:00:00.500Z'),
          day: '2020-01-02',
          doc: { x: 1, nested: [true, null] },
          list: [1, 'a'],
          yes: true,
          no: false,
          id: 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11',
          nothing: null,
          no_big: null,
          bytes: Buffer.from('abc'),
          bigs: ['1', '2'],
          exacts: ['1.5'],
          days: ['2020-01-02'],
          ats: [new Date('2020-01-01T10:00:00Z')],
          texts: ['x', null],
        });
        expect(Buffer.isBuffer(row?.['bytes'])).toBe(true);
        expect(row?.['at']).toBeInstanceOf(Date);
      });

      it('round-trips parameters of every mapped type through a table', async () => {
        await db().query(
          `CREATE TABLE conf_types (id int PRIMARY KEY, at timestamptz, doc jsonb, big int8, amount numeric,
                                    flag bool, uid uuid, day date, raw bytea)`,
        );
        const uid = randomUUID();
        const at = new Date('2021-05-06T07:08:09.010Z');
        await db().query('INSERT INTO conf_types VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)', [
          1,
          at,
          JSON.stringify({ a: [1, 'two'], s: 'it\'s "quoted"' }),
          '9007199254740993',
          '12.340',
          true,
          uid,
          '2021-05-06',
          Buffer.from([0, 255, 10]),
        ]);
        const { rows } = await db().query('SELECT * FROM conf_types WHERE id = $1', [1]);
        expect(rows).toEqual([
          {
            id: 1,
            at,
            doc: { a: [1, 'two'], s: 'it\'s "quoted"' },
            big: '9007199254740993',
            amount: '12.340',
            flag: true,
            uid,
            day: '2021-05-06',
            raw: Buffer.from([0, 255, 10]),
          },
        ]);
      });

      it('reports rowCount for INSERT, UPDATE, DELETE and SELECT', async () => {
        await db().query('CREATE TABLE conf_rows (id int PRIMARY KEY, n int NOT NULL)');
        expect(
          (await db().query('INSERT INTO conf_rows VALUES (1, 0), (2, 0), (3, 0)')).rowCount,
        ).toBe(3);
        expect(
          (await db().query('UPDATE conf_rows SET n = n + 1 WHERE id >= $1', [2])).rowCount,
        ).toBe(2);
        expect((await db().query('UPDATE conf_rows SET n = 0 WHERE id > 100')).rowCount).toBe(0);
        expect((await db().query('DELETE FROM conf_rows WHERE id = 1')).rowCount).toBe(1);
        const selected = await db().query('SELECT * FROM conf_rows ORDER BY id');
        expect(selected.rowCount).toBe(2);
        expect(selected.rows).toEqual([
          { id: 2, n: 1 },
          { id: 3, n: 1 },
        ]);
        const returning = await db().query<{ id: number }>(
          'INSERT INTO conf_rows VALUES (9, 0) RETURNING id',
        );
        expect(returning).toEqual({ rows: [{ id: 9 }], rowCount: 1 });
      });

      it('rejects several statements in one query', async () => {
        expect(await rejectionOf(db().query('SELECT 1; SELECT 2'))).toMatchObject({
          code: '42601',
        });
      });
    });

    describe('transactions', () => {
      beforeAll(async () => {
        await db().query('CREATE TABLE conf_tx (id int PRIMARY KEY, label text)');
      });
      const labels = async () =>
        (await db().query<{ label: string }>('SELECT label FROM conf_tx ORDER BY id')).rows.map(
          (row) => row.label,
        );

      it('commits and returns the callback value', async () => {
        const value = await db().transaction(async (tx) => {
          await tx.query('INSERT INTO conf_tx VALUES (1, $1)', ['committed']);
          return (await tx.query<{ n: string }>('SELECT count(*) AS n FROM conf_tx')).rows[0]?.n;
        });
        expect(value).toBe('1');
        expect(await labels()).toEqual(['committed']);
      });

      it('rolls back when the callback throws and rethrows the very same error', async () => {
        const thrown = new Error('handler failed');
        const error = await rejectionOf(
          db().transaction(async (tx) => {
            await tx.query('INSERT INTO conf_tx VALUES (2, $1)', ['rolled back']);
            throw thrown;
          }),
        );
        expect(error).toBe(thrown);
        expect(await labels()).toEqual(['committed']);
      });

      it('rolls back on a failing statement and surfaces its SQLSTATE', async () => {
        let statementError: unknown;
        const error = await rejectionOf(
          db().transaction(async (tx) => {
            await tx.query('INSERT INTO conf_tx VALUES (3, $1)', ['first']);
            try {
              await tx.query('INSERT INTO conf_tx VALUES (3, $1)', ['duplicate']);
            } catch (caught) {
              statementError = caught;
              throw caught;
            }
          }),
        );
        expect(error).toBe(statementError);
        expect(error).toMatchObject({ code: '23505' });
        expect(error).toBeInstanceOf(Error);
        expect(await labels()).toEqual(['committed']);
      });

      it('refuses to report a commit when a swallowed statement error aborted the transaction', async () => {
        const error = await rejectionOf(
          db().transaction(async (tx) => {
            await tx.query('INSERT INTO conf_tx VALUES (4, $1)', ['lost']);
            await tx.query('SELECT 1 / 0').catch(() => {});
            return 'pretend success';
          }),
        );
        expect(error).toMatchObject({ code: '25P02' });
        expect(await labels()).toEqual(['committed']);
      });

      it('never runs an outside query inside a running transaction', async () => {
        const inserted = signal();
        const release = signal();
        const transaction = db().transaction(async (tx) => {
          await tx.query('INSERT INTO conf_tx VALUES (5, $1)', ['inside']);
          inserted.resolve();
          await release.promise;
          throw new Error('abort inside');
        });
        await inserted.promise;
        // On PGlite this waits for the transaction; interleaved, it would be rolled back with it.
        const outside = db().query('INSERT INTO conf_tx VALUES (6, $1)', ['outside']);
        await sleep(20);
        release.resolve();
        await expect(transaction).rejects.toThrow('abort inside');
        await outside;
        expect(await labels()).toEqual(['committed', 'outside']);
      });

      it('serializes 20 concurrent read-modify-write transactions without losing an update', async () => {
        await db().query('CREATE TABLE conf_counter (id int PRIMARY KEY, n int NOT NULL)');
        await db().query('INSERT INTO conf_counter VALUES (1, 0)');
        await Promise.all(
          Array.from({ length: 20 }, (_, index) =>
            db().transaction(async (tx) => {
              const { rows } = await tx.query<{ n: number }>(
                'SELECT n FROM conf_counter WHERE id = 1 FOR UPDATE',
              );
              await sleep(index % 3);
              await tx.query('UPDATE conf_counter SET n = $1 WHERE id = 1', [
                (rows[0]?.n ?? 0) + 1,
              ]);
            }),
          ),
        );
        const { rows } = await db().query<{ n: number }>('SELECT n FROM conf_counter WHERE id = 1');
        expect(rows[0]?.n).toBe(20);
      });

      it('fails fast instead of deadlocking when the callback uses db instead of tx', async () => {
        await expect(db().transaction(() => db().query('SELECT 1'))).rejects.toThrow(
          /use the tx argument/,
        );
        await expect(
          db().transaction(() => db().transaction(() => Promise.resolve(1))),
        ).rejects.toThrow(/use the tx argument/);
        expect((await db().query<{ one: number }>('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
      });

      it('makes tx unusable once the transaction has finished', async () => {
        let saved: Queryable | undefined;
        await db().transaction((tx) => {
          saved = tx;
          return Promise.resolve();
        });
        await expect(saved?.query('SELECT 1')).rejects.toThrow(/already finished/);
      });
    });

    describe('errors', () => {
      it('surfaces a unique violation with code 23505 outside a transaction', async () => {
        await db().query('CREATE TABLE conf_unique (id uuid PRIMARY KEY)');
        const id = randomUUID();
        await db().query('INSERT INTO conf_unique VALUES ($1)', [id]);
        const error = await rejectionOf(db().query('INSERT INTO conf_unique VALUES ($1)', [id]));
        expect(error).toBeInstanceOf(Error);
        expect(error).toMatchObject({ code: '23505', constraint: 'conf_unique_pkey' });
      });

      it('surfaces syntax errors and unknown relations with their SQLSTATE', async () => {
        expect(await rejectionOf(db().query('SELEC 1'))).toMatchObject({ code: '42601' });
        expect(await rejectionOf(db().query('SELECT * FROM conf_missing'))).toMatchObject({
          code: '42P01',
        });
      });
    });

    describe('health and close', () => {
      it('reports health with the schema version', async () => {
        const { rows } = await db().query<{ version: number }>(
          'SELECT max(version) AS version FROM schema_migrations',
        );
        expect(await checkDatabase(db())).toEqual({
          ok: true,
          kind: db().kind,
          schemaVersion: rows[0]?.version,
        });
      });

      it('close() waits for a running transaction, then refuses new work', async () => {
        const started = signal();
        const release = signal();
        const transaction = db().transaction(async (tx) => {
          await tx.query('INSERT INTO conf_tx VALUES (7, $1)', ['during close']);
          started.resolve();
          await release.promise;
          await tx.query('INSERT INTO conf_tx VALUES (8, $1)', ['after close began']);
          return 'done';
        });
        await started.promise;
        let closed = false;
        const closing = db()
          .close()
          .then(() => {
            closed = true;
          });
        await expect(db().query('SELECT 1')).rejects.toThrow(/closed/);
        await sleep(20);
        expect(closed).toBe(false);
        release.resolve();
        await expect(transaction).resolves.toBe('done');
        await closing;
        expect(closed).toBe(true);
        await db().close(); // idempotent
        const health = await checkDatabase(db());
        expect(health).toMatchObject({ ok: false, kind: db().kind, schemaVersion: null });
        expect(health.error).toMatch(/closed/);
      });
    });
  });
}
