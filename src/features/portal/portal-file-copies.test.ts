// @vitest-environment node
// The portal's offline copies of opened files, over an in-memory Cache Storage (the browser API
// the e2e exercises for real): versions replace each other, projects stay apart, leaving forgets,
// and a browser that refuses storage loses nothing but the copy.
import { describe, expect, it } from 'vitest';
import { createPortalFileCopies, type CopiedFile } from './portal-file-copies.ts';

/** Cache Storage as a browser keeps it: requests by absolute URL, responses read once. */
function memoryCaches(): CacheStorage {
  const caches = new Map<string, Map<string, { body: ArrayBuffer; headers: Headers }>>();
  const absolute = (request: RequestInfo | URL) =>
    new URL(
      typeof request === 'string' || request instanceof URL ? String(request) : request.url,
      'http://device.test',
    ).href;
  const cacheOf = (entries: Map<string, { body: ArrayBuffer; headers: Headers }>) =>
    ({
      keys: () => Promise.resolve([...entries.keys()].map((url) => new Request(url))),
      match: (request: RequestInfo | URL) => {
        const hit = entries.get(absolute(request));
        return Promise.resolve(hit ? new Response(hit.body, { headers: hit.headers }) : undefined);
      },
      put: async (request: RequestInfo | URL, response: Response) => {
        entries.set(absolute(request), {
          body: await response.arrayBuffer(),
          headers: response.headers,
        });
      },
      delete: (request: RequestInfo | URL) => Promise.resolve(entries.delete(absolute(request))),
    }) as unknown as Cache;
  return {
    open: (name: string) => {
      const entries = caches.get(name) ?? new Map();
      caches.set(name, entries);
      return Promise.resolve(cacheOf(entries));
    },
  } as unknown as CacheStorage;
}

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
