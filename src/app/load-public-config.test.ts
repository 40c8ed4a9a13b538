import { describe, expect, it, vi } from 'vitest';
import { getPublicConfig } from '#contract/endpoints/config.ts';
import { loadPublicConfig, publicConfigCacheKey } from './load-public-config.ts';

const config = {
  supabaseUrl: 'https://satchel.example',
  supabaseAnonKey: 'anon-key',
  googleEnabled: true,
  captchaSiteKey: null,
};

function memoryStorage(initial: Record<string, string> = {}) {
  const map = new Map(Object.entries(initial));
  return {
    getItem: (key: string) => map.get(key) ?? null,
    setItem: (key: string, value: string) => void map.set(key, value),
    map,
  };
}

describe('loadPublicConfig', () => {
  it('fetches the config and keeps it for an offline start', async () => {
    const callEndpoint = vi.fn(() => Promise.resolve(config));
    const storage = memoryStorage();
    await expect(loadPublicConfig({ callEndpoint: callEndpoint, storage })).resolves.toEqual(
      config,
    );
    expect(callEndpoint).toHaveBeenCalledWith(getPublicConfig, { query: {} }, expect.anything());
    expect(JSON.parse(storage.map.get(publicConfigCacheKey)!)).toEqual(config);
  });

  it('starts from the kept config at once and keeps the answer for the next start', async () => {
    let answer: (value: typeof config) => void = () => undefined;
    const callEndpoint = vi.fn(
      () => new Promise<typeof config>((resolve) => void (answer = resolve)),
    );
    const kept = { ...config, googleEnabled: false };
    const storage = memoryStorage({ [publicConfigCacheKey]: JSON.stringify(kept) });
    const onAuthChanged = vi.fn();
    await expect(loadPublicConfig({ callEndpoint, storage, onAuthChanged })).resolves.toEqual(kept);
    expect(callEndpoint).toHaveBeenCalledTimes(1);
    answer(config);
    await vi.waitFor(() =>
      expect(JSON.parse(storage.map.get(publicConfigCacheKey)!)).toEqual(config),
    );
    // Same auth settings: nothing to reload for.
    expect(onAuthChanged).not.toHaveBeenCalled();
  });

  it('says so when the server answers with other auth settings than the kept ones', async () => {
    const callEndpoint = vi.fn(() => Promise.resolve({ ...config, supabaseAnonKey: 'rotated' }));
    const storage = memoryStorage({ [publicConfigCacheKey]: JSON.stringify(config) });
    const onAuthChanged = vi.fn();
    await expect(loadPublicConfig({ callEndpoint, storage, onAuthChanged })).resolves.toEqual(
      config,
    );
    await vi.waitFor(() => expect(onAuthChanged).toHaveBeenCalledTimes(1));
    expect(JSON.parse(storage.map.get(publicConfigCacheKey)!).supabaseAnonKey).toBe('rotated');
  });

  it('uses the kept config when the server cannot be reached', async () => {
    const callEndpoint = vi.fn(() => Promise.reject(new Error('offline')));
    const storage = memoryStorage({ [publicConfigCacheKey]: JSON.stringify(config) });
    await expect(loadPublicConfig({ callEndpoint: callEndpoint, storage })).resolves.toEqual(
      config,
    );
  });

  it('fails without a usable kept config', async () => {
    const offline = new Error('offline');
    const callEndpoint = vi.fn(() => Promise.reject(offline));
    const storage = memoryStorage({ [publicConfigCacheKey]: '{"supabaseUrl":1}' });
    await expect(loadPublicConfig({ callEndpoint: callEndpoint, storage })).rejects.toBe(offline);
  });
});
