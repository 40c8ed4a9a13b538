import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../api-client/call-endpoint.ts';
import { syncedClientRow } from '../db/client-test-fakes.ts';
import { createAppDatabase, type AppDatabase, type LocalClient } from '../db/app-database.ts';
import { writeCreate, writePatch } from '../db/local-write.ts';
import { STUCK_AFTER_ATTEMPTS } from './backoff.ts';
import { createSyncEngine, type SyncEngine, type SyncStatus } from './sync-engine.ts';
import { createFakeClock, createFakeSyncServer, type FakeClock } from './sync-test-fakes.ts';

const WS = '0190a000-0000-7000-8000-000000000001';

function errorBody(code: string, message: string, details?: unknown) {
  return { error: { code, message, requestId: 'r', ...(details ? { details } : {}) } };
}

describe('sync engine', () => {
  let db: AppDatabase;
  let clock: FakeClock;
  let server: ReturnType<typeof createFakeSyncServer>;
  let engine: SyncEngine;
  let statuses: SyncStatus[];
  const settle = () => engine.whenIdle();
  const advance = (ms: number) => clock.advance(ms, settle);

  beforeEach(async () => {
    db = createAppDatabase('u1', { name: `test-${crypto.randomUUID()}` });
    clock = createFakeClock();
    server = createFakeSyncServer();
    statuses = [];
    engine = createSyncEngine({
      db,
      userId: 'u1',
      callEndpoint: server.callEndpoint,
      getWorkspaceIds: () => Promise.resolve([WS]),
      clock,
      random: () => 0.5,
      refreshMembers: false,
      onStatus: (status) => statuses.push(status),
    });
    await engine.start();
    await advance(0);
    server.pushes.length = 0;
    server.pulls.length = 0;
  });
  afterEach(() => {
    engine.stop();
    db.close();
  });

  /** Local writes as the client screens make them (src/sync may not import features). */
  async function queueCreate(input: { workspaceId: string; name: string }) {
    const id = crypto.randomUUID();
    await writeCreate(db, {
      userId: 'u1',
      mutationId: crypto.randomUUID(),
      now: clock.now(),
      resource: 'client',
      operation: 'create-client',
      entity: 'client',
      row: { ...input, id },
      args: { ...input, id },
      label: input.name,
    });
    engine.enqueued();
    return { id };
  }
  async function queuePatch(id: string, patch: Record<string, unknown>) {
    await writePatch(db, {
      userId: 'u1',
      mutationId: crypto.randomUUID(),
      now: clock.now(),
      resource: 'client',
      operation: 'update-client',
      entity: 'client',
      id,
      patch,
    });
    engine.enqueued();
  }

  async function syncedClient(name: string): Promise<LocalClient> {
    const row = syncedClientRow({ id: crypto.randomUUID(), workspaceId: WS, name, version: 7 });
    await db.clients.add(row);
    return row;
  }

  it('debounces a burst of writes into one push about 20 ms later, in order', async () => {
    for (const name of ['A', 'B', 'C']) await queueCreate({ workspaceId: WS, name });
    await clock.advance(19);
    expect(server.pushes).toHaveLength(0);
    await advance(1);
    expect(server.pushes).toHaveLength(1);
    expect(server.pushes[0]?.mutations.map((m) => [m.clientSeq, (m.body as any).name])).toEqual([
      [1, 'A'],
      [2, 'B'],
      [3, 'C'],
    ]);
    expect(engine.getStatus()).toMatchObject({ state: 'idle', waiting: 0 });
  });

  it('backs off 1 s, 2 s, 4 s (+30 % jitter at most) without an answer; online resets it', async () => {
    for (let i = 0; i < 3; i += 1) {
      server.onPush(() => {
        throw new ApiError(0, null, new TypeError('Failed to fetch'));
      });
    }
    await queueCreate({ workspaceId: WS, name: 'A' });
    await advance(20);
    expect(engine.getStatus().state).toBe('offline');
    // random() = 0.5: 15 % of the 30 % jitter.
    expect(clock.pendingDelays()[0]).toBe(1_150);
    await advance(1_150);
    expect(clock.pendingDelays()[0]).toBe(2_300);
    await advance(2_300);
    expect(clock.pendingDelays()[0]).toBe(4_600);
    expect(server.pushes).toHaveLength(3);
    // Back online: no waiting out the backoff.
    engine.online();
    await advance(0);
    expect(server.pushes).toHaveLength(4);
    expect(engine.getStatus()).toMatchObject({ state: 'idle', waiting: 0 });
  });

  it("honours the server's Retry-After even when a trigger resets the backoff", async () => {
    server.onPush(() => {
      throw new ApiError(429, errorBody('RATE_LIMITED', 'Slow down', { retryAfterSeconds: 30 }));
    });
    await queueCreate({ workspaceId: WS, name: 'A' });
    await advance(20);
    expect(engine.getStatus()).toMatchObject({ state: 'retrying', waiting: 1 });
    engine.online();
    await advance(29_000);
    expect(server.pushes).toHaveLength(1);
    await advance(1_000);
    expect(server.pushes).toHaveLength(2);
    expect(engine.getStatus()).toMatchObject({ state: 'idle', waiting: 0 });
  });

  it('pauses the whole queue on 401 until resumeAfterAuth', async () => {
    server.onPush(() => {
      throw new ApiError(401, errorBody('UNAUTHORIZED', 'JWT expired'));
    });
    await queueCreate({ workspaceId: WS, name: 'A' });
    await advance(20);
    expect(engine.getStatus().state).toBe('needs_auth');
    await queueCreate({ workspaceId: WS, name: 'B' });
    await advance(120_000);
    expect(server.pushes).toHaveLength(1);
    expect((await db.outbox.toArray()).map((entry) => entry.status)).toEqual([
      'pending',
      'pending',
    ]);
    engine.resumeAfterAuth();
    await advance(0);
    expect(server.pushes).toHaveLength(2);
    expect(engine.getStatus()).toMatchObject({ state: 'idle', waiting: 0 });
  });

  it('rolls back a refused change into a sync issue while other entities still go through', async () => {
    const acme = await syncedClient('Acme');
    await queuePatch(acme.id, { name: 'Bad' });
    const other = await queueCreate({ workspaceId: WS, name: 'Other' });
    server.onPush((body) => ({
      results: [
        {
          mutationId: body.mutations[0]!.mutationId,
          status: 422,
          body: errorBody('BUSINESS_RULE', 'Name is taken'),
          seq: null,
        },
        { mutationId: body.mutations[1]!.mutationId, status: 200, body: {}, seq: 200 },
      ],
    }));
    await advance(20);
    expect(await db.clients.get(acme.id)).toMatchObject({ name: 'Acme', _pending: 0, _base: {} });
    expect(await db.syncIssues.toArray()).toEqual([
      expect.objectContaining({
        title: "Rename client 'Acme' to 'Bad'",
        reason: 'validation',
        serverMessage: 'Name is taken',
        httpStatus: 422,
        payload: expect.objectContaining({ args: { name: 'Bad' } }),
      }),
    ]);
    expect(await db.outbox.count()).toBe(0);
    expect(await db.clients.get(other.id)).toMatchObject({ _pending: 0 });
    expect(engine.getStatus()).toMatchObject({ waiting: 0, failed: 1 });
  });

  it('shows a change the server recorded as failing (a 5xx result) as a server error issue', async () => {
    const acme = await syncedClient('Acme');
    await queuePatch(acme.id, { name: 'Breaks the server' });
    const other = await queueCreate({ workspaceId: WS, name: 'Other' });
    server.onPush((body) => ({
      results: [
        {
          mutationId: body.mutations[0]!.mutationId,
          status: 500,
          body: errorBody('INTERNAL', 'The server could not apply this change.'),
          seq: null,
        },
        { mutationId: body.mutations[1]!.mutationId, status: 200, body: {}, seq: 201 },
      ],
    }));
    await advance(20);
    expect(await db.syncIssues.toArray()).toEqual([
      expect.objectContaining({ reason: 'server_error', httpStatus: 500 }),
    ]);
    expect(await db.outbox.where('status').notEqual('acked').count()).toBe(0);
    expect(await db.clients.get(other.id)).toMatchObject({ _pending: 0 });
  });

  it('holds back only the entity the server could not take, not the rest of the queue', async () => {
    const acme = await syncedClient('Acme');
    server.onPush(() => ({ results: [], retryAfterSeconds: 1 }));
    await queuePatch(acme.id, { phone: '1' });
    const other = await queueCreate({ workspaceId: WS, name: 'Other' });
    await advance(20);
    // Sent once already, so never merged with this later change of the same client.
    await queuePatch(acme.id, { phone: '2' });
    // After the server's 1 s pause, Acme's first change still waits on its own backoff
    // (1 s + jitter) and its later change waits behind it; Other goes at once.
    await advance(1_000);
    await advance(200);
    const sent = server.pushes.map((push) => push.mutations.map((m) => m.body));
    expect(sent).toEqual([
      [{ phone: '1' }, expect.objectContaining({ name: 'Other' })],
      [expect.objectContaining({ id: other.id })],
      [{ phone: '1' }, { phone: '2' }],
    ]);
    expect(await db.outbox.where('status').notEqual('acked').count()).toBe(0);
  });

  it('keeps an applied change until a pull reaches its seq, without flicker', async () => {
    const acme = await syncedClient('Acme');
    await queuePatch(acme.id, { name: 'Mine' });
    const seq = server.nextSeq();
    const serverRow = (name: string, version: number) => ({ ...acme, name, version });
    server.onPull(() => ({
      changes: [
        { table: 'clients', id: acme.id, op: 'upsert', row: serverRow('Acme', 12), seq: 12 },
      ],
      cursor: 'page-1',
      hasMore: true,
    }));
    server.onPull(() => {
      throw new ApiError(0, null);
    });
    await advance(20);
    expect((await db.outbox.toArray()).map((entry) => [entry.status, entry.ackSeq])).toEqual([
      ['acked', seq],
    ]);
    // The older server row arrived, but the applied change still shows.
    expect(await db.clients.get(acme.id)).toMatchObject({ name: 'Mine', _base: { name: 'Acme' } });

    server.onPull((query) => {
      expect(query.cursor).toBe('page-1');
      return {
        changes: [
          { table: 'clients', id: acme.id, op: 'upsert', row: serverRow('Mine', seq), seq },
        ],
        cursor: 'page-2',
        hasMore: false,
      };
    });
    engine.online();
    await advance(0);
    expect(await db.outbox.count()).toBe(0);
    expect(await db.clients.get(acme.id)).toMatchObject({
      name: 'Mine',
      _v: seq,
      _pending: 0,
      _base: {},
    });
  });

  it('coalesces consecutive unsent patches of one entity into one mutation', async () => {
    const acme = await syncedClient('Acme');
    engine.offline();
    await queuePatch(acme.id, { name: 'Acme 2' });
    await queuePatch(acme.id, { phone: '555' });
    await queuePatch(acme.id, { name: 'Acme 3' });
    expect((await db.clients.get(acme.id))?._pending).toBe(3);
    const seq = server.nextSeq();
    server.onPull(() => ({
      changes: [
        {
          table: 'clients',
          id: acme.id,
          op: 'upsert',
          row: { ...acme, name: 'Acme 3', phone: '555', version: seq },
          seq,
        },
      ],
      cursor: 'c',
      hasMore: false,
    }));
    engine.online();
    await advance(0);
    expect(server.pushes[0]?.mutations).toEqual([
      expect.objectContaining({ body: { name: 'Acme 3', phone: '555' }, baseVersion: 7 }),
    ]);
    expect(await db.clients.get(acme.id)).toMatchObject({ name: 'Acme 3', _pending: 0 });
  });

  it('shows an entry as stuck after 20 answered failures, keeps it, and clears it on success', async () => {
    await queueCreate({ workspaceId: WS, name: 'A' });
    await db.outbox.toCollection().modify({ status: 'retry', attempts: STUCK_AFTER_ATTEMPTS - 1 });
    server.onPush(() => {
      throw new ApiError(503, errorBody('UNAVAILABLE', 'Try later'));
    });
    engine.online();
    await advance(0);
    expect((await db.outbox.toArray())[0]).toMatchObject({ status: 'stuck', attempts: 20 });
    expect(await db.syncIssues.toArray()).toEqual([
      expect.objectContaining({ reason: 'stuck', title: "Create client 'A'" }),
    ]);
    expect(engine.getStatus()).toMatchObject({ waiting: 0, failed: 1 });
    engine.online();
    await advance(0);
    expect(await db.outbox.count()).toBe(0);
    expect(await db.syncIssues.count()).toBe(0);
  });

  it('pulls on invalidation only for a newer seq, once per 100 ms burst', async () => {
    const acme = await syncedClient('Acme');
    server.onPull(() => ({
      changes: [
        { table: 'clients', id: acme.id, op: 'upsert', row: { ...acme, version: 50 }, seq: 50 },
      ],
      cursor: 'c50',
      hasMore: false,
    }));
    engine.online();
    await advance(0);
    server.pulls.length = 0;
    engine.invalidate({ workspaceId: WS, seq: 50 });
    await advance(200);
    expect(server.pulls).toHaveLength(0);
    engine.invalidate({ workspaceId: WS, seq: 60 });
    engine.invalidate({ workspaceId: WS, seq: 61 });
    await advance(99);
    expect(server.pulls).toHaveLength(0);
    await advance(1);
    expect(server.pulls).toEqual([expect.objectContaining({ workspaceId: WS, cursor: 'c50' })]);
  });

  /** A member as get-workspace-members answers. */
  const memberRow = (id: string, firstName: string, role: 'owner' | 'member') => ({
    id,
    email: `${firstName.toLowerCase()}@example.com`,
    firstName,
    lastName: 'Test',
    profilePictureUrl: null,
    role,
    joinedAt: '2026-01-02T00:00:00.000Z',
  });

  /** The engine started again, its member reads answered by `answer` and counted. */
  async function restartReadingMembers(answer: () => Promise<unknown>) {
    engine.stop();
    const reads = { count: 0 };
    const callEndpoint = ((endpoint: { operation: string }, input: never) => {
      if (endpoint.operation !== 'get-workspace-members') {
        return (server.callEndpoint as any)(endpoint, input);
      }
      reads.count += 1;
      return answer();
    }) as typeof server.callEndpoint;
    engine = createSyncEngine({
      db,
      userId: 'u1',
      callEndpoint,
      getWorkspaceIds: () => Promise.resolve([WS]),
      clock,
      random: () => 0.5,
      onStatus: (status) => statuses.push(status),
    });
    await engine.start();
    await advance(0);
    return reads;
  }

  it('re-reads the members when a pull brings the workspace row (someone joined or left)', async () => {
    const members = [memberRow('u1', 'Olive', 'owner'), memberRow('u2', 'Gus', 'member')];
    const reads = await restartReadingMembers(() => Promise.resolve({ members }));
    const readsAfterStart = reads.count;

    // A pull of an unrelated change leaves the members alone.
    const acme = await syncedClient('Acme');
    server.onPull(() => ({
      changes: [
        { table: 'clients', id: acme.id, op: 'upsert', row: { ...acme, version: 50 }, seq: 50 },
      ],
      cursor: 'c50',
      hasMore: false,
    }));
    engine.invalidate({ workspaceId: WS, seq: 50 });
    await advance(200);
    expect(reads.count).toBe(readsAfterStart);

    // Someone accepted an invitation: the server records it on the workspace row.
    const workspace = {
      id: WS,
      name: 'Studio',
      logoUrl: null,
      brandColor: null,
      currency: 'USD',
      timeZone: 'UTC',
      locale: 'en-US',
      portalWelcomeText: null,
      settings: {},
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-02T00:00:00.000Z',
      version: 60,
    };
    server.onPull(() => ({
      changes: [{ table: 'workspaces', id: WS, op: 'upsert', row: workspace, seq: 60 }],
      cursor: 'c60',
      hasMore: false,
    }));
    engine.invalidate({ workspaceId: WS, seq: 60 });
    await advance(200);
    expect(reads.count).toBe(readsAfterStart + 1);
    expect(await db.members.where('workspaceId').equals(WS).toArray()).toEqual([
      expect.objectContaining({ id: 'u1', firstName: 'Olive', workspaceId: WS }),
      expect.objectContaining({ id: 'u2', firstName: 'Gus', workspaceId: WS }),
    ]);
  });

  it('a member read cut short is made again at the next pull, not only at the next snapshot', async () => {
    // A fresh device: its first pull is a snapshot, whose member read fails (a worker stopped
    // mid-call looks the same to the engine).
    await db.syncState.clear();
    let failReads = true;
    const reads = await restartReadingMembers(() =>
      failReads
        ? Promise.reject(new TypeError('Failed to fetch'))
        : Promise.resolve({ members: [memberRow('u1', 'Olive', 'owner')] }),
    );
    expect(reads.count).toBe(1);
    expect(await db.members.count()).toBe(0);

    // The next pull brings nothing about members, yet the owed read is made and lands.
    failReads = false;
    server.onPull(() => ({ changes: [], cursor: 'c70', hasMore: false }));
    engine.invalidate({ workspaceId: WS, seq: 70 });
    await advance(200);
    expect(reads.count).toBe(2);
    expect(await db.members.get([WS, 'u1'])).toEqual(
      expect.objectContaining({ role: 'owner', workspaceId: WS }),
    );

    // Paid: later pulls read no more.
    server.onPull(() => ({ changes: [], cursor: 'c71', hasMore: false }));
    engine.invalidate({ workspaceId: WS, seq: 71 });
    await advance(200);
    expect(reads.count).toBe(2);
  });

  it('polls every 60 s while visible and stops while hidden', async () => {
    await advance(60_000);
    expect(server.pulls).toHaveLength(1);
    engine.hidden();
    await advance(180_000);
    expect(server.pulls).toHaveLength(1);
    engine.visible();
    await advance(0);
    expect(server.pulls).toHaveLength(2);
  });

  it('drains a long queue in batches of 100, in order, each change sent once', async () => {
    engine.offline();
    for (let index = 0; index < 250; index += 1) {
      await queueCreate({ workspaceId: WS, name: `C${index}` });
    }
    engine.online();
    await advance(0);
    // The next batch is claimed while the server works on the previous one, sent after its acks.
    const sent = server.pushes.map((push) => push.mutations.map((m) => m.clientSeq));
    expect(sent.map((batch) => batch.length)).toEqual([100, 100, 50]);
    expect(sent.flat()).toEqual([...sent.flat()].sort((a, b) => a - b));
    expect(new Set(sent.flat()).size).toBe(250);
    expect(await db.outbox.count()).toBe(0);
    expect(statuses.at(-1)).toMatchObject({ state: 'idle', waiting: 0 });
  });

  it('sends the batch claimed ahead only after the one before it is all applied', async () => {
    engine.offline();
    for (let index = 0; index < 150; index += 1) {
      await queueCreate({ workspaceId: WS, name: `C${index}` });
    }
    // The server stops at the 100th change (a temporary failure there: not attempted).
    server.onPush((body) => server.applyAll({ ...body, mutations: body.mutations.slice(0, 99) }));
    engine.online();
    await advance(0);
    const sent = server.pushes.map((push) => push.mutations.map((m) => m.clientSeq));
    const seqs = Array.from({ length: 150 }, (_, index) => index + 1);
    // The 51 changes claimed ahead went back unsent, and follow the 100th in order.
    expect(sent).toEqual([seqs.slice(0, 100), seqs.slice(99)]);
    expect(await db.outbox.count()).toBe(0);
  });

  it('waits while the browser is offline, then drains at once', async () => {
    engine.offline();
    await queueCreate({ workspaceId: WS, name: 'A' });
    await advance(60_000);
    expect(server.pushes).toHaveLength(0);
    expect(engine.getStatus()).toMatchObject({ state: 'offline', waiting: 1 });
    engine.online();
    await advance(0);
    expect(server.pushes).toHaveLength(1);
    expect(statuses.at(-1)).toMatchObject({ state: 'idle', waiting: 0 });
  });
});
