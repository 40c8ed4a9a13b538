// @vitest-environment node
// The portal's offline copies of opened files, over an in-memory Cache Storage (the browser API
// the e2e exercises for real): versions replace each other, projects stay apart, leaving forgets,
// and a browser that refuses storage loses nothing but the copy.
import { describe, expect, it } from 'vitest';
import { memoryCaches } from './memory-caches.ts';
import { createPortalFileCopies, type CopiedFile } from './portal-file-copies.ts';

const file = (version: number): CopiedFile => ({
  id: 'f1',
  version,
  name: 'Homepage v3.pdf',
  type: 'application/pdf',
});

describe('portal file copies', () => {
  it('keeps an opened file and opens it again, by version', async () => {
    const copies = createPortalFileCopies(memoryCaches());
    expect(await copies.open('p1', file(1))).toBeNull();
    await copies.keep('p1', file(1), new Blob(['%PDF first']));
    const blob = await copies.open('p1', file(1));
    expect(await blob?.text()).toBe('%PDF first');
    expect(blob?.type).toBe('application/pdf');
    expect([...(await copies.kept('p1'))]).toEqual([['f1', 1]]);
  });

  it('a newer version replaces the older copy', async () => {
    const copies = createPortalFileCopies(memoryCaches());
    await copies.keep('p1', file(1), new Blob(['one']));
    await copies.keep('p1', file(2), new Blob(['two']));
    expect(await copies.open('p1', file(1))).toBeNull();
    expect(await (await copies.open('p1', file(2)))?.text()).toBe('two');
    expect([...(await copies.kept('p1'))]).toEqual([['f1', 2]]);
  });

  it('keeps projects apart and forgets one project only', async () => {
    const copies = createPortalFileCopies(memoryCaches());
    await copies.keep('p1', file(1), new Blob(['mine']));
    await copies.keep('p2', file(1), new Blob(['theirs']));
    await copies.forget('p1');
    expect(await copies.open('p1', file(1))).toBeNull();
    expect(await (await copies.open('p2', file(1)))?.text()).toBe('theirs');
    expect((await copies.kept('p1')).size).toBe(0);
  });

  it('works without Cache Storage, or when the browser refuses it, keeping nothing', async () => {
    for (const storage of [
      undefined,
      { open: () => Promise.reject(new Error('SecurityError')) } as unknown as CacheStorage,
    ]) {
      const copies = createPortalFileCopies(storage);
      await copies.keep('p1', file(1), new Blob(['x']));
      expect(await copies.open('p1', file(1))).toBeNull();
      expect((await copies.kept('p1')).size).toBe(0);
      await copies.forget('p1');
    }
  });
});
