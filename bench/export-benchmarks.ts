/**
 * Issue 17, export: Settings > Data's zip (src/data-export/export-archive.ts, the module the Data
 * tab runs) for a workspace of 10,000 clients and 50,000 tasks, in Node on the same V8 as
 * Chromium. IndexedDB is not in these figures (the tab reads each table once with one indexed
 * query before this work starts), nor files' bytes.
 * - Time: rows to workspace.json, a CSV per entity (formula-escaped) and README, then zipped by
 *   fflate a megabyte at a time, median of 3. The reference, same rows, same run, alternating:
 *   `JSON.stringify` of the same rows (the least an export could do: one JSON text, no CSV, no
 *   zip).
 * - Peak memory: heap plus array buffers (the encoded text and the zip's chunks live there),
 *   sampled after each megabyte zipped, minus the figure after a forced GC with only the rows
 *   alive; the reference is the same measure around JSON.stringify with its string kept.
 *
 * `runExportBenchmarks()` returns the rows; `npx tsx bench/export-benchmarks.ts` prints them and
 * rewrites the export-bench table in BENCHMARKS.md (no build is needed: it passes `-`).
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { pathToFileURL } from 'node:url';
import { allEntities } from '#contract/synced-entities.ts';
import {
  archiveEntries,
  zipEntries,
  type ExportContent,
} from '../src/data-export/export-archive.ts';
import type { BenchRow } from './bench-row.ts';
import { runSectionAlone } from './section-run.ts';

const CLIENTS = 10_000;
const TASKS = 50_000;
const WORKSPACE = '0190a000-0000-7000-8000-000000000001';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const id = (prefix: number, n: number) =>
  `0190b${String(prefix).padStart(3, '0')}-0000-7000-8000-${String(n).padStart(12, '0')}`;
const stamp = {
  createdAt: '2026-03-01T09:30:00.000Z',
  createdBy: id(9, 1),
  updatedAt: '2026-11-20T16:05:12.345Z',
  updatedBy: id(9, 1),
  version: 42,
};

function makeRows() {
  const next = random(17);
  const words =
    'logo refresh homepage design review kickoff invoice brand launch mobile audit copy'.split(' ');
  const phrase = (n: number) =>
    Array.from({ length: n }, () => words[Math.floor(next() * words.length)]!).join(' ');
  const clients = Array.from({ length: CLIENTS }, (_, n) => ({
    id: id(1, n),
    workspaceId: WORKSPACE,
    name: n % 500 === 0 ? `=HYPERLINK("http://x","Client ${n}")` : `Client ${n} ${phrase(2)}`,
    company: `Company ${n}, Ltd`,
    email: `client${n}@example.com`,
    phone: n % 3 === 0 ? null : `+44 20 7946 ${String(n).padStart(4, '0')}`,
    address: n % 2 === 0 ? `${n} High Street\nLondon` : null,
    website: n % 4 === 0 ? `https://client${n}.example` : null,
    notesSummary: n % 5 === 0 ? phrase(30) : null,
    tags: n % 2 === 0 ? ['retainer', 'design'] : [],
    status: 'active',
    currency: 'EUR',
    locale: null,
    timeZone: 'Europe/London',
    archived: false,
    ...stamp,
  }));
  const tasks = Array.from({ length: TASKS }, (_, n) => ({
    id: id(2, n),
    workspaceId: WORKSPACE,
    projectId: id(3, n % 2_000),
    title: `Task ${n}: ${phrase(4)}`,
    description: n % 3 === 0 ? phrase(40) : null,
    columnId: id(4, n % 8_000),
    position: `a${n.toString(36)}`,
    assigneeId: null,
    dueDate: n % 2 === 0 ? '2026-12-01' : null,
    priority: 'none',
    labels: n % 4 === 0 ? ['urgent'] : [],
    estimateMinutes: n % 5 === 0 ? 90 : null,
    milestoneId: null,
    checklist: n % 10 === 0 ? [{ id: 'c1', text: phrase(5), done: false }] : [],
    ...stamp,
  }));
  return { clients, tasks };
}

const memory = () => {
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
};
const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const ms = (value: number) => `${value.toFixed(0)} ms`;
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

export async function runExportBenchmarks(): Promise<BenchRow[]> {
  const { clients, tasks } = makeRows();
  const content: ExportContent = {
    workspace: { id: WORKSPACE, name: 'Bench studio' },
    exportedAt: new Date().toISOString(),
    tables: allEntities().map((entity) => ({
      entity,
      rows: entity.name === 'client' ? clients : entity.name === 'task' ? tasks : [],
    })),
    filesRequested: false,
    files: [],
    missingFiles: [],
  };

  const exportTimes: number[] = [];
  const jsonTimes: number[] = [];
  const exportPeaks: number[] = [];
  const jsonPeaks: number[] = [];
  let zipBytes = 0;
  let jsonBytes = 0;
  for (let round = 0; round < 3; round += 1) {
    gc();
    let base = memory();
    let peak = base;
    let started = performance.now();
    const entries = archiveEntries(content);
    peak = Math.max(peak, memory());
    const chunks = await zipEntries(entries, {
      onProgress: () => {
        peak = Math.max(peak, memory());
      },
    });
    exportTimes.push(performance.now() - started);
    exportPeaks.push(peak - base);
    zipBytes = chunks.reduce((sum, chunk) => sum + chunk.length, 0);

    gc();
    base = memory();
    started = performance.now();
    const json = JSON.stringify({ clients, tasks });
    jsonTimes.push(performance.now() - started);
    jsonPeaks.push(memory() - base);
    jsonBytes = json.length;
  }

  const time = median(exportTimes);
  const reference = median(jsonTimes);
  const peak = Math.max(...exportPeaks);
  const jsonPeak = Math.max(...jsonPeaks);
  return [
    {
      what: `Export of ${CLIENTS.toLocaleString('en-US')} clients and ${TASKS.toLocaleString('en-US')} tasks: workspace.json, a CSV per entity (${allEntities().length}), README, zipped (median of 3; IndexedDB read not included)`,
      figure: ms(time),
      reference: `JSON.stringify of the same rows: ${ms(reference)}`,
      ratio: `${(time / reference).toFixed(1)}x`,
    },
    {
      what: 'Peak memory of that export (heap + array buffers above the rows, sampled per megabyte zipped, max of 3)',
      figure: mib(peak),
      reference: `JSON.stringify, its string kept: ${mib(jsonPeak)}`,
      ratio: `${(peak / jsonPeak).toFixed(1)}x`,
    },
    {
      what: 'Size of the zip (workspace.json, the CSVs and README, deflated)',
      figure: mib(zipBytes),
      reference: `the JSON.stringify text: ${mib(jsonBytes)}`,
      ratio: `${(zipBytes / jsonBytes).toFixed(2)}x`,
    },
  ];
}

const isMain = process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href;
if (isMain) {
  // Node-side: nothing is served, so no build is made (section-run builds when given none).
  if (!process.argv[2]) process.argv[2] = '-';
  await runSectionAlone({ name: 'export', run: () => runExportBenchmarks() });
}
