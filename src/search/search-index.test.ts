import { describe, expect, it } from 'vitest';
import { MAX_QUERY_CHARS, SearchIndex } from './search-index.ts';
import { searchSources } from './search-sources.ts';

const local = { workspaceId: 'w1', _v: 1, _pending: 0, _deleted: false, _base: {} };
const client = (id: string, name: string) => ({
  ...local,
  id,
  name,
  company: null,
  email: null,
  tags: [],
});
const project = (id: string, name: string, clientId = 'c1') => ({
  ...local,
  id,
  name,
  description: null,
  clientId,
});
const task = (id: string, title: string, extra: Record<string, unknown> = {}) => ({
  ...local,
  id,
  title,
  description: null,
  labels: [],
  projectId: 'p1',
  ...extra,
});

async function indexOf(tasks: Record<string, unknown>[]) {
  const index = new SearchIndex(searchSources);
  await index.syncSource('client', [client('c1', 'Aurora Labs')]);
  await index.syncSource('project', [project('p1', 'Website relaunch')]);
  await index.syncSource('task', tasks);
  return index;
}

const titles = (index: SearchIndex, query: string) =>
  index.search(query).groups.flatMap((group) => group.hits.map((hit) => hit.doc.title));

describe('search ranking', () => {
  it('puts an exact title first, then titles that start with the query', async () => {
    const index = await indexOf([
      task('t1', 'Refresh the logo files'),
      task('t2', 'Logo refresh'),
      task('t3', 'Logo'),
    ]);
    expect(titles(index, 'logo')).toEqual(['Logo', 'Logo refresh', 'Refresh the logo files']);
  });

  it('ranks the word being typed (a prefix) above a near miss (a typo)', async () => {
    const index = await indexOf([task('t1', 'Revue'), task('t2', 'Weekly review notes')]);
    // "revie" is the start of "review" and one letter from "revue": the start wins.
    expect(titles(index, 'revie')).toEqual(['Weekly review notes', 'Revue']);
    // With nothing matching as typed, typos are found.
    expect(titles(index, 'weekyl')).toEqual(['Weekly review notes']);
  });

  it('finds words in the text, across accents and case, and the short last word as a start', async () => {
    const index = await indexOf([
      task('t1', 'Kickoff', { description: 'Meet at the Café Olé' }),
      task('t2', 'Cafeteria menu'),
    ]);
    expect(titles(index, 'CAFE ole')).toEqual(['Kickoff']);
    expect(titles(index, 'cafe o')).toEqual(['Kickoff']);
    // Titles first; with few of them, the text too.
    expect(titles(index, 'ca')).toEqual(['Cafeteria menu', 'Kickoff']);
  });

  it('groups hits by kind, best group first, with the parent as the doc parent', async () => {
    const index = await indexOf([task('t1', 'Aurora banner')]);
    const answer = index.search('aurora');
    expect(answer.groups.map((group) => group.group)).toEqual(['Clients', 'Tasks']);
    expect(answer.groups[1]?.hits[0]?.doc.parent).toBe('project:p1');
    expect(answer.groups[0]?.hits[0]?.terms).toContain('aurora');
  });

  it('finds an invoice by its number and its lines, under its client', async () => {
    const index = await indexOf([]);
    const invoice = {
      ...local,
      clientId: 'c1',
      projectId: null,
      notes: null,
      lines: [{ description: 'Homepage design' }],
    };
    await index.syncSource('invoice', [
      { ...invoice, id: 'i1', title: 'Phase 1', number: 42 },
      { ...invoice, id: 'i2', title: 'Draft', number: null },
    ]);
    expect(titles(index, '42')).toEqual(['INV-0042 · Phase 1']);
    expect(titles(index, 'INV-0042')).toEqual(['INV-0042 · Phase 1']);
    const answer = index.search('homepage');
    expect(answer.groups.map((group) => group.group)).toEqual(['Invoices']);
    expect(answer.total).toBe(2);
    expect(answer.groups[0]?.hits[0]?.doc.parent).toBe('client:c1');
  });

  it('caps a 10,000-character query and says so, without failing', async () => {
    const index = await indexOf([task('t1', 'Logo refresh')]);
    const answer = index.search(`logo ${'x'.repeat(10_000)}`);
    expect(answer.capped).toBe(true);
    expect(answer.query.length).toBeLessThanOrEqual(MAX_QUERY_CHARS);
    expect(answer.total).toBe(0);
    expect(index.search('   ').groups).toEqual([]);
    expect(index.search('logo').capped).toBe(false);
  });

  it('keeps each group to the asked number of hits and counts the rest', async () => {
    const many = Array.from({ length: 12 }, (_, n) => task(`t${n}`, `Banner ${n}`));
    const answer = (await indexOf(many)).search('banner', { perGroup: 5 });
    expect(answer.groups[0]?.hits).toHaveLength(5);
    expect(answer.total).toBe(12);
  });
});

describe('incremental updates', () => {
  it('re-indexes only what changed, and drops deleted and pending-delete rows', async () => {
    const index = await indexOf([task('t1', 'Logo refresh'), task('t2', 'Banner')]);
    const changes = await index.syncSource('task', [
      task('t1', 'Logo redesign'),
      task('t2', 'Banner'),
      task('t3', 'Invoice reminder'),
    ]);
    expect(changes).toEqual({ added: 1, replaced: 1, removed: 0 });
    expect(titles(index, 'redesign')).toEqual(['Logo redesign']);
    expect(titles(index, 'refresh')).toEqual([]);

    const removed = await index.syncSource('task', [
      task('t1', 'Logo redesign', { _deleted: true }),
      task('t3', 'Invoice reminder', { _cascadeOf: ['m1'] }),
    ]);
    expect(removed).toEqual({ added: 0, replaced: 0, removed: 3 });
    expect(index.search('logo').total).toBe(0);
    expect(index.search('invoice').total).toBe(0);
    expect(index.find('task:t2')).toBeUndefined();

    // A restored row (its delete refused) comes back under the same id.
    await index.syncSource('task', [task('t1', 'Logo redesign')]);
    expect(titles(index, 'logo')).toEqual(['Logo redesign']);
  });

  it('leaves a deleted chat message out (the row stays, its text gone)', async () => {
    const index = new SearchIndex(searchSources);
    const message = { ...local, projectId: 'p1', authorName: '', mentions: [] };
    await index.syncSource('chat-message', [
      { ...message, id: 'm1', text: 'Shipping the logo today', deleted: false },
      { ...message, id: 'm2', text: 'Old logo', deleted: true },
    ]);
    expect(titles(index, 'logo')).toEqual(['Shipping the logo today']);
  });
});
