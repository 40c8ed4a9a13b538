import { describe, expect, it } from 'vitest';
import { createAppDatabase } from '../db/app-database.ts';
import { writeCreate } from '../db/local-write.ts';
import { startSync, type SyncHandle, type WorkerConnection } from './sync-client.ts';
import type { SyncStatus } from './sync-engine.ts';
import type { SyncWorkerApi } from './sync-worker-api.ts';
import { createFakeLocks } from './sync-test-fakes.ts';

const tick = () => new Promise((resolve) => setTimeout(resolve, 10));

/** BroadcastChannel stand-in: delivers to every other channel of the same name. */
function channelHub() {
  const open = new Set<{ name: string; listeners: ((event: MessageEvent) => void)[] }>();
  return (name: string) => {
    const self = { name, listeners: [] as ((event: MessageEvent) => void)[] };
    open.add(self);
    return {
      postMessage(data: unknown) {
        for (const other of open) {
          if (other !== self && other.name === name) {
            for (const listener of other.listeners) listener({ data } as MessageEvent);
          }
        }
      },
      addEventListener: (_type: 'message', listener: (event: MessageEvent) => void) =>
        void self.listeners.push(listener),
      close: () => void open.delete(self),
    };
  };
}

function fakeWorkers() {
  const workers: { calls: string[]; status: (status: SyncStatus) => void }[] = [];
  const connect = (
    _config: unknown,
    _token: unknown,
    onStatus: (status: SyncStatus) => void,
  ): Promise<WorkerConnection> => {
    const calls: string[] = [];
    workers.push({ calls, status: onStatus });
    const record = (name: string) => () => {
      calls.push(name);
      return Promise.resolve();
    };
    const engine = new Proxy({} as SyncWorkerApi, {
      get: (_target, name: string) => record(name),
    });
    return Promise.resolve({ engine, close: () => calls.push('close') });
  };
  return { workers, connect };
}

describe('sync client', () => {
  it('runs one engine per user, wakes it from other tabs, and fails over when the leader closes', async () => {
    const name = `test-${crypto.randomUUID()}`;
    const locks = createFakeLocks();
    const openChannel = channelHub();
    const { workers, connect } = fakeWorkers();
    const tab = () =>
      startSync({
        userId: 'u1',
        getAccessToken: () => Promise.resolve('t'),
        db: createAppDatabase('u1', { name }),
        locks,
        connectWorker: connect,
        openChannel,
        environment: null,
        isOnline: () => true,
        isVisible: () => true,
      });
    const first = tab();
    const second = tab();
    await tick();
    expect([first.isLeader(), second.isLeader()]).toEqual([true, false]);
    expect(workers).toHaveLength(1);
    expect(workers[0]?.calls).toEqual(['start']);

    second.notifyOutboxChanged();
    first.notifyOutboxChanged();
    expect(workers[0]?.calls).toEqual(['start', 'enqueued', 'enqueued']);

    await first.stop();
    await tick();
    expect(workers[0]?.calls.slice(-2)).toEqual(['stop', 'close']);
    expect(second.isLeader()).toBe(true);
    expect(workers[1]?.calls).toEqual(['start']);
    await second.stop();
    second.db.close();
    first.db.close();
  });

  it('reports counts from the shared database and the state from the engine', async () => {
    const db = createAppDatabase('u1', { name: `test-${crypto.randomUUID()}` });
    const { workers, connect } = fakeWorkers();
    const environment = new EventTarget();
    let online = true;
    const handle: SyncHandle = startSync({
      userId: 'u1',
      getAccessToken: () => Promise.resolve('t'),
      db,
      locks: null,
      connectWorker: connect,
      openChannel: () => null,
      environment,
      isOnline: () => online,
      isVisible: () => true,
    });
    const seen: string[] = [];
    handle.subscribe((status) => seen.push(`${status.state}/${status.waiting}`));
    await tick();
    await writeCreate(db, {
      userId: 'u1',
      mutationId: 'm1',
      now: 0,
      resource: 'client',
      operation: 'create-client',
      entity: 'client',
      row: { id: 'c1', workspaceId: 'w1', name: 'Acme' },
      args: {},
      label: 'Acme',
    });
    await tick();
    expect(handle.getStatus()).toMatchObject({ role: 'leader', waiting: 1, failed: 0 });

    workers[0]?.status({
      state: 'offline',
      waiting: 1,
      failed: 0,
      lastSyncedAt: null,
      nextRetryAt: null,
      lastError: null,
    });
    expect(handle.getStatus().state).toBe('offline');
    online = false;
    environment.dispatchEvent(new Event('offline'));
    online = true;
    environment.dispatchEvent(new Event('online'));
    expect(workers[0]?.calls).toEqual(['start', 'offline', 'online']);
    expect(seen).toContain('offline/1');
    await handle.stop();
    db.close();
  });
});
