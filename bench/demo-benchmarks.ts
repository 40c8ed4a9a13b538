/**
 * Issue 17's figure for /demo: "It loads in under 2 s on the Lighthouse mobile profile." The
 * demo is the real app on a workspace seeded into the visitor's browser, so the audit covers the
 * whole start: the prerendered entry, the app's chunks, the seed and the dashboard it ends on.
 *
 * Lighthouse with bench/lighthouse.ts's settings (mobile, all four categories, median of 3 runs)
 * on a production build served by the real HTTP app (compression, headers, CSP). Each run gets a
 * fresh Chromium profile (a new chrome-launcher user data dir), so every run seeds the demo
 * database from nothing, as a first visit does. The reference is /pricing, a prerendered public
 * page of the same build, audited the same way in the same run. Every run is checked to end on
 * /dashboard and to have sent nothing to /api, /auth or /hubs.
 *
 * `npx tsx bench/demo-benchmarks.ts [distDir]` builds into `.tmp/dist-bench-demo` (unless given a
 * build), prints the rows and rewrites the table between the demo-bench markers in BENCHMARKS.md.
 * The median reports are written to `.tmp/lighthouse-demo.json` and `.tmp/lighthouse-pricing.json`,
 * every /demo run's to `.tmp/lighthouse-demo-run<n>.json`.
 */
import { readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { withTarget, type BenchRow } from './bench-row.ts';
import { audit, findChromium, launchChrome, ms, serveCopy, type Audit } from './lighthouse.ts';
import { runSectionAlone } from './section-run.ts';
import { DEMO_SHOWN_MARK } from '../src/demo/demo-mode.ts';

const root = path.resolve(import.meta.dirname, '..');
/** Issue 17: the demo loads in under 2 s on the Lighthouse mobile profile. */
const LCP_TARGET_MS = 2000;

export interface DemoBenchOptions {
  distDir?: string;
  /** Runs per page; the run with the median performance score is reported. */
  runs?: number;
  chromePath?: string;
  /** Where the median Lighthouse reports are written. */
  reportDir?: string;
}

/** A copy of the build served by the real app (as `npm start` serves it, on PGlite). */
/**
 * Every page and asset fetched once before the audits. Without it, the first /demo run of a fresh
 * server twice read its first paint at about 1.65 s observed against 0.2 to 0.5 s in the next
 * ones; a cold server is the suspected cause (not proven), and /demo, audited first, took it alone.
 */
async function warmUp(origin: string, distDir: string): Promise<void> {
  const assets = (await readdir(path.join(distDir, 'assets'))).map((file) => `/assets/${file}`);
  for (const pathname of ['/demo', '/pricing', ...assets]) {
    const reply = await fetch(`${origin}${pathname}`, {
      headers: { 'accept-encoding': 'br, gzip' },
    });
    await reply.arrayBuffer();
  }
}

/** One audit in a Chromium of its own (a fresh profile: no IndexedDB, cache or service worker). */
async function freshAudit(url: string, chromePath: string): Promise<Audit> {
  for (let attempt = 1; ; attempt += 1) {
    const chrome = await launchChrome(chromePath);
    try {
      return await audit(url, chrome.port);
    } catch (error) {
      // Lighthouse sometimes fails to record a trace (NO_NAVSTART): such a run is repeated.
      if (attempt >= 3) throw error;
    } finally {
      chrome.kill();
    }
  }
}

interface Runs {
  median: Audit;
  all: Audit[];
}

async function medianOfFresh(url: string, chromePath: string, runs: number): Promise<Runs> {
  const all: Audit[] = [];
  for (let i = 0; i < runs; i += 1) all.push(await freshAudit(url, chromePath));
  const sorted = [...all].sort((a, b) => a.scores.performance - b.scores.performance);
  return { median: sorted[Math.floor(sorted.length / 2)]!, all };
}

const numeric = (run: Audit, id: string) => run.lhr.audits[id]?.numericValue ?? Number.NaN;
const seconds = (value: number) => `${(value / 1000).toFixed(1)} s`;

const kib = (bytes: number) => `${Math.round(bytes / 1024)} KiB`;

function requestUrls(run: Audit): string[] {
  const details = run.lhr.audits['network-requests']?.details as
    { items?: { url: string }[] } | undefined;
  return (details?.items ?? []).map((item) => item.url);
}

const requestCount = (run: Audit) => requestUrls(run).length;

/** Requests of a run to the server's API, auth service or hubs: the demo must make none. */
function serverCalls(run: Audit): string[] {
  return requestUrls(run)
    .filter((url) => url.startsWith('http'))
    .map((url) => new URL(url).pathname)
    .filter((pathname) => /^\/(api|auth|hubs)\//.test(pathname));
}

/** An observed (unthrottled) timing of the run from Lighthouse's metrics audit. */
function observed(run: Audit, key: string): number {
  const details = run.lhr.audits.metrics?.details as
    { items?: Record<string, number | undefined>[] } | undefined;
  return details?.items?.[0]?.[key] ?? Number.NaN;
}

/**
 * Which paint was the LCP: Lighthouse 12.2's LCP element audit fails on these traces ("RootCauses"
 * gatherer), so it is told by the observed times: the entry's copy paints at the first contentful
 * paint, the app's screens later.
 */
function lcpIs(run: Audit): string {
  const lcp = observed(run, 'observedLargestContentfulPaint');
  const fcp = observed(run, 'observedFirstContentfulPaint');
  return lcp <= fcp
    ? "the entry's prerendered copy (LCP = FCP observed)"
    : `a later paint (observed ${ms(lcp)}, FCP ${ms(fcp)})`;
}

/** The demo's first screen shown (src/demo/hide-demo-entry.ts's user timing), observed. */
function shownAt(run: Audit): number {
  const details = run.lhr.audits['user-timings']?.details as
    { items?: { name: string; startTime: number }[] } | undefined;
  return details?.items?.find((item) => item.name === DEMO_SHOWN_MARK)?.startTime ?? Number.NaN;
}

export async function runDemoBenchmarks(options: DemoBenchOptions = {}): Promise<BenchRow[]> {
  const chromePath = await findChromium(options.chromePath);
  const distDir = path.resolve(options.distDir ?? 'dist');
  const runs = options.runs ?? 3;
  const reportDir = options.reportDir ?? path.join(root, '.tmp');
  const site = await serveCopy(distDir);
  try {
    await warmUp(site.origin, distDir);
    const demo = await medianOfFresh(`${site.origin}/demo`, chromePath, runs);
    const pricing = await medianOfFresh(`${site.origin}/pricing`, chromePath, runs);
    await writeFile(path.join(reportDir, 'lighthouse-demo.json'), JSON.stringify(demo.median.lhr));
    for (const [index, run] of demo.all.entries()) {
      await writeFile(
        path.join(reportDir, `lighthouse-demo-run${index + 1}.json`),
        JSON.stringify(run.lhr),
      );
    }
    await writeFile(
      path.join(reportDir, 'lighthouse-pricing.json'),
      JSON.stringify(pricing.median.lhr),
    );
    for (const run of demo.all) {
      const landed = new URL(run.lhr.finalDisplayedUrl).pathname;
      if (landed !== '/dashboard') throw new Error(`a /demo run ended on ${landed}`);
      const calls = serverCalls(run);
      if (calls.length > 0) throw new Error(`a /demo run called the server: ${calls.join(', ')}`);
    }
    const d = demo.median;
    const p = pricing.median;
    const every = (all: Audit[], pick: (run: Audit) => string) => all.map(pick).join(', ');
    const tti = (run: Audit) => numeric(run, 'interactive');
    return [
      withTarget(
        {
          what: `/demo, ending on /dashboard with the seeded workspace (fresh profile each run): LCP, simulated mobile, median of ${runs} runs by performance (every run: ${every(demo.all, (run) => ms(run.lcpMs))}; LCP: ${lcpIs(d)})`,
          figure: ms(d.lcpMs),
          reference: `${ms(p.lcpMs)} (/pricing; every run: ${every(pricing.all, (run) => ms(run.lcpMs))})`,
          ratio: `${(d.lcpMs / p.lcpMs).toFixed(2)}x`,
        },
        `< ${seconds(LCP_TARGET_MS)}`,
        d.lcpMs < LCP_TARGET_MS,
      ),
      {
        what: '/demo: performance / accessibility / best-practices / SEO',
        figure: `${d.scores.performance} / ${d.scores.accessibility} / ${d.scores['best-practices']} / ${d.scores.seo}`,
        reference: `${p.scores.performance} / ${p.scores.accessibility} / ${p.scores['best-practices']} / ${p.scores.seo} (/pricing)`,
        ratio: 'n/a',
      },
      {
        what: '/demo: FCP / TBT / time to interactive / CLS',
        figure: `${ms(d.fcpMs)} / ${ms(d.tbtMs)} / ${ms(tti(d))} / ${d.cls.toFixed(3)}`,
        reference: `${ms(p.fcpMs)} / ${ms(p.tbtMs)} / ${ms(tti(p))} / ${p.cls.toFixed(3)} (/pricing)`,
        ratio: `${(d.fcpMs / p.fcpMs).toFixed(2)}x FCP`,
      },
      {
        what: `/demo: the seeded dashboard on screen (the entry's copy hidden; user timing \`${DEMO_SHOWN_MARK}\`), observed in the unthrottled load Lighthouse simulates from: not a simulated mobile time (every run: ${every(demo.all, (run) => ms(shownAt(run)))})`,
        figure: ms(shownAt(d)),
        reference: `${ms(observed(p, 'observedLargestContentfulPaint'))} (/pricing's observed LCP)`,
        ratio: `${(shownAt(d) / observed(p, 'observedLargestContentfulPaint')).toFixed(2)}x`,
      },
      {
        what: '/demo: main-thread script evaluation (bootup-time) / requests / transfer',
        figure: `${ms(numeric(d, 'bootup-time'))} / ${requestCount(d)} / ${kib(numeric(d, 'total-byte-weight'))}`,
        reference: `${ms(numeric(p, 'bootup-time'))} / ${requestCount(p)} / ${kib(numeric(p, 'total-byte-weight'))} (/pricing)`,
        ratio: 'n/a',
      },
      {
        what: 'Lighthouse CPU benchmark index of this machine (median /demo run; /pricing run)',
        figure: String(Math.round(d.benchmarkIndex)),
        reference: `${Math.round(p.benchmarkIndex)} (/pricing); every /demo run: ${every(demo.all, (run) => String(Math.round(run.benchmarkIndex)))}`,
        ratio: 'n/a',
      },
    ];
  } finally {
    await site.close();
  }
}

const isMain = process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href;
if (isMain) {
  await runSectionAlone({
    name: 'demo',
    tools: 'Lighthouse 12.2.3',
    run: (distDir) => runDemoBenchmarks({ distDir }),
  });
}
