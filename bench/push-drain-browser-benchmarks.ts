/**
 * Push drain as the product runs it (issue 11): the app in headless Chromium (production build,
 * its sync engine on the browser's IndexedDB) against the real server as `npm start` runs it
 * (child process, embedded PGlite under a temporary DATA_DIR). Offline, Settings > Data imports a
 * CSV of 5,000 clients: 5,000 creates wait in the device's outbox. The clock starts when the
 * network comes back and stops when the device's outbox is empty: every create was pushed (batches
 * of 100), applied, acked, and confirmed by the pull that brings the server's rows back.
 *
 * The reference, in the same run: the same number of client rows as raw single-row INSERT
 * transactions into the database the server used (opened in this process after the server has
 * stopped, so the same files, engine and settings), which is what each mutation cost before a push
 * batch became one transaction. The bench also checks that the server holds the 5,000 clients.
 *
 * Run alone: `npx tsx bench/push-drain-browser-benchmarks.ts [distDir]` (builds when no build is
 * given; rewrites its section in BENCHMARKS.md). For looking into the figure: DRAIN_CLIENTS sets
 * the count, DRAIN_DEBUG=1 prints each request's timing, DRAIN_TRACE=<file> writes a Chromium
 * trace with CPU profiles of the page and the sync worker.
 */
import { rm } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import type { Page } from '@playwright/test';
import { createPgliteDatabase } from '../server/db/pglite-database.ts';
import { withTarget, type BenchRow } from './bench-row.ts';
import { launchBenchChromium, signUpAndIn, startServer } from './cold-open-benchmark.ts';
import { runSectionAlone } from './section-run.ts';

const CLIENTS = Number(process.env.DRAIN_CLIENTS ?? 5_000);
const fmt = (value: number) => value.toLocaleString('en-US');
const perSecond = (count: number, ms: number) => Math.round((count / ms) * 1_000);

/** Entries in the signed-in user's outbox, read straight from IndexedDB. */
async function outboxCount(page: Page): Promise<number> {
  return page.evaluate(async () => {
    const names = (await indexedDB.databases()).map((db) => db.name ?? '');
    const name = names.find((n) => n.startsWith('satchel-') && n !== 'satchel-demo');
    if (!name) throw new Error('no local database');
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open(name);
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(new Error(request.error?.message ?? 'IndexedDB error'));
    });
    const count = await new Promise<number>((resolve, reject) => {
      const request = db.transaction('outbox').objectStore('outbox').count();
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(new Error(request.error?.message ?? 'IndexedDB error'));
    });
    db.close();
    return count;
  });
}

/** Queues `count` client creates offline through the app's own CSV import. */
async function queueImportedClients(page: Page, count: number): Promise<void> {
  await page.goto('/settings?tab=data');
  await page.getByRole('heading', { name: 'Export your data' }).waitFor();
  await page.context().setOffline(true);
  const rows = Array.from(
    { length: count },
    (_, i) => `Drain ${String(i).padStart(5, '0')},active`,
  );
  await page.locator('input[type="file"]').setInputFiles({
    name: 'clients.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(`Name,Status\n${rows.join('\n')}\n`),
  });
  await page.getByRole('button', { name: /^Import [\d,]+ clients$/ }).click();
  await page.getByText(/^Imported [\d,]+ clients from clients\.csv/).waitFor({ timeout: 300_000 });
  const queued = await outboxCount(page);
  if (queued < count) throw new Error(`push drain: ${queued} of ${count} creates queued`);
}

/** Raw single-row INSERT transactions into the server's own (now closed) database. */
async function rawInserts(dataDir: string, count: number) {
  const db = await createPgliteDatabase({ dataDir });
  try {
    const { rows } = await db.query<{ workspace_id: string; created_by: string; n: string }>(
      "SELECT workspace_id, created_by, count(*) AS n FROM client WHERE name LIKE 'Drain %' GROUP BY 1, 2",
    );
    const drained = rows[0];
    if (!drained || Number(drained.n) !== count) {
      throw new Error(`push drain: the server holds ${drained?.n ?? 0} of ${count} clients`);
    }
    const started = performance.now();
    for (let i = 0; i < count; i += 1) {
      await db.transaction((tx) =>
        tx.query(
          "INSERT INTO client (id, workspace_id, name, status, currency, created_by, updated_by, version) VALUES ($1, $2, $3, 'active', 'USD', $4, $4, 0)",
          [crypto.randomUUID(), drained.workspace_id, `Raw ${i}`, drained.created_by],
        ),
      );
    }
    return performance.now() - started;
  } finally {
    await db.close();
  }
}

export async function runPushDrainBrowserBenchmark(options: {
  distDir: string;
}): Promise<BenchRow[]> {
  const server = await startServer(options.distDir, { keepDataDir: true });
  let drained: number;
  try {
    const browser = await launchBenchChromium();
    try {
      const { context, page } = await signUpAndIn(browser, server.origin, 'drain');
      await queueImportedClients(page, CLIENTS);
      const saved = page.getByRole('button', { name: 'Sync: All changes saved' });
      const trace: string[] = [];
      if (process.env.DRAIN_DEBUG) {
        const t0 = performance.now();
        page.on('requestfinished', (request) => {
          const timing = request.timing();
          trace.push(
            `${(performance.now() - t0).toFixed(0)} ${request.url().replace(server.origin, '').slice(0, 70)} wait ${timing.responseStart.toFixed(0)} total ${timing.responseEnd.toFixed(0)}`,
          );
        });
      }
      if (process.env.DRAIN_TRACE) {
        await browser.startTracing(page, {
          path: process.env.DRAIN_TRACE,
          categories: ['devtools.timeline', 'disabled-by-default-v8.cpu_profiler', 'v8.execute'],
        });
      }
      const started = performance.now();
      await context.setOffline(false);
      await saved.waitFor({ timeout: 300_000 });
      // "Saved" means pushed and acked; the acked entries leave the outbox when the pull that
      // follows brings the server's rows back. The clock stops when the outbox is empty.
      const deadline = Date.now() + 120_000;
      while ((await outboxCount(page)) !== 0) {
        if (Date.now() > deadline) throw new Error('push drain: the outbox never emptied');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      drained = performance.now() - started;
      if (process.env.DRAIN_TRACE) await browser.stopTracing();
      if (process.env.DRAIN_DEBUG) process.stderr.write(`${trace.join('\n')}\n`);
    } finally {
      await browser.close();
    }
  } finally {
    await server.stop();
  }
  try {
    const raw = await rawInserts(server.dataDir, CLIENTS);
    const rate = perSecond(CLIENTS, drained);
    const rawRate = perSecond(CLIENTS, raw);
    return [
      withTarget(
        {
          what: `push drain in the product: ${fmt(CLIENTS)} client creates queued offline (Settings > Data CSV import) in the app in headless Chromium (production build, browser IndexedDB), network back on until the outbox is empty (pushed in batches of 100 over HTTP to the real server as \`npm start\` runs it, embedded PGlite in DATA_DIR, acked, and confirmed by the pull that follows)`,
          figure: `${fmt(rate)} mutations/s (${(drained / 1_000).toFixed(2)} s)`,
          reference: `${fmt(rawRate)} rows/s (${(raw / 1_000).toFixed(2)} s: raw single-row INSERT transactions of as many client rows into the server's own database, after it stopped)`,
          ratio: `${(rate / rawRate).toFixed(2)}x of raw`,
        },
        '>= 500 mutations/s and >= 1x of raw (embedded)',
        rate >= 500 && rate >= rawRate,
      ),
    ];
  } finally {
    await rm(server.dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runSectionAlone({
    name: 'push-drain-browser',
    tools: 'Chromium',
    run: (distDir) => runPushDrainBrowserBenchmark({ distDir }),
  });
}
