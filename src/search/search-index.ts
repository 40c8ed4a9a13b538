/**
 * The device's search index for one workspace: MiniSearch over the documents of `searchSources`,
 * ranked for a command palette: an exact title first, then a title that starts with the query,
 * then MiniSearch's score for the words as typed (each a prefix), and typos (fuzzy) only after
 * those, looked up only when the words as typed find little. Pure: it knows no
 * table and no React, so the benchmark and the tests drive the same code the palette does, and
 * `watch-search-sources.ts` feeds it rows from the device tables.
 *
 * Updates are per source and incremental: `syncSource` gets a source's current rows, compares
 * each document with the one indexed, and touches MiniSearch only for what changed (replace, add,
 * discard). A write of one task re-indexes one document, not the 50,000 others.
 */
import MiniSearch from 'minisearch';
import type { SyncedEntityName } from '#contract/synced-entities.ts';
import type { SearchDoc, SearchSource } from './search-sources.ts';

/**
 * Longer queries are cut to this many characters (and the palette says so): nobody types 10,000
 * characters to find a task, and every extra word is one more term looked up on every keystroke.
 */
export const MAX_QUERY_CHARS = 200;

/** Lower case without accents: "Café" and "cafe" find each other. */
export function foldText(value: string): string {
  return value.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/** MiniSearch's own word boundaries (white space and punctuation), used for highlights too. */
export const WORD_SEPARATOR = /[\n\r\p{Z}\p{P}]+/u;

export interface SearchHit {
  doc: SearchDoc;
  /** Matched words of the document (folded), for highlighting. */
  terms: readonly string[];
}

export interface SearchGroup {
  group: string;
  hits: SearchHit[];
}

export interface SearchAnswer {
  /** The query searched: trimmed and capped at MAX_QUERY_CHARS. */
  query: string;
  /** The query was longer than MAX_QUERY_CHARS and was cut. */
  capped: boolean;
  groups: SearchGroup[];
  /** Every hit, before the per-group limit. */
  total: number;
}

export interface SearchOptions {
  /** Hits shown per group (the rest are counted in `total`). */
  perGroup?: number;
}

export interface SourceChanges {
  added: number;
  replaced: number;
  removed: number;
}

/** Words shorter than this are matched as word starts, not looked up in MiniSearch's tree. */
const MIN_INDEXED_WORD = 3;

/** Folded words joined by single spaces behind a leading one: a word start is `includes(' x')`. */
export function spacedWords(text: string): string {
  const words = foldText(text).split(WORD_SEPARATOR).filter(Boolean);
  return ` ${words.join(' ')}`;
}

/**
 * Whether every one of `starts` starts a word of `spaced` (from spacedWords), and with `words`
 * those words (one per start, for highlighting), else null. Native `indexOf`: no split per
 * document on a keystroke.
 */
export function matchWordStarts(
  spaced: string,
  starts: readonly string[],
  words: boolean,
): string[] | null {
  const found: string[] = [];
  for (const start of starts) {
    const at = spaced.indexOf(` ${start}`);
    if (at < 0) return null;
    if (!words) continue;
    const end = spaced.indexOf(' ', at + 1);
    found.push(spaced.slice(at + 1, end < 0 ? undefined : end));
  }
  return found;
}

const sameDoc = (a: SearchDoc, b: SearchDoc) =>
  a.title === b.title && a.text === b.text && a.parent === b.parent;

/** Above this many new documents a source is added in chunks, yielding to the page between. */
const ASYNC_ADD_THRESHOLD = 2_000;

/**
 * With fewer hits than this, a second, costlier look is taken: typos (a fuzzy lookup) for long
 * words, the records' text for words of one or two letters.
 */
const FEW_HITS = 10;

interface Entry {
  doc: SearchDoc;
  group: string;
  /** The title, and the title and text, as spacedWords: a keystroke folds nothing. */
  title: string;
  all: string;
}

interface Ranked {
  entry: Entry;
  /** 0 the title is the query, 1 the title starts with it, 2 a match, 3 a match with typos. */
  tier: number;
  score: number;
  terms: readonly string[];
}

const better = (a: Ranked, b: Ranked) => a.tier - b.tier || b.score - a.score;

/**
 * The best `perGroup` hits of each group, kept while the hits stream by: no sort of thousands
 * of hits on a keystroke that shows thirty.
 */
class TopHits {
  total = 0;
  private readonly groups = new Map<string, Ranked[]>();

  private readonly perGroup: number;
  private readonly groupOrder: readonly string[];

  constructor(perGroup: number, groupOrder: readonly string[]) {
    this.perGroup = perGroup;
    this.groupOrder = groupOrder;
  }

  offer(hit: Ranked): void {
    this.total += 1;
    const list = this.groups.get(hit.entry.group) ?? [];
    this.groups.set(hit.entry.group, list);
    if (list.length >= this.perGroup && better(hit, list[list.length - 1]!) >= 0) return;
    let at = list.length;
    while (at > 0 && better(hit, list[at - 1]!) < 0) at -= 1;
    list.splice(at, 0, hit);
    if (list.length > this.perGroup) list.pop();
  }

  /** Groups in the order of their best hit; ties in the sources' order. */
  ranked(): Ranked[][] {
    const order = (group: string) => this.groupOrder.indexOf(group);
    return [...this.groups.entries()]
      .filter(([, list]) => list.length > 0)
      .sort(([a, left], [b, right]) => better(left[0]!, right[0]!) || order(a) - order(b))
      .map(([, list]) => list);
  }
}

export class SearchIndex {
  private readonly mini = new MiniSearch<SearchDoc>({
    fields: ['title', 'text'],
    storeFields: [],
    processTerm: (term) => foldText(term),
    searchOptions: {
      boost: { title: 3 },
      combineWith: 'AND',
      // As you type, every word may be unfinished: all of them match as prefixes.
      prefix: true,
    },
  });
  private readonly entries = new Map<string, Entry>();
  private readonly idsByEntity = new Map<SyncedEntityName, Set<string>>();
  private readonly groupOf = new Map<SyncedEntityName, string>();
  private readonly groupOrder: readonly string[];

  private readonly sources: readonly SearchSource[];

  constructor(sources: readonly SearchSource[]) {
    this.sources = sources;
    for (const source of sources) this.groupOf.set(source.entity, source.group);
    this.groupOrder = [...new Set(sources.map((source) => source.group))];
  }

  get size(): number {
    return this.entries.size;
  }

  find = (id: string): SearchDoc | undefined => this.entries.get(id)?.doc;

  /**
   * Makes the index hold exactly these rows of one source (the workspace's rows of its table):
   * new documents are added, changed ones replaced, missing or now-hidden ones removed.
   */
  async syncSource(
    entity: SyncedEntityName,
    rows: readonly Record<string, unknown>[],
  ): Promise<SourceChanges> {
    const source = this.sources.find((candidate) => candidate.entity === entity);
    if (!source) throw new Error(`No search source for "${entity}".`);
    const previous = this.idsByEntity.get(entity) ?? new Set<string>();
    const next = new Set<string>();
    const added: SearchDoc[] = [];
    let replaced = 0;
    for (const row of rows) {
      const doc = source.toDoc(row);
      if (!doc) continue;
      next.add(doc.id);
      const old = this.entries.get(doc.id)?.doc;
      if (!old) {
        added.push(doc);
      } else if (!sameDoc(old, doc)) {
        this.mini.replace(doc);
        this.remember(doc);
        replaced += 1;
      }
    }
    let removed = 0;
    for (const id of previous) {
      if (next.has(id)) continue;
      this.mini.discard(id);
      this.entries.delete(id);
      removed += 1;
    }
    this.idsByEntity.set(entity, next);
    for (const doc of added) this.remember(doc);
    if (added.length > ASYNC_ADD_THRESHOLD) {
      await this.mini.addAllAsync(added, { chunkSize: 500 });
    } else {
      this.mini.addAll(added);
    }
    return { added: added.length, replaced, removed };
  }

  search(rawQuery: string, options: SearchOptions = {}): SearchAnswer {
    const capped = rawQuery.length > MAX_QUERY_CHARS;
    const query = (capped ? rawQuery.slice(0, MAX_QUERY_CHARS) : rawQuery).trim();
    const words = foldText(query).split(WORD_SEPARATOR).filter(Boolean);
    if (words.length === 0) return { query, capped, groups: [], total: 0 };
    const spacedQuery = ` ${words.join(' ')}`;
    const tierOf = (entry: Entry) =>
      entry.title === spacedQuery ? 0 : entry.title.startsWith(spacedQuery) ? 1 : 2;
    const top = new TopHits(options.perGroup ?? 5, this.groupOrder);
    // A word of one or two letters would expand to a large part of the vocabulary (every word
    // starting with "l"), costing more than a keystroke may. Those words filter instead: as
    // word starts in the hits of the longer words, or, when every word is that short, in the
    // records' folded titles (one native indexOf per record).
    const long = words.filter((word) => word.length >= MIN_INDEXED_WORD).join(' ');
    const short = words.filter((word) => word.length < MIN_INDEXED_WORD);
    if (long === '') {
      // Titles first, shorter titles first ("Logo" before "Logo refresh for the spring
      // campaign"); the text too only when titles find little ("42" finds INV-0042 by number).
      for (const entry of this.entries.values()) {
        if (!matchWordStarts(entry.title, short, false)) continue;
        top.offer({ entry, tier: tierOf(entry), score: 1 / (1 + entry.title.length), terms: [] });
      }
      if (top.total < FEW_HITS) {
        for (const entry of this.entries.values()) {
          if (matchWordStarts(entry.title, short, false)) continue;
          if (!matchWordStarts(entry.all, short, false)) continue;
          top.offer({ entry, tier: 3, score: 1 / (1 + entry.title.length), terms: [] });
        }
      }
    } else {
      const seen = new Set<string>();
      const collect = (results: ReturnType<MiniSearch['search']>, typos: boolean) => {
        for (const result of results) {
          const id = String(result.id);
          const entry = this.entries.get(id);
          if (!entry || seen.has(id)) continue;
          if (short.length > 0 && !matchWordStarts(entry.all, short, false)) continue;
          seen.add(id);
          const tier = typos ? 3 : tierOf(entry);
          top.offer({ entry, tier, score: result.score, terms: result.terms });
        }
      };
      collect(this.mini.search(long), false);
      // Typos only when the words as typed find little: a prefix always ranks above a near miss
      // (tier 3), and the fuzzy lookup (the costly one) runs on few keystrokes.
      if (top.total < FEW_HITS) {
        collect(
          this.mini.search(long, {
            fuzzy: (term) => (term.length >= 6 ? 2 : term.length >= 4 ? 1 : false),
          }),
          true,
        );
      }
    }
    const groups = top.ranked().map((list) => ({
      group: list[0]!.entry.group,
      hits: list.map(({ entry, terms }) => ({
        doc: entry.doc,
        terms: [...terms, ...(matchWordStarts(entry.all, short, true) ?? [])],
      })),
    }));
    return { query, capped, groups, total: top.total };
  }

  private remember(doc: SearchDoc): void {
    const title = spacedWords(doc.title);
    this.entries.set(doc.id, {
      doc,
      group: this.groupOf.get(doc.entity) ?? '',
      title,
      all: `${title}${spacedWords(doc.text)}`,
    });
  }
}
