/**
 * Test helper: Cache Storage as a browser keeps it, in memory (Node and jsdom have none). The e2e
 * suite exercises the browser's own.
 */
/** Cache Storage as a browser keeps it: requests by absolute URL, responses read once. */
type Entries = Map<string, { body: ArrayBuffer; headers: Headers }>;

export function memoryCaches(): CacheStorage {
  const caches = new Map<string, Entries>();
  const absolute = (request: RequestInfo | URL) =>
    new URL(
      typeof request === 'string' || request instanceof URL ? String(request) : request.url,
      'http://device.test',
    ).href;
  const cacheOf = (entries: Entries) =>
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
      const entries = caches.get(name) ?? (new Map() as Entries);
      caches.set(name, entries);
      return Promise.resolve(cacheOf(entries));
    },
  } as unknown as CacheStorage;
}
