/**
 * A sign-out made offline holds (the app's controller and server-sign-out.ts over the real
 * supabase-js and our auth service): the device forgets the session at once, a client started
 * again over the same storage finds none, and the server ends the session when the waiting
 * sign-out is sent once the network is back. Online, the server ends it at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIGN_OUT_GRACE_SECONDS } from '#contract/sign-out-grace.ts';
import { createAuthLog } from '../../src/auth/auth-log.ts';
import { createServerSignOut, WAITING_SIGN_OUTS_KEY } from '../../src/auth/server-sign-out.ts';
import { createSessionStorage, supabaseStorageKey } from '../../src/auth/stored-session.ts';
import { createSupabaseAuthController } from '../../src/auth/supabase-auth-controller.ts';
import {
  createAuthTestServer,
  SITE_URL,
  TEST_PASSWORD,
  type AuthTestServer,
} from '../fixtures/create-auth-test-server.ts';
import { isAuthRetryableFetchError } from '@supabase/supabase-js';

let t: AuthTestServer;
beforeAll(async () => {
  t = await createAuthTestServer({ config: { autoconfirm: true } });
});
afterAll(async () => {
  await t.cleanup();
});

/** One device: its localStorage, a network that can be cut, and the app's sign-out over them. */
async function device(email: string) {
  const store = new Map<string, string>();
  const storage = {
    getItem: (key: string) => store.get(key) ?? null,
    setItem: (key: string, value: string) => void store.set(key, value),
    removeItem: (key: string) => void store.delete(key),
  };
  let online = true;
  const logouts: string[] = [];
  /** While set, a change of the user (PUT /user) waits on the wire until it opens. */
  let userGate: { reached: () => void; open: Promise<void> } | null = null;
  const network: typeof fetch = async (input, init) => {
    if (!online) throw new TypeError('Failed to fetch');
    const url = input instanceof Request ? input.url : String(input);
    if (url.includes('/logout')) logouts.push(url);
    if (url.endsWith('/auth/v1/user') && init?.method === 'PUT' && userGate) {
      userGate.reached();
      await userGate.open;
    }
    return t.fetch(input, init);
  };
  const storageKey = supabaseStorageKey(SITE_URL);
  const storedSession = createSessionStorage(storage, storageKey);
  // Serialized, as in a browser: a sign-out waits for the client's work under way.
  const client = t.createClient({
    storage: storedSession.storage,
    fetch: network,
    serialized: true,
  });
  const serverSignOut = createServerSignOut({
    storage,
    logout: async (token) => {
      const { error } = await client.auth.admin.signOut(token, 'local');
      return error && isAuthRetryableFetchError(error) ? 'unreachable' : 'answered';
    },
  });
  const controller = createSupabaseAuthController({
    client: client.auth,
    log: createAuthLog({ silent: true }),
    signOutSteps: {
      forgetStoredSession: () => storedSession.forget(),
      endOnServer: (token) => serverSignOut.end(token),
    },
  });
  const signedIn = await client.auth.signInWithPassword({ email, password: TEST_PASSWORD });
  expect(signedIn.error).toBeNull();
  await expect.poll(() => controller.getState().status).toBe('authenticated');
  return {
    client,
    logouts,
    /** Holds the next change of the user on the wire; `reached` resolves once it is there. */
    holdUserUpdate() {
      let open = () => {};
      const reached = new Promise<void>((resolve) => {
        userGate = {
          reached: resolve,
          open: new Promise<void>((release) => (open = release)),
        };
      });
      return { reached, open: () => open() };
    },
    store,
    storageKey,
    controller,
    serverSignOut,
    token: signedIn.data.session?.access_token ?? '',
    refreshToken: signedIn.data.session?.refresh_token ?? '',
    setOnline: (value: boolean) => {
      online = value;
    },
    /** The app started again on this device: what supabase-js restores from its storage. */
    restart: async () =>
      (await t.createClient({ store, fetch: network }).auth.getSession()).data.session,
  };
}

async function signUp(email: string) {
  const { error } = await t.createClient().auth.signUp({ email, password: TEST_PASSWORD });
  expect(error).toBeNull();
}

/** What the server says of a token now: 200, or GoTrue's 403 session_not_found once it ended. */
async function userStatus(token: string): Promise<string> {
  const response = await t.fetch(`${SITE_URL}/auth/v1/user`, {
    headers: { apikey: t.anonKey, Authorization: `Bearer ${token}` },
  });
  if (response.ok) return 'ok';
  const body = (await response.json()) as { error_code?: string };
  return `${response.status} ${body.error_code ?? ''}`;
}
const ENDED = '403 session_not_found';

/** Whether the server still keeps a session: its refresh token is taken (and rotated) or not. */
async function sessionAlive(refreshToken: string): Promise<boolean> {
  const response = await t.fetch(`${SITE_URL}/auth/v1/token?grant_type=refresh_token`, {
    method: 'POST',
    headers: { apikey: t.anonKey, 'Content-Type': 'application/json' },
    body: JSON.stringify({ refresh_token: refreshToken }),
  });
  return response.ok;
}

/** POST /logout as supabase-js's admin.signOut sends it. */
async function logout(token: string, scope: 'local' | 'global'): Promise<number> {
  const response = await t.fetch(`${SITE_URL}/auth/v1/logout?scope=${scope}`, {
    method: 'POST',
    headers: { apikey: t.anonKey, Authorization: `Bearer ${token}` },
  });
  return response.status;
}

describe('signing out this device', () => {
  it('while supabase-js is saving a change of the user: the session is not stored again, and the server is told once', async () => {
    await signUp('update-signout@example.com');
    const d = await device('update-signout@example.com');
    // The update has read the session and is on the wire when the user signs out; it answers
    // after the stored session was dropped, and saves the session with the new user again.
    const held = d.holdUserUpdate();
    const updating = d.client.auth.updateUser({ data: { display_name: 'Ada King' } });
    await held.reached;
    const signingOut = d.controller.signOut();
    held.open();
    await updating;
    await signingOut;

    expect(await d.restart()).toBeNull();
    expect(d.store.has(d.storageKey)).toBe(false);
    expect(await userStatus(d.token)).toBe(ENDED);
    expect(d.logouts).toHaveLength(1);
  });

  it('offline: the device forgets the session at once, and the server ends it once the network is back', async () => {
    await signUp('offline-signout@example.com');
    const d = await device('offline-signout@example.com');
    expect(d.store.has(d.storageKey)).toBe(true);

    d.setOnline(false);
    await d.controller.signOut();

    expect(d.controller.getState()).toEqual({ status: 'unauthenticated' });
    expect(d.store.has(d.storageKey)).toBe(false);
    expect(await d.restart()).toBeNull();
    // The server has not heard yet: the token still works there, and waits on the device.
    expect(await userStatus(d.token)).toBe('ok');
    expect(JSON.parse(d.store.get(WAITING_SIGN_OUTS_KEY) ?? '[]')).toEqual([d.token]);

    await d.serverSignOut.retryWaiting();
    expect(await userStatus(d.token)).toBe('ok');

    d.setOnline(true);
    await d.serverSignOut.retryWaiting();
    expect(await userStatus(d.token)).toBe(ENDED);
    expect(d.store.has(WAITING_SIGN_OUTS_KEY)).toBe(false);
  });

  it('offline for longer than the token lives: the expired token still ends its session on return', async () => {
    await signUp('long-flight@example.com');
    const d = await device('long-flight@example.com');
    d.setOnline(false);
    await d.controller.signOut();
    // Landed hours later: the access token has expired on the server's clock.
    t.clock.advance(5 * 60 * 60 * 1000);
    expect(await userStatus(d.token)).toMatch(/^403 bad_jwt/);

    d.setOnline(true);
    await d.serverSignOut.retryWaiting();
    expect(d.store.has(WAITING_SIGN_OUTS_KEY)).toBe(false);
    expect(await sessionAlive(d.refreshToken)).toBe(false);
  });

  it('an expired token ends only its own session, and only within the grace', async () => {
    await signUp('expired-scopes@example.com');
    const d = await device('expired-scopes@example.com');
    t.clock.advance(2 * 60 * 60 * 1000);
    // Everything else refuses it: a global sign-out, any read.
    expect(await logout(d.token, 'global')).toBe(403);
    expect(await userStatus(d.token)).toMatch(/^403 bad_jwt/);

    // Past the grace, not even its own session.
    t.clock.advance(SIGN_OUT_GRACE_SECONDS * 1000);
    expect(await logout(d.token, 'local')).toBe(403);
    expect(await sessionAlive(d.refreshToken)).toBe(true);
  });

  it('online: the server refuses the session at once, and nothing waits', async () => {
    await signUp('online-signout@example.com');
    const d = await device('online-signout@example.com');
    expect(await userStatus(d.token)).toBe('ok');

    await d.controller.signOut();

    expect(await d.restart()).toBeNull();
    expect(await userStatus(d.token)).toBe(ENDED);
    expect(d.store.has(WAITING_SIGN_OUTS_KEY)).toBe(false);
  });
});
