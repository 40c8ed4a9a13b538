import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAppDatabase, type AppDatabase } from '../db/app-database.ts';
import { writeCreate, writeDelete, writePatch } from '../db/local-write.ts';
import {
  closeSearchIndex,
  openSearchIndex,
  watchSearchSources,
  type LiveSearchIndex,
} from './live-search-index.ts';

const local = { _v: 1, _pending: 0, _deleted: false, _base: {} };
const base = (mutationId: string) => ({
  userId: 'u1',
  mutationId,
  now: 1_000,
  resource: 'task',
  operation: 'x',
});
const clientRow = (id: string, workspaceId: string, name: string) => ({
  id,
  workspaceId,
  name,
  company: null,
  email: null,
  tags: [],
});

let open: LiveSearchIndex[] = [];
afterEach(() => {
  for (const live of open) live.close();
  open = [];
});

function watch(db: AppDatabase, workspaceId: string) {
  const live = watchSearchSources(db, workspaceId);
  open.push(live);
  return live;
}

const titles = (live: LiveSearchIndex, query: string) =>
  live.index.search(query).groups.flatMap((group) => group.hits.map((hit) => hit.doc.title));

describe('the live search index', () => {
  it('follows pulls, local writes and deletes, and never shows another workspace', async () => {
    const db = createAppDatabase('u1', { name: `search-${crypto.randomUUID()}` });
    // Rows as a pull stores them: one workspace's client and project, another's client.
    await db.clients.bulkPut([
      { ...local, ...clientRow('c1', 'w1', 'Aurora Labs') } as never,
      { ...local, ...clientRow('c2', 'w2', 'Aurora Other') } as never,
    ]);
    await db.projects.put({
      ...local,
      id: 'p1',
      workspaceId: 'w1',
      clientId: 'c1',
      name: 'Website relaunch',
    } as never);

    const live = watch(db, 'w1');
    await vi.waitFor(() => expect(live.getStatus()).toBe('ready'));
    expect(titles(live, 'aurora')).toEqual(['Aurora Labs']);
    expect(titles(live, 'website')).toEqual(['Website relaunch']);

    // A local write (the outbox path) reaches the index.
    await writeCreate(db, {
      ...base('m1'),
      entity: 'task',
      row: {
        id: 't1',
        workspaceId: 'w1',
        projectId: 'p1',
        title: 'Logo refresh',
        description: null,
        labels: [],
      },
      args: {},
      label: 'Logo refresh',
    });
    await vi.waitFor(() => expect(titles(live, 'logo')).toEqual(['Logo refresh']));

    await writePatch(db, { ...base('m2'), entity: 'task', id: 't1', patch: { title: 'Logo v2' } });
    await vi.waitFor(() => expect(titles(live, 'logo')).toEqual(['Logo v2']));

    // A pending delete hides it at once; so does the other workspace's new row never show.
    await writeDelete(db, { ...base('m3'), entity: 'task', id: 't1' });
    await db.clients.put({ ...local, ...clientRow('c3', 'w2', 'Logo Other') } as never);
    await vi.waitFor(() => expect(titles(live, 'logo')).toEqual([]));
    expect(titles(live, 'aurora')).toEqual(['Aurora Labs']);

    // A pull removing a row (its server delete) drops it too.
    await db.projects.delete('p1');
    await vi.waitFor(() => expect(titles(live, 'website')).toEqual([]));
  });

  it('builds the other workspace from its own rows only', async () => {
    const db = createAppDatabase('u1', { name: `search-${crypto.randomUUID()}` });
    await db.clients.bulkPut([
      { ...local, ...clientRow('c1', 'w1', 'Aurora Labs') } as never,
      { ...local, ...clientRow('c2', 'w2', 'Aurora Other') } as never,
    ]);
    const live = watch(db, 'w2');
    await vi.waitFor(() => expect(live.getStatus()).toBe('ready'));
    expect(titles(live, 'aurora')).toEqual(['Aurora Other']);
    expect(live.index.size).toBe(1);
  });

  it('keeps one live index per tab: the same for the same workspace, a new one otherwise', () => {
    const db = createAppDatabase('u1', { name: `search-${crypto.randomUUID()}` });
    const first = openSearchIndex(db, 'w1');
    expect(openSearchIndex(db, 'w1')).toBe(first);
    const other = openSearchIndex(db, 'w2');
    expect(other).not.toBe(first);
    closeSearchIndex();
    expect(openSearchIndex(db, 'w2')).not.toBe(other);
    closeSearchIndex();
  });
});
