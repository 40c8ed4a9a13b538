import { expose, proxy, wrap } from 'comlink';
import { describe, expect, it } from 'vitest';
import { createAppDatabase } from '../db/app-database.ts';
import type { SyncEngine, SyncEngineDeps, SyncStatus } from './sync-engine.ts';
import { createSyncWorkerApi, type SyncWorkerApi } from './sync-worker-api.ts';

describe('sync worker api', () => {
  it('builds the engine on init and forwards triggers and status over comlink', async () => {
    const calls: string[] = [];
    let deps: SyncEngineDeps | null = null;
    const status: SyncStatus = {
      state: 'idle',
      waiting: 0,
      failed: 0,
      lastSyncedAt: null,
      nextRetryAt: null,
      lastError: null,
    };
    const engine = new Proxy({} as SyncEngine, {
      get: (_target, name: string) => () => {
        calls.push(name);
        if (name === 'start') deps?.onStatus?.({ ...status, state: 'syncing' });
        return name === 'getStatus' ? status : undefined;
      },
    });
    const api = createSyncWorkerApi({
      openDatabase: (userId) => createAppDatabase(userId, { name: `test-${crypto.randomUUID()}` }),
      createEngine: (given) => {
        deps = given;
        return engine;
      },
    });
    const { port1, port2 } = new MessageChannel();
    expose(api, port1);
    const remote = wrap<SyncWorkerApi>(port2);
    const statuses: SyncStatus[] = [];
    await remote.init(
      { userId: 'u1', baseUrl: '' },
      proxy(() => Promise.resolve('token')),
      proxy((next: SyncStatus) => void statuses.push(next)),
    );
    await remote.start();
    await remote.enqueued();
    await remote.invalidate({ workspaceId: 'w', seq: 3 });
    expect(await remote.getStatus()).toEqual(status);
    expect(calls).toEqual(['start', 'enqueued', 'invalidate', 'getStatus']);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(statuses.map((s) => s.state)).toEqual(['syncing']);
    expect((deps as SyncEngineDeps | null)?.userId).toBe('u1');
    await remote.stop();
    port1.close();
    port2.close();
  });
});
