/**
 * Issue 17, search: the device's index (src/search/search-index.ts, the module the palette uses)
 * over 50,000 mixed records, measured in Node on the same V8 as Chromium; IndexedDB is not in
 * these figures (the palette reads the tables once, then only a changed table).
 * - Per keystroke: every prefix of realistic queries ("l", "lo", "log", ... "logo refresh"),
 *   typed as a person types them, p50/p95 of `index.search` (MiniSearch plus ranking and
 *   grouping). The reference, same strings, same run, same keystrokes: a plain Array.filter
 *   with `includes` over each record's folded title and text (no ranking, no typos, no prefixes
 *   of later words: the least a search could do).
 * - Index build: the 50,000 rows to documents to MiniSearch, as the first open does; the
 *   reference is folding the same strings for the Array.filter (what a filter needs up front).
 * - Heap: used heap after a forced GC with the index built, minus before; reference the folded
 *   strings' own heap.
 * - One write: a source's rows compared with the index and one changed task re-indexed (what a
 *   write to 24,000 tasks costs once the table is read), beside rebuilding that source.
 *
 * `runSearchBenchmarks()` returns the rows; `npx tsx bench/search-benchmarks.ts` prints them and
 * rewrites the search-bench table in BENCHMARKS.md (no build is needed: it passes `-`).
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { pathToFileURL } from 'node:url';
import type { SyncedEntityName } from '#contract/synced-entities.ts';
import { foldText, SearchIndex } from '../src/search/search-index.ts';
import { searchSources } from '../src/search/search-sources.ts';
import { withTarget, type BenchRow } from './bench-row.ts';
import { runSectionAlone } from './section-run.ts';

const WORKSPACE = 'bench-workspace';
const TARGET_MS = 30;

/** 50,000 records in the proportions of a busy agency's workspace. */
const MIX: readonly [SyncedEntityName, number][] = [
  ['client', 1_500],
  ['project', 4_000],
  ['task', 24_000],
  ['milestone', 4_000],
  ['note', 3_000],
  ['client-note', 1_000],
  ['file', 6_000],
  ['chat-message', 5_500],
  ['invoice', 1_000],
];

// A Zipf vocabulary (s = 1) of about 8,000 words, as text in any language has: function words
// at the top ranks, the studio's own words (the ones the queries look for) spread over ranks 20 to
// 900, then a long tail of made-up words, so prefixes expand to many terms as in a real index.
const STOP = 'the and to of a for with on in is it this we our at be as by from please'.split(' ');
const COMMON = (
  'logo refresh homepage design review kickoff meeting invoice march april contract copy ' +
  'brand guidelines website launch mobile app onboarding feedback revisions final draft ' +
  'photos shoot campaign social media budget estimate timeline deliverables wireframes ' +
  'prototype testing staging deploy analytics report quarterly newsletter podcast video ' +
  'interview script storyboard illustration icons typography palette accessibility audit ' +
  'migration database server billing payment reminder proposal signed approved pending'
).split(' ');
const NAMES = (
  'Aurora Labs|Blue Harbor|Cedar & Pine|Driftwood Studio|Ember Coffee|Fjord Outdoor|Granite Legal|' +
  'Halcyon Health|Iris Florals|Juniper Bakery|Kestrel Bikes|Lumen Dental|Maple Yoga|Nimbus Cloud|' +
  'Orchid Spa|Pioneer Farms|Quartz Jewelry|Riverbend Realty|Saffron Kitchen|Tidal Surf'
).split('|');

function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}
const next = random(17);
const syllables = 'ka lo mi ne ru sa ti vo be da fe gi ho ju pa qu re so tu wy'.split(' ');
const vocabulary: string[] = [...STOP];
for (let rank = 0; vocabulary.length < 8_000 + STOP.length; rank += 1) {
  const common = COMMON[rank / 10];
  vocabulary.push(
    common ??
      Array.from(
        { length: 2 + Math.floor(next() * 3) },
        () => syllables[Math.floor(next() * 20)]!,
      ).join(''),
  );
}
const cumulative: number[] = [];
vocabulary.reduce((sum, _word, rank) => {
  cumulative.push(sum + 1 / (rank + 1));
  return sum + 1 / (rank + 1);
}, 0);
const word = () => {
  const target = next() * cumulative.at(-1)!;
  let low = 0;
  let high = cumulative.length - 1;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (cumulative[middle]! < target) low = middle + 1;
    else high = middle;
  }
  return vocabulary[low]!;
};
const words = (count: number) => Array.from({ length: count }, word).join(' ');
const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

export function makeRows(): Map<SyncedEntityName, Record<string, unknown>[]> {
  const local = { workspaceId: WORKSPACE, _v: 1, _pending: 0, _deleted: false, _base: {} };
  const rows = new Map<SyncedEntityName, Record<string, unknown>[]>();
  const idOf = (entity: string, n: number) => `${entity}-${n}`;
  const count = (entity: SyncedEntityName) => MIX.find(([name]) => name === entity)![1];
  const pick = (entity: SyncedEntityName) => idOf(entity, Math.floor(next() * count(entity)));
  for (const [entity, total] of MIX) {
    const list: Record<string, unknown>[] = [];
    for (let n = 0; n < total; n += 1) {
      const base = { ...local, id: idOf(entity, n) };
      const title = capitalised(words(2 + Math.floor(next() * 4)));
      switch (entity) {
        case 'client':
          list.push({
            ...base,
            name: `${NAMES[n % NAMES.length]} ${n}`,
            company: null,
            email: `hello${n}@example.com`,
            tags: [word()],
          });
          break;
        case 'project':
          list.push({ ...base, name: title, description: words(12), clientId: pick('client') });
          break;
        case 'task':
          list.push({
            ...base,
            title,
            description: next() < 0.5 ? words(15) : null,
            labels: next() < 0.3 ? [word()] : [],
            projectId: pick('project'),
          });
          break;
        case 'milestone':
          list.push({ ...base, title, description: words(10), projectId: pick('project') });
          break;
        case 'note':
          list.push({ ...base, title, body: words(60), projectId: pick('project') });
          break;
        case 'client-note':
          list.push({ ...base, title, body: words(40), clientId: pick('client') });
          break;
        case 'file':
          list.push({
            ...base,
            name: `${words(2).replace(' ', '-')}-v${n % 9}.${['pdf', 'png', 'docx', 'fig'][n % 4]}`,
            folder: next() < 0.5 ? 'Designs/Final' : '',
            projectId: pick('project'),
          });
          break;
        case 'chat-message':
          list.push({
            ...base,
            text: capitalised(words(4 + Math.floor(next() * 14))),
            authorName: '',
            deleted: false,
            projectId: pick('project'),
          });
          break;
        case 'invoice':
          list.push({
            ...base,
            title,
            number: n % 3 === 0 ? null : n + 1,
            notes: null,
            lines: [{ description: words(4) }, { description: words(3) }],
            clientId: pick('client'),
          });
          break;
        default:
          throw new Error(`No generator for ${entity}`);
      }
    }
    rows.set(entity, list);
  }
  return rows;
}

/** What people type into a palette, each typed a character at a time. */
export const QUERIES = [
  'logo refresh',
  'aurora labs',
  'kickoff meeting',
  'invoice march',
  'homepage copy',
  'brand guidelines',
  'design reveiw', // a typo: fuzzy
  'wireframes',
  'final draft pdf',
  'riverbend',
  'quarterly report',
  'onboarding feedback',
];

const quantile = (values: readonly number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
};
const ms = (value: number) => `${value.toFixed(value < 10 ? 2 : 1)} ms`;
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

/** Used heap after full collections (gc exposed when the section runs, not on import). */
function heapAfterGc(): number {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

async function buildIndex(rows: Map<SyncedEntityName, Record<string, unknown>[]>) {
  const index = new SearchIndex(searchSources);
  for (const source of searchSources)
    await index.syncSource(source.entity, rows.get(source.entity) ?? []);
  return index;
}

export async function runSearchBenchmarks(): Promise<BenchRow[]> {
  const rows = makeRows();
  const records = [...rows.values()].reduce((sum, list) => sum + list.length, 0);

  // Build: index vs the filter's folded strings, each twice (warm V8), the second one counted.
  let strings: string[] = [];
  let foldMs = 0;
  for (let run = 0; run < 2; run += 1) {
    const started = performance.now();
    strings = searchSources.flatMap((source) =>
      (rows.get(source.entity) ?? []).flatMap((row) => {
        const doc = source.toDoc(row);
        return doc ? [foldText(`${doc.title}\n${doc.text}`)] : [];
      }),
    );
    foldMs = performance.now() - started;
  }
  // The first build warms V8 and stays alive; the second is timed, and its heap is the heap
  // with both minus the heap with the first (so nothing of the first can be counted or freed).
  const warm = await buildIndex(rows);
  const beforeIndex = heapAfterGc();
  const started = performance.now();
  const index = await buildIndex(rows);
  const buildMs = performance.now() - started;
  const indexHeap = heapAfterGc() - beforeIndex;
  if (warm.size !== index.size) throw new Error('The two builds differ.');
  const beforeStrings = heapAfterGc();
  const stringsCopy = strings.map((value) => ` ${value}`.slice(1));
  const stringsHeap = heapAfterGc() - beforeStrings;

  // Keystrokes: index and filter alternate on each prefix, three passes; the first is warm-up.
  const searchTimes: number[] = [];
  const filterTimes: number[] = [];
  let hits = 0;
  for (let pass = 0; pass < 3; pass += 1) {
    for (const query of QUERIES) {
      for (let length = 1; length <= query.length; length += 1) {
        const typed = query.slice(0, length);
        let started = performance.now();
        const answer = index.search(typed);
        const searchMs = performance.now() - started;
        started = performance.now();
        const needle = foldText(typed.trim());
        const filtered = stringsCopy.filter((value) => value.includes(needle));
        const filterMs = performance.now() - started;
        if (pass > 0) {
          searchTimes.push(searchMs);
          filterTimes.push(filterMs);
          hits += answer.total > 0 && filtered.length >= 0 ? 1 : 0;
        }
      }
    }
  }

  // One write: the task source's 24,000 rows compared, one of them changed.
  const tasks = rows.get('task')!;
  const updateTimes: number[] = [];
  for (let n = 0; n < 20; n += 1) {
    const changed = tasks.map((row, i) => (i === n ? { ...row, title: `Edited task ${n}` } : row));
    const started = performance.now();
    await index.syncSource('task', changed);
    updateTimes.push(performance.now() - started);
    rows.set('task', changed);
  }
  const rebuildTimes: number[] = [];
  for (let n = 0; n < 3; n += 1) {
    const fresh = new SearchIndex(searchSources);
    const started = performance.now();
    await fresh.syncSource('task', rows.get('task')!);
    rebuildTimes.push(performance.now() - started);
  }

  const p95 = quantile(searchTimes, 0.95);
  const filterP95 = quantile(filterTimes, 0.95);
  const p50 = quantile(searchTimes, 0.5);
  const update = quantile(updateTimes, 0.5);
  const rebuild = quantile(rebuildTimes, 0.5);
  const keystrokes = searchTimes.length;
  return [
    withTarget(
      {
        what: `Search, per keystroke, p95 (${keystrokes} keystrokes of ${QUERIES.length} queries, ${records.toLocaleString('en-US')} records; p50 ${ms(p50)}, filter p50 ${ms(quantile(filterTimes, 0.5))}; ${hits} with hits)`,
        figure: ms(p95),
        reference: `Array.filter + includes: ${ms(filterP95)}`,
        ratio: `${(p95 / filterP95).toFixed(1)}x`,
      },
      `< ${TARGET_MS} ms`,
      p95 < TARGET_MS,
    ),
    {
      what: `Index build, ${records.toLocaleString('en-US')} records (rows to documents to MiniSearch, as the first Ctrl+K)`,
      figure: ms(buildMs),
      reference: `folding the strings for Array.filter: ${ms(foldMs)}`,
      ratio: `${(buildMs / foldMs).toFixed(1)}x`,
    },
    {
      what: 'Heap of the index (after GC)',
      figure: mib(indexHeap),
      reference: `the folded strings: ${mib(stringsHeap)}`,
      ratio: `${(indexHeap / stringsHeap).toFixed(1)}x`,
    },
    {
      what: 'One task written: 24,000 task rows compared, one re-indexed (median of 20; the IndexedDB read is not included)',
      figure: ms(update),
      reference: `re-indexing all 24,000 tasks: ${ms(rebuild)}`,
      ratio: `${(update / rebuild).toFixed(2)}x`,
    },
  ];
}

const isMain = process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href;
if (isMain) {
  // Node-side: nothing is served, so no build is made (section-run builds when given none).
  if (!process.argv[2]) process.argv[2] = '-';
  await runSectionAlone({ name: 'search', run: () => runSearchBenchmarks() });
}
