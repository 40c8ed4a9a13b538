/**
 * `npm run bench`: each figure is measured beside a reference in the same run, so a noisy machine
 * moves both. Writes the table into BENCHMARKS.md between the bench markers.
 */
import { createWriteStream } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Hono } from 'hono';
import { runMigrations } from '../server/db/migrate.ts';
import { createMemoryPgliteDatabase } from '../server/db/pglite-database.ts';
import { createTestApp } from '../tests/fixtures/create-test-app.ts';
import { measureShellSize } from './shell-size.ts';

interface Row {
  what: string;
  figure: string;
  reference: string;
  ratio: string;
}

async function timeIt(iterations: number, fn: (i: number) => unknown): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < iterations; i += 1) {
    const started = performance.now();
    await fn(i);
    samples.push(performance.now() - started);
  }
  return samples;
}

function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

const ms = (value: number) => `${value.toFixed(3)} ms`;

async function benchDispatch(): Promise<Row> {
  // Logs go to /dev/null: the cost of writing each request's JSON line stays in the figure.
  const t = await createTestApp({ logDestination: createWriteStream('/dev/null') });
  // Reference: a bare Hono route running the same query in a transaction, with no contract,
  // validation, logging or security headers. A read, because the public forms are rate limited.
  const raw = new Hono();
  raw.get('/raw', async (c) => {
    const { rows } = await t.db.transaction((tx) =>
      tx.query<{ version: number | null }>('SELECT max(version) AS version FROM schema_migrations'),
    );
    return c.json({ version: '0.0.0', schemaVersion: rows[0]?.version ?? null });
  });
  const n = 2000;
  const url = '/api/system?endpoint=get-version';
  await timeIt(200, () => t.app.request(url));
  await timeIt(200, () => raw.request('/raw'));
  const api = await timeIt(n, () => t.app.request(url));
  const ref = await timeIt(n, () => raw.request('/raw'));
  await t.cleanup();
  const a = percentile(api, 50);
  const r = percentile(ref, 50);
  return {
    what: `GET get-version through the full HTTP app (contract dispatch, validation, request log, security headers), p50 of ${n} (p95 ${ms(percentile(api, 95))})`,
    figure: ms(a),
    reference: `${ms(r)} (bare Hono route, same query in a transaction)`,
    ratio: `${(a / r).toFixed(2)}x`,
  };
}

async function benchTransactions(): Promise<Row> {
  const db = await createMemoryPgliteDatabase();
  await runMigrations(db);
  const n = 2000;
  const sql =
    "INSERT INTO contact_message (id, name, email, subject, message) VALUES (gen_random_uuid(), 'a', 'a@b.c', 's', 'm')";
  const layer = await timeIt(n, () => db.transaction((tx) => tx.query(sql)));
  const rawDb = await import('@electric-sql/pglite').then(({ PGlite }) => new PGlite());
  await rawDb.exec(
    'CREATE TABLE contact_message (id uuid primary key, name text, email text, subject text, message text, ip text, created_at timestamptz default now())',
  );
  const ref = await timeIt(n, () => rawDb.transaction((tx) => tx.query(sql)));
  await db.close();
  await rawDb.close();
  const a = percentile(layer, 50);
  const r = percentile(ref, 50);
  return {
    what: `one-row write transaction through the data-access layer (PGlite, in memory), p50 of ${n}`,
    figure: ms(a),
    reference: `${ms(r)} (raw PGlite transaction)`,
    ratio: `${(a / r).toFixed(2)}x`,
  };
}

const rows = [
  await benchDispatch(),
  await benchTransactions(),
  ...(await measureShellSize(path.resolve(import.meta.dirname, '..'))),
];
const table = [
  `Measured ${new Date().toISOString()} on Node ${process.version}, ${(await import('node:os')).cpus().length} cores.`,
  '',
  '| what | figure | reference (same run) | ratio |',
  '|---|---|---|---|',
  ...rows.map((row) => `| ${row.what} | ${row.figure} | ${row.reference} | ${row.ratio} |`),
].join('\n');
process.stdout.write(`${table}\n`);

const file = path.resolve(import.meta.dirname, '..', 'BENCHMARKS.md');
const current = await readFile(file, 'utf8');
const start = '<!-- bench:start -->';
const end = '<!-- bench:end -->';
const next = current.replace(new RegExp(`${start}[\\s\\S]*${end}`), `${start}\n${table}\n${end}`);
await writeFile(file, next);
