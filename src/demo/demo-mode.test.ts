import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api-client/call-endpoint.ts';
import { getPublicConfig } from '#contract/endpoints/config.ts';
import { createAppDatabase, databaseNameFor } from '../db/app-database.ts';
import { writeCreate } from '../db/local-write.ts';
import { startSync } from '../sync/sync-client.ts';
import { createDemoApiClient } from './demo-api.ts';
import { createDemoAuthController } from './demo-auth-controller.ts';
import {
  clearDemoMark,
  DEMO_FLAG_KEY,
  DEMO_RESET_KEY,
  DEMO_USER_ID,
  demoModeAt,
  markDemo,
  runsDemo,
} from './demo-mode.ts';
import { buildDemoSeed, DEMO_WORKSPACE_ID } from './demo-seed.ts';
import { seedDemoDatabase } from './seed-demo-database.ts';

function memoryStorage(entries: Record<string, string> = {}): Storage {
  const map = new Map(Object.entries(entries));
  return {
    get length() {
      return map.size;
    },
    clear: () => map.clear(),
    getItem: (key) => map.get(key) ?? null,
    key: (index) => [...map.keys()][index] ?? null,
    removeItem: (key) => void map.delete(key),
    setItem: (key, value) => void map.set(key, value),
  };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 10));

describe('demo mode rules', () => {
  it('enters on /demo, stays on app pages while marked, and is off without the mark', () => {
    const unmarked = memoryStorage();
    const marked = memoryStorage({ [DEMO_FLAG_KEY]: '1' });
    expect(demoModeAt('/demo', unmarked)).toBe('enter');
    expect(demoModeAt('/demo', marked)).toBe('enter');
    expect(demoModeAt('/dashboard', marked)).toBe('stay');
    expect(demoModeAt('/projects/abc', marked)).toBe('stay');
    expect(demoModeAt('/dashboard', unmarked)).toBe('off');
    expect(demoModeAt('/dashboard', undefined)).toBe('off');
    expect(runsDemo('enter') && runsDemo('stay')).toBe(true);
    expect(runsDemo('leave') || runsDemo('off')).toBe(false);
  });

  it('leaves on every sign-in and sign-up page, so a real sign-in always takes over', () => {
    const marked = memoryStorage({ [DEMO_FLAG_KEY]: '1' });
    for (const path of ['/login', '/signup', '/reset-password', '/auth/confirm-registration']) {
      expect(demoModeAt(path, marked)).toBe('leave');
      expect(demoModeAt(path, memoryStorage())).toBe('off');
    }
    // Not a prefix match: a page merely starting with those letters is not an account page.
    expect(demoModeAt('/loginx', marked)).toBe('stay');
  });

  it('reads a storage that throws as no mark', () => {
    const throwing = {
      getItem: () => {
        throw new Error('denied');
      },
    };
    expect(demoModeAt('/dashboard', throwing)).toBe('off');
    expect(demoModeAt('/demo', throwing)).toBe('enter');
  });

  it('marks and clears the tab (clearing also drops a pending reset)', () => {
    const storage = memoryStorage({ [DEMO_RESET_KEY]: '1' });
    markDemo(storage);
    expect(storage.getItem(DEMO_FLAG_KEY)).toBe('1');
    clearDemoMark(storage);
    expect(storage.getItem(DEMO_FLAG_KEY)).toBeNull();
    expect(storage.getItem(DEMO_RESET_KEY)).toBeNull();
  });

  it('keeps the demo in its own database, apart from any real user', () => {
    expect(databaseNameFor(DEMO_USER_ID)).toBe(`satchel-${DEMO_USER_ID}`);
    expect(databaseNameFor(crypto.randomUUID())).not.toBe(databaseNameFor(DEMO_USER_ID));
  });

  it('signs in a user whose id is a UUID, as every real user’s is (task assignees need one)', () => {
    expect(DEMO_USER_ID).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });
});

describe('demo auth controller', () => {
  it('is signed in as the demo visitor at once, and signing out leaves the demo', async () => {
    const onLeave = vi.fn();
    const controller = createDemoAuthController({ onLeave });
    const state = controller.getState();
    expect(state).toMatchObject({ status: 'authenticated', user: { id: DEMO_USER_ID } });
    expect(controller.getState()).toBe(state);
    const listener = vi.fn();
    controller.subscribe(listener);
    await controller.signOut();
    expect(controller.getState().status).toBe('unauthenticated');
    expect(listener).toHaveBeenCalledTimes(1);
    expect(onLeave).toHaveBeenCalledTimes(1);
    await controller.signOut();
    expect(onLeave).toHaveBeenCalledTimes(1);
  });
});

describe('demo API client', () => {
  it('answers every call with the contract error shape and says why, without fetching', async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    const { callEndpoint } = createDemoApiClient();
    const error = await callEndpoint(getPublicConfig, { query: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(503);
    expect((error as ApiError).code).toBe('UNAVAILABLE');
    expect((error as ApiError).message).toMatch(/^Not available in the demo: create your account/);
    expect(fetchSpy).not.toHaveBeenCalled();
    fetchSpy.mockRestore();
  });
});

describe('demo database', () => {
  it('is seeded once: a second start keeps the visitor’s edits', async () => {
    const name = `test-${crypto.randomUUID()}`;
    const db = createAppDatabase(DEMO_USER_ID, { name });
    const seed = buildDemoSeed();
    expect(await seedDemoDatabase(db, seed)).toBe(true);
    expect(await db.workspaces.get(DEMO_WORKSPACE_ID)).toMatchObject({ name: seed.workspace.name });
    expect(await db.clients.count()).toBe(seed.rows.clients?.length);
    expect(await db.tasks.count()).toBe(seed.rows.tasks?.length);
    await db.clients.update(seed.rows.clients?.[0]?.id as string, { name: 'Edited' });
    expect(await seedDemoDatabase(db, seed)).toBe(false);
    expect((await db.clients.get(seed.rows.clients?.[0]?.id as string))?.name).toBe('Edited');
    db.close();
  });

  it('syncs with no transport: writes stay in the outbox, no worker or leader election starts', async () => {
    const name = `test-${crypto.randomUUID()}`;
    const db = createAppDatabase(DEMO_USER_ID, { name });
    const connectWorker = vi.fn();
    const request = vi.fn(() => Promise.resolve());
    const handle = startSync({
      userId: DEMO_USER_ID,
      getAccessToken: () => Promise.resolve(null),
      db,
      localOnly: true,
      connectWorker,
      locks: { request },
      openChannel: () => null,
      environment: null,
    });
    await writeCreate(db, {
      userId: DEMO_USER_ID,
      mutationId: 'm1',
      now: 0,
      resource: 'client',
      operation: 'create-client',
      entity: 'client',
      row: { id: 'c1', workspaceId: DEMO_WORKSPACE_ID, name: 'Acme' },
      args: {},
      label: 'Acme',
    });
    handle.notifyOutboxChanged();
    handle.reconnect();
    // Counts arrive through a live query: waited for, not timed.
    await vi.waitFor(() =>
      expect(handle.getStatus()).toMatchObject({ state: 'local', waiting: 1, failed: 0 }),
    );
    await tick();
    expect(connectWorker).not.toHaveBeenCalled();
    expect(request).not.toHaveBeenCalled();
    expect(await db.outbox.count()).toBe(1);
    await handle.stop();
    db.close();
  });
});
