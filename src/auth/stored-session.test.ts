import { createClient } from '@supabase/supabase-js';
import { describe, expect, it } from 'vitest';
import { createSessionStorage, supabaseStorageKey } from './stored-session.ts';

describe('supabaseStorageKey', () => {
  it("is supabase-js's own default key, so sessions stored before the app named it are found", () => {
    for (const url of [
      'http://localhost:8080',
      'https://abcdefgh.supabase.co',
      'https://app.example.com',
    ]) {
      const client = createClient(url, 'anon-key', { auth: { persistSession: false } });
      const defaultKey = (client.auth as unknown as { storageKey: string }).storageKey;
      expect(supabaseStorageKey(url)).toBe(defaultKey);
    }
  });
});

describe('createSessionStorage', () => {
  const key = supabaseStorageKey('http://localhost:8080');
  const backing = () => {
    const map = new Map<string, string>();
    return {
      map,
      store: {
        getItem: (name: string) => map.get(name) ?? null,
        setItem: (name: string, value: string) => void map.set(name, value),
        removeItem: (name: string) => void map.delete(name),
      },
    };
  };

  it('passes reads and writes through to the backing storage', () => {
    const { map, store } = backing();
    const { storage } = createSessionStorage(store, key);
    storage.setItem(key, '{"access_token":"a"}');
    expect(map.get(key)).toBe('{"access_token":"a"}');
    expect(storage.getItem(key)).toBe('{"access_token":"a"}');
    storage.removeItem(key);
    expect(map.has(key)).toBe(false);
  });

  it('forget removes the session, its PKCE verifier and user copy, and nothing else', () => {
    const { map, store } = backing();
    for (const name of [key, `${key}-code-verifier`, `${key}-user`, 'satchel.public-config']) {
      map.set(name, 'x');
    }
    createSessionStorage(store, key).forget();
    expect([...map.keys()]).toEqual(['satchel.public-config']);
  });

  it('holds writes of the session until released (a refresh finishing during a sign-out), and only those', () => {
    const { map, store } = backing();
    const session = createSessionStorage(store, key);
    const release = session.forget();
    session.storage.setItem(key, '{"access_token":"refreshed"}');
    session.storage.setItem('satchel.other', 'kept');
    expect(map.has(key)).toBe(false);
    expect(map.get('satchel.other')).toBe('kept');
    release();
    release();
    session.storage.setItem(key, '{"access_token":"next sign-in"}');
    expect(map.get(key)).toBe('{"access_token":"next sign-in"}');
  });

  it('keeps the session in memory when the browser gives no localStorage', () => {
    const { storage } = createSessionStorage(undefined, key);
    storage.setItem(key, 's');
    expect(storage.getItem(key)).toBe('s');
  });
});
