import { describe, expect, it, vi } from 'vitest';
import { SIGN_OUT_GRACE_SECONDS } from '#contract/sign-out-grace.ts';
import { fakeJwt } from './auth-test-fakes.ts';
import {
  createServerSignOut,
  WAITING_SIGN_OUTS_KEY,
  type ServerSignOutAnswer,
} from './server-sign-out.ts';

const NOW = Date.UTC(2026, 10, 29, 12);
const token = (name: string, expiresInSeconds = 3600) =>
  fakeJwt({ sub: name, exp: Math.floor(NOW / 1000) + expiresInSeconds });

function setup(answer: (token: string) => ServerSignOutAnswer | Promise<ServerSignOutAnswer>) {
  const store = new Map<string, string>();
  const storage = {
    getItem: (key: string) => store.get(key) ?? null,
    setItem: (key: string, value: string) => void store.set(key, value),
    removeItem: (key: string) => void store.delete(key),
  };
  const logout = vi.fn(async (accessToken: string) => answer(accessToken));
  const signOut = createServerSignOut({ storage, logout, now: () => NOW });
  const waiting = () => JSON.parse(store.get(WAITING_SIGN_OUTS_KEY) ?? '[]') as string[];
  return { signOut, logout, store, waiting };
}

describe('createServerSignOut', () => {
  it('tells the server and keeps nothing when it answers', async () => {
    const { signOut, logout, store } = setup(() => 'answered');
    await signOut.end(token('a'));
    expect(logout).toHaveBeenCalledWith(token('a'));
    expect(store.size).toBe(0);
  });

  it('keeps the token of a sign-out the server could not hear, and sends it on the next try', async () => {
    let online = false;
    const { signOut, logout, waiting } = setup(() => (online ? 'answered' : 'unreachable'));
    await signOut.end(token('a'));
    expect(waiting()).toEqual([token('a')]);
    await signOut.retryWaiting();
    expect(waiting()).toEqual([token('a')]);
    online = true;
    await signOut.retryWaiting();
    expect(logout).toHaveBeenLastCalledWith(token('a'));
    expect(waiting()).toEqual([]);
  });

  it('treats a thrown call like an unreachable server', async () => {
    const { signOut, waiting } = setup(() => Promise.reject(new TypeError('Failed to fetch')));
    await signOut.end(token('a'));
    expect(waiting()).toEqual([token('a')]);
  });

  it('keeps an expired token while the server still takes it for a sign-out, and no longer', async () => {
    const { signOut, logout, store, waiting } = setup(() => 'unreachable');
    // Expired an hour ago: the server ends its session still (contract/sign-out-grace.ts).
    await signOut.end(token('landed', -3600));
    expect(waiting()).toEqual([token('landed', -3600)]);
    store.clear();
    await signOut.end(token('old', -SIGN_OUT_GRACE_SECONDS - 1));
    expect(store.size).toBe(0);
    store.set(
      WAITING_SIGN_OUTS_KEY,
      JSON.stringify([token('gone', -SIGN_OUT_GRACE_SECONDS - 5), token('b')]),
    );
    logout.mockClear();
    await signOut.retryWaiting();
    expect(logout.mock.calls.map(([sent]) => sent)).toEqual([token('b')]);
    expect(waiting()).toEqual([token('b')]);
  });

  it('keeps a sign-out made while a retry is under way', async () => {
    let release: (answer: ServerSignOutAnswer) => void = () => undefined;
    const { signOut, store, waiting } = setup((sent) =>
      sent === token('a')
        ? new Promise<ServerSignOutAnswer>((resolve) => (release = resolve))
        : 'unreachable',
    );
    store.set(WAITING_SIGN_OUTS_KEY, JSON.stringify([token('a')]));
    const retry = signOut.retryWaiting();
    // A second pass started meanwhile is the same one.
    expect(signOut.retryWaiting()).toBe(retry);
    await signOut.end(token('b'));
    release('answered');
    await retry;
    expect(waiting()).toEqual([token('b')]);
  });

  it('keeps at most ten, the newest, and survives unreadable storage', async () => {
    const { signOut, store, waiting } = setup(() => 'unreachable');
    for (let i = 0; i < 12; i += 1) await signOut.end(token(`t${i}`));
    expect(waiting()).toHaveLength(10);
    expect(waiting()[9]).toBe(token('t11'));
    expect(waiting()).not.toContain(token('t0'));
    store.set(WAITING_SIGN_OUTS_KEY, '{not json');
    await signOut.end(token('c'));
    expect(waiting()).toEqual([token('c')]);
  });
});
