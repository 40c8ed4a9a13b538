/**
 * `npm run bench`: every benchmark of the project, each figure measured beside a reference in the
 * same run (so a noisy machine moves both) and, where the design sets one, its target and whether
 * it was met. Writes the tables into BENCHMARKS.md between the bench markers.
 */
import { createWriteStream } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import path from 'node:path';
import { Hono } from 'hono';
import { format } from 'prettier';
import { runMigrations } from '../server/db/migrate.ts';
import { createMemoryPgliteDatabase } from '../server/db/pglite-database.ts';
import { createTestApp } from '../tests/fixtures/create-test-app.ts';
import { runAuthBenchmarks } from './auth-benchmarks.ts';
import type { BenchRow } from './bench-row.ts';
import { runChatBenchmarks } from './chat-benchmarks.ts';
import { runColdOpenBenchmark } from './cold-open-benchmark.ts';
import { runPushDrainBrowserBenchmark } from './push-drain-browser-benchmarks.ts';
import { runExportBenchmarks } from './export-benchmarks.ts';
import { runFilesBenchmarks } from './files-benchmarks.ts';
import { runInvoiceBenchmarks } from './invoice-benchmarks.ts';
import { runLighthouse } from './lighthouse.ts';
import { runLoadBenchmark } from './load-benchmark.ts';
import { runPortalBenchmarks } from './portal-benchmarks.ts';
import { runRealtimeBenchmarks } from './realtime-benchmarks.ts';
import { runSearchBenchmarks } from './search-benchmarks.ts';
import { measureShellSize } from './shell-size.ts';
import { runSyncBenchmarks } from './sync-benchmarks.ts';

type Row = BenchRow;

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

const root = path.resolve(import.meta.dirname, '..');
const distDir = path.join(root, '.tmp', 'dist-bench');

interface Section {
  title: string;
  note?: string;
  run: () => Promise<BenchRow[]>;
}

// Realtime first: its per-connection memory figure is cleanest on a heap the other sections
// have not grown yet. The shell build comes before Lighthouse, which audits that same build.
const sections: Section[] = [
  { title: 'Real-time hub (issue 5)', run: runRealtimeBenchmarks },
  {
    title: 'Foundation: server',
    run: async () => [await benchDispatch(), await benchTransactions()],
  },
  {
    title: 'Shell budget (ARCHITECTURE.md section 11)',
    note: 'Measured on a fresh production build in `.tmp/dist-bench`.',
    run: () => measureShellSize(root, distDir),
  },
  { title: 'Accounts (issue 3)', run: runAuthBenchmarks },
  {
    title: 'Offline data layer (issue 4)',
    note: "IndexedDB is fake-indexeddb in Node (pure JS): absolute figures are far below a browser's; the ratios carry over.",
    run: runSyncBenchmarks,
  },
  {
    title: 'Offline data layer: cold open in Chromium (issue 4)',
    note: 'Headless Chromium against the build above and the real server, network off.',
    run: () => runColdOpenBenchmark({ distDir }),
  },
  {
    title: 'Push drain in the product (issue 11)',
    note: 'The app in headless Chromium (the build above) against the real server as `npm start` runs it; see the push drain section below.',
    run: () => runPushDrainBrowserBenchmark({ distDir }),
  },
  {
    title: 'Public site: Lighthouse, mobile settings (issue 6)',
    note: 'Lighthouse 12.2.3 in the system Chromium against the build above, served by the real HTTP app; references are a minimal static page and the same page without its prerendered HTML, same server, same run.',
    run: () => runLighthouse({ distDir }),
  },
  {
    title: 'Client portal (issue 14)',
    note: 'The build above, served by the real HTTP app with a seeded workspace (a client, a project with 3 milestones and 3 files, the portal on with a password). Lighthouse 12.2.3 as in the Public site section, in the system Chromium: the portal link with no session (it opens the password gate) and the project view with a live portal session (entered through the gate over CDP; `disableStorageReset`; service worker, caches and the offline copy cleared before each run). The reference is the minimal static page, same server, same run. The offline re-open is Playwright in the system Chromium, each offline open alternating with the same open online. Median Lighthouse reports: `.tmp/lighthouse-portal-*.json`.',
    run: () => runPortalBenchmarks({ distDir }),
  },
  {
    title: 'Chat (issue 15)',
    note: 'Two pages of one member in the system Chromium against the build above and the real server; the reference is a bare hub message (a test notification to the bell), alternating with the chat message in the same run.',
    run: () => runChatBenchmarks({ distDir }),
  },
  {
    title: 'Search (issue 17)',
    note: "Node-side, the palette's own index module over 50,000 generated mixed records; the reference is Array.filter over the same strings on the same keystrokes (see the search section below for the data).",
    run: runSearchBenchmarks,
  },
  {
    title: 'Export (issue 17)',
    note: "Node-side, the Data tab's own export module over 10,000 generated clients and 50,000 tasks; the reference is JSON.stringify of the same rows (see the export section below).",
    run: runExportBenchmarks,
  },
  {
    title: 'Invoices (issue 16)',
    note: 'The invoice PDF in Node (the server modules; 200 lines beside one line, alternating), and the invoices list opened offline in the system Chromium against the build above with 5,000 invoices seeded into IndexedDB, beside the same open with one invoice (see the invoices section below).',
    run: () => runInvoiceBenchmarks({ distDir }),
  },
  {
    title: 'Files (issue 13)',
    note: 'Throughput is the best of 3, figure and reference alternating; 256 MiB of random bytes from the page cache.',
    run: runFilesBenchmarks,
  },
  {
    title: 'Load: 200 users against the real server (issue 11)',
    note: 'The server as `npm start` runs it (child process, embedded PGlite in a temporary directory, embedded auth with OWASP argon2id, LOG_LEVEL=warn, TRUST_PROXY=1 with one X-Forwarded-For address per user so the shipped per-address limits apply per user). All 200 users start at once; each signs in with its password, pulls, pushes 5 creates and pulls again, over loopback with Node fetch (default keep-alive agent). The reference is as many GET /healthz at the same concurrency, same server, same run. No latency target is set; any error fails the rows.',
    run: runLoadBenchmark,
  },
];

const verdict = (row: BenchRow) => (row.pass === undefined ? '—' : row.pass ? 'pass' : '**fail**');
const parts: string[] = [
  `Measured ${new Date().toISOString()} on Node ${process.version}, ${cpus().length} cores, one \`npm run bench\`.`,
];
let failedSections = 0;
for (const section of sections) {
  process.stderr.write(`bench: ${section.title}\n`);
  const started = performance.now();
  let rows: BenchRow[];
  try {
    rows = await section.run();
  } catch (error) {
    // One broken section must not cost the figures of the others; it is recorded as broken.
    failedSections += 1;
    process.stderr.write(`bench: ${section.title} failed: ${String(error)}\n`);
    const message = error instanceof Error ? error.message : String(error);
    rows = [
      {
        what: `${section.title}: did not complete`,
        figure: message.split('\n')[0]?.replace(/\|/g, '\\|') ?? 'error',
        reference: '—',
        ratio: '—',
      },
    ];
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(0);
  parts.push(
    `### ${section.title}`,
    ...(section.note ? [section.note] : []),
    [
      '| what | figure | reference (same run) | ratio | target | result |',
      '|---|---|---|---|---|---|',
      ...rows.map(
        (row) =>
          `| ${row.what} | ${row.figure} | ${row.reference} | ${row.ratio} | ${row.target ?? '—'} | ${verdict(row)} |`,
      ),
    ].join('\n'),
    `(${seconds} s)`,
  );
}
const table = parts.join('\n\n');
process.stdout.write(`${table}\n`);

const file = path.join(root, 'BENCHMARKS.md');
const current = await readFile(file, 'utf8');
const start = '<!-- bench:start -->';
const end = '<!-- bench:end -->';
const next = current.replace(new RegExp(`${start}[\\s\\S]*${end}`), `${start}\n${table}\n${end}`);
// Written as prettier formats it, so `prettier --check` stays green.
await writeFile(file, await format(next, { filepath: file }));
if (failedSections > 0) process.exitCode = 1;
