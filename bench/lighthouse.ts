/**
 * Lighthouse (mobile settings: Moto G Power emulation, simulated slow 4G and 4x CPU slowdown) on
 * the production build's public pages, served by the real HTTP app (compression, headers, CSP)
 * in the system Chromium. The reference is the same audit, in the same run and from the same
 * server, of a minimal static page (one heading and a paragraph, no script, no stylesheet): what
 * this machine and these settings allow at best.
 *
 * `runLighthouse()` returns the rows for BENCHMARKS.md; `tsx bench/lighthouse.ts [distDir]`
 * prints them and rewrites the "Public site" table there. Build first: `npm run build`.
 */
import { access, constants, cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { serve } from '@hono/node-server';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { type Flags, type Result } from 'lighthouse';
import { createTestApp } from '../tests/fixtures/create-test-app.ts';
import type { BenchRow } from './bench-row.ts';

export type Row = BenchRow;

/** Issue 6: each category at least 95 on mobile settings. */
export const TARGET_SCORE = 95;

export interface LighthouseOptions {
  /** The built app (`vite build` output); `dist` by default. */
  distDir?: string;
  /** Public pages to audit. */
  paths?: readonly string[];
  /** Runs per page; the run with the median performance score is reported. */
  runs?: number;
  chromePath?: string;
}

export const categories = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
export type Category = (typeof categories)[number];

export interface Audit {
  scores: Record<Category, number>;
  /** Lighthouse's CPU benchmark of this machine (a typical desktop is around 1000–2000). */
  benchmarkIndex: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  fcpMs: number;
  /** The whole report, for a look at why a score is what it is. */
  lhr: Result;
}

export const REFERENCE_PATH = '/lighthouse-reference';
export const REFERENCE_HTML = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Reference page</title>
    <meta name="description" content="A minimal static page, the best case for these Lighthouse settings on this machine." />
  </head>
  <body>
    <main>
      <h1>Reference page</h1>
      <p>One heading and one paragraph: no script, no stylesheet, no image.</p>
    </main>
  </body>
</html>
`;

/** One Lighthouse run with these settings; `flags` adds to them (e.g. `disableStorageReset`). */
export async function audit(url: string, port: number, flags: Flags = {}): Promise<Audit> {
  const result = await lighthouse(url, {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: [...categories],
    ...flags,
  });
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
  const { lhr } = result;
  if (lhr.runtimeError) throw new Error(`${url}: ${lhr.runtimeError.message}`);
  const score = (category: Category) => Math.round((lhr.categories[category]?.score ?? 0) * 100);
  const numeric = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
  return {
    scores: Object.fromEntries(categories.map((c) => [c, score(c)])) as Record<Category, number>,
    benchmarkIndex: lhr.environment.benchmarkIndex,
    lcpMs: numeric('largest-contentful-paint'),
    tbtMs: numeric('total-blocking-time'),
    cls: numeric('cumulative-layout-shift'),
    fcpMs: numeric('first-contentful-paint'),
    lhr,
  };
}

/** Lighthouse sometimes fails to record a trace (NO_NAVSTART); such a run is repeated. */
export async function auditWithRetry(url: string, port: number, attempts = 3): Promise<Audit> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await audit(url, port);
    } catch (error) {
      if (attempt >= attempts) throw error;
    }
  }
}

export async function medianAudit(url: string, port: number, runs: number): Promise<Audit> {
  const results: Audit[] = [];
  for (let i = 0; i < runs; i += 1) results.push(await auditWithRetry(url, port));
  results.sort((a, b) => a.scores.performance - b.scores.performance);
  return results[Math.floor(results.length / 2)]!;
}

export const ms = (value: number) => `${Math.round(value)} ms`;

/** Serves a copy of a build over HTTP with the real app; `edit` changes the copy first. */
export async function serveCopy(
  distDir: string,
  edit: (dir: string) => Promise<void> = () => Promise.resolve(),
) {
  const root = await mkdtemp(path.join(tmpdir(), 'satchel-lighthouse-'));
  const dir = path.join(root, 'dist');
  await cp(distDir, dir, { recursive: true });
  await edit(dir);
  const app = await createTestApp({ distDir: dir });
  const server = serve({ fetch: app.app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await app.cleanup();
      await rm(root, { recursive: true, force: true });
    },
  };
}

/** The Chromium to audit with (`CHROMIUM_PATH` or the system one), checked to be there. */
export async function findChromium(chromePath?: string): Promise<string> {
  const found = chromePath ?? process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  // chrome-launcher reports a missing binary as an unhandled 'error' event that ends the process;
  // checked first, it is an ordinary failure of this section instead.
  await access(found, constants.X_OK).catch(() => {
    throw new Error(`no Chromium at ${found} (apt-get install chromium, or set CHROMIUM_PATH)`);
  });
  return found;
}

/** Headless Chromium for Lighthouse, with this section's flags. */
export function launchChrome(chromePath: string): Promise<chromeLauncher.LaunchedChrome> {
  return chromeLauncher.launch({
    chromePath,
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
}

export async function runLighthouse(options: LighthouseOptions = {}): Promise<Row[]> {
  const chromePath = await findChromium(options.chromePath);
  const distDir = path.resolve(options.distDir ?? 'dist');
  const paths = options.paths ?? ['/', '/pricing', '/features'];
  const runs = options.runs ?? 3;
  // The build with the reference page beside the real ones, so one server serves both; and the
  // same build without its prerendered pages, to show what prerendering buys.
  const site = await serveCopy(distDir, async (dir) => {
    await mkdir(path.join(dir, REFERENCE_PATH.slice(1)), { recursive: true });
    await writeFile(path.join(dir, REFERENCE_PATH.slice(1), 'index.html'), REFERENCE_HTML);
  });
  const shellOnly = await serveCopy(distDir, async (dir) => {
    for (const pagePath of paths) {
      const file = pagePath === '/' ? 'home.html' : path.join(pagePath.slice(1), 'index.html');
      await rm(path.join(dir, file), { force: true });
    }
  });
  const chrome = await launchChrome(chromePath);
  try {
    const reference = await medianAudit(`${site.origin}${REFERENCE_PATH}`, chrome.port, runs);
    const rows: Row[] = [];
    for (const pagePath of paths) {
      const page = await medianAudit(`${site.origin}${pagePath}`, chrome.port, runs);
      for (const category of categories) {
        const figure = page.scores[category];
        const best = reference.scores[category];
        rows.push({
          what: `Lighthouse mobile ${category}, ${pagePath} (median of ${runs} runs)`,
          figure: String(figure),
          reference: `${best} (minimal static page)`,
          ratio: best > 0 ? `${(figure / best).toFixed(2)}x` : 'n/a',
          target: `>= ${TARGET_SCORE}`,
          pass: figure >= TARGET_SCORE,
        });
      }
      rows.push({
        what: `${pagePath}: LCP / TBT / CLS / FCP, simulated mobile`,
        figure: `${ms(page.lcpMs)} / ${ms(page.tbtMs)} / ${page.cls.toFixed(3)} / ${ms(page.fcpMs)}`,
        reference: `${ms(reference.lcpMs)} / ${ms(reference.tbtMs)} / ${reference.cls.toFixed(3)} / ${ms(reference.fcpMs)} (minimal static page)`,
        ratio: `${(page.lcpMs / reference.lcpMs).toFixed(2)}x LCP`,
      });
      const shell = await medianAudit(`${shellOnly.origin}${pagePath}`, chrome.port, runs);
      rows.push({
        what: `${pagePath}: LCP and performance, prerendered vs the same build without the prerendered page`,
        figure: `${ms(page.lcpMs)}, ${page.scores.performance}`,
        reference: `${ms(shell.lcpMs)}, ${shell.scores.performance} (app shell only)`,
        ratio: `${(page.lcpMs / shell.lcpMs).toFixed(2)}x LCP`,
      });
    }
    rows.push({
      what: 'Lighthouse CPU benchmark index of this machine (reference run)',
      figure: String(Math.round(reference.benchmarkIndex)),
      reference: 'a typical desktop scores 1000–2000',
      ratio: 'n/a',
    });
    return rows;
  } finally {
    chrome.kill();
    await site.close();
    await shellOnly.close();
  }
}

export function formatRows(rows: readonly Row[]): string {
  return [
    '| what | figure | reference (same run) | ratio | target | result |',
    '|---|---|---|---|---|---|',
    ...rows.map(
      (row) =>
        `| ${row.what} | ${row.figure} | ${row.reference} | ${row.ratio} | ${row.target ?? '—'} | ${row.pass === undefined ? '—' : row.pass ? 'pass' : '**fail**'} |`,
    ),
  ].join('\n');
}

const isMain = process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href;
if (isMain) {
  const distDir = process.argv[2] ?? 'dist';
  const rows = await runLighthouse({ distDir });
  const table = [
    `Measured ${new Date().toISOString()} on Node ${process.version}, Lighthouse 12.2.3, ${(await import('node:os')).cpus().length} cores, build in \`${distDir}\`.`,
    '',
    formatRows(rows),
  ].join('\n');
  process.stdout.write(`${table}\n`);
  const file = path.resolve(import.meta.dirname, '..', 'BENCHMARKS.md');
  const current = await readFile(file, 'utf8');
  const start = '<!-- lighthouse:start -->';
  const end = '<!-- lighthouse:end -->';
  if (current.includes(start)) {
    const next = current.replace(
      new RegExp(`${start}[\\s\\S]*${end}`),
      `${start}\n${table}\n${end}`,
    );
    // Written as prettier formats it, so `prettier --check` stays green.
    const { format } = await import('prettier');
    await writeFile(file, await format(next, { filepath: file }));
  }
}
