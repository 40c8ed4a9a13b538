/**
 * The search index of the workspace on screen, kept current by the device tables themselves.
 *
 * Where it lives: on the main thread of each tab, built on the first Ctrl+K and kept after. The
 * sync worker runs only in the leader tab (src/sync/sync-client.ts), so an index there would
 * serve the other tabs through the leader and vanish with it; a keystroke's search measures
 * well under its 30 ms budget on the main thread (BENCHMARKS.md, search section), and the first
 * build adds documents in chunks that yield to the page (MiniSearch's addAllAsync).
 *
 * How it stays current: one live query per source reads that source's rows of this workspace
 * (every entity table has a `workspaceId` index). Dexie re-runs a query when its table changes,
 * in this tab, another tab or the sync worker: local writes, pulls and live rows all land in the
 * tables, so they all reach the index, and nothing here needs to know who wrote. Only the
 * changed table is read again, and SearchIndex.syncSource re-indexes only the documents that
 * differ. Rows of another workspace are never read; pending deletes and tombstoned rows leave
 * the index through the sources' `toDoc`.
 */
import type { SyncedEntityName } from '#contract/synced-entities.ts';
import { syncedTable, type AppDatabase } from '../db/app-database.ts';
import { observeQuery } from '../db/live-query.ts';
import { SearchIndex } from './search-index.ts';
import { searchSources, type SearchSource } from './search-sources.ts';

export type LiveSearchStatus = 'loading' | 'ready' | 'failed';

export interface LiveSearchIndex {
  readonly workspaceId: string;
  readonly index: SearchIndex;
  /** 'loading' until every source has been read once; search works on what is in meanwhile. */
  getStatus(): LiveSearchStatus;
  /** Changes with every update of the index (a snapshot key for useSyncExternalStore). */
  getVersion(): number;
  subscribe: (listener: () => void) => () => void;
  close(): void;
}

export function watchSearchSources(
  db: AppDatabase,
  workspaceId: string,
  sources: readonly SearchSource[] = searchSources,
): LiveSearchIndex {
  const index = new SearchIndex(sources);
  const listeners = new Set<() => void>();
  const loaded = new Set<SyncedEntityName>();
  let version = 0;
  let failed = false;
  const changed = () => {
    version += 1;
    for (const listener of listeners) listener();
  };
  // One chain per source: a newer read of a table is applied after the one before it.
  const chains = new Map<SyncedEntityName, Promise<void>>();
  const stops = sources.map((source) =>
    observeQuery(
      () => syncedTable(db, source.entity).where('workspaceId').equals(workspaceId).toArray(),
      (rows) => {
        const previous = chains.get(source.entity) ?? Promise.resolve();
        const next = previous.then(async () => {
          const changes = await index.syncSource(source.entity, rows);
          const first = !loaded.has(source.entity);
          loaded.add(source.entity);
          if (first || changes.added + changes.replaced + changes.removed > 0) changed();
        });
        chains.set(
          source.entity,
          next.catch(() => {
            failed = true;
            changed();
          }),
        );
      },
      () => {
        failed = true;
        changed();
      },
    ),
  );
  return {
    workspaceId,
    index,
    getStatus: () => (failed ? 'failed' : loaded.size === sources.length ? 'ready' : 'loading'),
    getVersion: () => version,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close() {
      for (const stop of stops) stop();
      listeners.clear();
    },
  };
}

// One live index per tab: the workspace on screen's. Another workspace (or user) replaces it.
let current: { db: AppDatabase; live: LiveSearchIndex } | null = null;

/** The live index of this database's workspace, made on first use and kept while it is shown. */
export function openSearchIndex(db: AppDatabase, workspaceId: string): LiveSearchIndex {
  if (current && current.db === db && current.live.workspaceId === workspaceId) {
    return current.live;
  }
  current?.live.close();
  current = { db, live: watchSearchSources(db, workspaceId) };
  return current.live;
}

/** Stops the live index (sign-out: the app shell unmounts); the next open builds anew. */
export function closeSearchIndex(): void {
  current?.live.close();
  current = null;
}
