import { describe, expect, it, vi } from 'vitest';
import { keepPublicConfigWhenIdle, publicConfigCacheKey } from './keep-public-config.ts';

function memoryStorage(initial: Record<string, string> = {}) {
  const map = new Map(Object.entries(initial));
  return {
    map,
    getItem: (key: string) => map.get(key) ?? null,
    setItem: (key: string, value: string) => void map.set(key, value),
  };
}

const answer = (body: string, status = 200) =>
  vi.fn(() => Promise.resolve(new Response(body, { status })));

async function run(storage: ReturnType<typeof memoryStorage>, fetch: ReturnType<typeof answer>) {
  let idle: (() => void) | null = null;
  keepPublicConfigWhenIdle({ storage, fetch, whenIdle: (work) => (idle = work) });
  (idle as (() => void) | null)?.();
  await vi.waitFor(() => expect(fetch.mock.calls.length).toBeLessThanOrEqual(1));
  await new Promise((resolve) => setTimeout(resolve, 0));
}

describe('keepPublicConfigWhenIdle', () => {
  it('stores the config when none is kept, once idle', async () => {
    const storage = memoryStorage();
    const fetch = answer('{"supabaseUrl":"http://x","supabaseAnonKey":"k"}');
    await run(storage, fetch);
    expect(fetch).toHaveBeenCalledWith('/api/config?endpoint=get-public-config', expect.anything());
    expect(storage.map.get(publicConfigCacheKey)).toContain('supabaseAnonKey');
  });

  it('leaves a kept config alone and asks nothing', async () => {
    const storage = memoryStorage({ [publicConfigCacheKey]: '{"kept":true}' });
    const fetch = answer('{}');
    await run(storage, fetch);
    expect(fetch).not.toHaveBeenCalled();
    expect(storage.map.get(publicConfigCacheKey)).toBe('{"kept":true}');
  });

  it('stores nothing from an error, a non-object or a network failure', async () => {
    for (const fetch of [
      answer('{"error":"x"}', 500),
      answer('[1]'),
      answer('not json'),
      vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))),
    ]) {
      const storage = memoryStorage();
      await run(storage, fetch);
      expect(storage.map.has(publicConfigCacheKey)).toBe(false);
    }
  });
});
