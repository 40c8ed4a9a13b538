// The real sync engine and Dexie (fake-indexeddb) against the in-process server (PGlite): offline
// queue, exactly-once replays, two devices, conflicts, rejections, resets and lost access.
import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient } from '../../src/api-client/call-endpoint.ts';
import { createAppDatabase, type AppDatabase } from '../../src/db/app-database.ts';
import type { LocalWriteContext } from '../../src/db/local-write.ts';
import { DEVICE_KEY } from '../../src/db/sync-state.ts';
import { readSyncCounts } from '../../src/db/sync-counts.ts';
import { revertToTheirs } from '../../src/sync/sync-issue-actions.ts';
import { v7 as uuidv7 } from 'uuid';
import { createSyncEngine, type SyncClock, type SyncEngine } from '../../src/sync/sync-engine.ts';
import { createClient, deleteClient, updateClient } from '../../src/data/client-mutations.ts';
import { createProject, deleteProject, updateProject } from '../../src/data/project-mutations.ts';
import { createTestApp, jsonRequest, type TestApp } from '../fixtures/create-test-app.ts';
import { bearer, createTestTokens, newTestUser, type TestUser } from '../fixtures/test-tokens.ts';

type Fetch = (input: string, init?: RequestInit) => Promise<Response>;

/**
 * Timers that never fire (each test drives the engine with syncNow(), so runs are deterministic)
 * and a wall clock a test can move forward past a backoff.
 */
let skewMs = 0;
const manualClock: SyncClock = {
  now: () => Date.now() + skewMs,
  setTimeout: () => 0,
  clearTimeout: () => {},
};

describe('sync engine against the in-process server', () => {
  let t: TestApp;
  let tokens: Awaited<ReturnType<typeof createTestTokens>>;
  const open: { db: AppDatabase; engine: SyncEngine }[] = [];

  beforeAll(async () => {
    tokens = await createTestTokens();
    t = await createTestApp({ verifyAccessToken: tokens.verifyAccessToken });
  });
  afterAll(async () => {
    await t.cleanup();
  });
  afterEach(() => {
    for (const { db, engine } of open.splice(0)) {
      engine.stop();
      db.close();
    }
  });

  async function register(user: TestUser): Promise<string> {
    const response = await t.app.request(
      '/api/register?endpoint=register-user',
      jsonRequest(
        'POST',
        { id: user.id, email: user.email, firstName: 'A' },
        bearer(await tokens.sign(user)),
      ),
    );
    const body = (await response.json()) as { data: { workspace: { id: string } } };
    return body.data.workspace.id;
  }

  /** One browser profile of `user`: its own Dexie database, device id and engine. */
  async function device(user: TestUser, workspaceIds: string[], db?: AppDatabase) {
    const localDb = db ?? createAppDatabase(user.id, { name: `it-${randomUUID()}` });
    const network = {
      online: true,
      /** Replaces the server's answer to push requests (the request never reaches it). */
      push: null as Fetch | null,
    };
    const serverFetch: Fetch = (input, init) => Promise.resolve(t.app.request(input, init));
    const fetchImpl: Fetch = (input, init) => {
      if (!network.online) return Promise.reject(new TypeError('Failed to fetch'));
      if (network.push && input.includes('/api/sync?endpoint=push')) {
        return network.push(input, init);
      }
      return serverFetch(input, init);
    };
    let token: Promise<string> | null = null;
    const api = createApiClient({
      baseUrl: 'http://localhost',
      fetch: (input, init) => fetchImpl(input as string, init),
      getAccessToken: () => (token ??= tokens.sign(user)),
    });
    const engine = createSyncEngine({
      db: localDb,
      userId: user.id,
      callEndpoint: api.callEndpoint,
      getWorkspaceIds: () => Promise.resolve(workspaceIds),
      clock: manualClock,
      random: () => 0,
    });
    open.push({ db: localDb, engine });
    // Recovers entries a previous engine left in flight; its own first run waits for syncNow().
    await engine.start();
    const ctx: LocalWriteContext = { db: localDb, userId: user.id };
    return { db: localDb, engine, ctx, network, serverFetch };
  }

  const count = async (sql: string, params: unknown[]) =>
    Number(
      (await t.db.query<{ n: string }>(`SELECT count(*) AS n FROM ${sql}`, params)).rows[0]?.n,
    );

  /** A push answered like a server that stopped the batch on a temporary failure. */
  const temporarilyUnavailable: Fetch = () =>
    Promise.resolve(
      new Response(JSON.stringify({ results: [], retryAfterSeconds: 1 }), {
        status: 200,
        headers: { 'Content-Type': 'application/json' },
      }),
    );

  it('queues offline, shows the rows at once, then drains when online', async () => {
    const ada = newTestUser('ada');
    const ws = await register(ada);
    const d = await device(ada, [ws]);
    d.network.online = false;

    const client = await createClient(d.ctx, { workspaceId: ws, name: 'Acme' });
    const project = await createProject(d.ctx, {
      workspaceId: ws,
      clientId: client.id,
      name: 'Website',
      budget: '1500.50',
    });
    await updateClient(d.ctx, client.id, { name: 'Acme Ltd' });
    await d.engine.syncNow();

    expect(d.engine.getStatus()).toMatchObject({ state: 'offline', waiting: 3, failed: 0 });
    expect(await d.db.clients.get(client.id)).toMatchObject({ name: 'Acme Ltd', _pending: 2 });
    expect(await count('client WHERE id = $1', [client.id])).toBe(0);

    d.network.online = true;
    await d.engine.syncNow();

    expect(d.engine.getStatus()).toMatchObject({ state: 'idle', waiting: 0, failed: 0 });
    expect(await d.db.outbox.count()).toBe(0);
    expect(await d.db.clients.get(client.id)).toMatchObject({
      name: 'Acme Ltd',
      _pending: 0,
      _base: {},
    });
    expect((await d.db.projects.get(project.id))?._v).toBeGreaterThan(0);
    const server = await t.db.query<{ name: string }>('SELECT name FROM client WHERE id = $1', [
      client.id,
    ]);
    expect(server.rows).toEqual([{ name: 'Acme Ltd' }]);
    expect(await count('project WHERE id = $1', [project.id])).toBe(1);
    // The snapshot brought the workspace row and its members too.
    expect(await d.db.workspaces.get(ws)).toBeDefined();
    expect(await d.db.members.where('workspaceId').equals(ws).count()).toBe(1);
  });

  it('applies a mutation once when its answer is lost and it is pushed again', async () => {
    const ada = newTestUser('ada');
    const ws = await register(ada);
    const d = await device(ada, [ws]);
    // The server applies the push, then the connection drops before the answer arrives.
    d.network.push = async (input, init) => {
      await d.serverFetch(input, init);
      throw new TypeError('Network connection lost');
    };
    const client = await createClient(d.ctx, { workspaceId: ws, name: 'Twice' });
    await d.engine.syncNow();
    expect(await count('client WHERE id = $1', [client.id])).toBe(1);
    expect((await d.db.outbox.toArray()).map((entry) => entry.status)).toEqual(['retry']);

    d.network.push = null;
    await d.engine.syncNow();
    expect(await d.db.outbox.count()).toBe(0);
    expect(await count('client WHERE id = $1', [client.id])).toBe(1);
    expect(await count('change_log WHERE entity_id = $1', [client.id])).toBe(1);
  });

  it('re-pushes after the tab closed between send and ack, without a duplicate', async () => {
    const ada = newTestUser('ada');
    const ws = await register(ada);
    const first = await device(ada, [ws]);
    let applied = false;
    first.network.push = async (input, init) => {
      await first.serverFetch(input, init);
      applied = true;
      // The tab is closed: the answer never comes back.
      return new Promise<Response>(() => {});
    };
    const client = await createClient(first.ctx, { workspaceId: ws, name: 'Closed tab' });
    void first.engine.syncNow();
    while (!applied) await new Promise((resolve) => setTimeout(resolve, 5));
    first.engine.stop();
    expect((await first.db.outbox.toArray()).map((entry) => entry.status)).toEqual(['inflight']);

    // The tab is reopened: a new engine on the same database.
    const reopened = await device(ada, [ws], first.db);
    await reopened.engine.syncNow();

    expect(await reopened.db.outbox.count()).toBe(0);
    expect((await reopened.db.clients.get(client.id))?._v).toBeGreaterThan(0);
    expect(await count('client WHERE id = $1', [client.id])).toBe(1);
    expect(await count('change_log WHERE entity_id = $1', [client.id])).toBe(1);
  });

  it('lets two devices editing different fields of one project both win; same field: last writer', async () => {
    const ada = newTestUser('ada');
    const ws = await register(ada);
    const laptop = await device(ada, [ws]);
    const phone = await device(ada, [ws]);
    const client = await createClient(laptop.ctx, { workspaceId: ws, name: 'Acme' });
    const project = await createProject(laptop.ctx, {
      workspaceId: ws,
      clientId: client.id,
      name: 'Website',
    });
    await laptop.engine.syncNow();
    await phone.engine.syncNow();
    expect(await phone.db.projects.get(project.id)).toMatchObject({ name: 'Website' });
    const ids = await Promise.all(
      [laptop, phone].map(async (d) => ((await d.db.syncState.get(DEVICE_KEY)) as any)?.clientId),
    );
    expect(ids[0]).toBeDefined();
    expect(ids[0]).not.toBe(ids[1]);

    // Both offline: different fields, and the same field (status).
    laptop.network.online = false;
    phone.network.online = false;
    await updateProject(laptop.ctx, project.id, { name: 'Website v2', status: 'active' });
    await updateProject(phone.ctx, project.id, { dueDate: '2026-09-30', status: 'on_hold' });
    laptop.network.online = true;
    phone.network.online = true;
    await laptop.engine.syncNow();
    await phone.engine.syncNow();
    await laptop.engine.syncNow();

    const expected = { name: 'Website v2', dueDate: '2026-09-30', status: 'on_hold' };
    expect(await laptop.db.projects.get(project.id)).toMatchObject({ ...expected, _pending: 0 });
    expect(await phone.db.projects.get(project.id)).toMatchObject({ ...expected, _pending: 0 });
    const server = await t.db.query(
      'SELECT name, to_char(due_date, \'YYYY-MM-DD\') AS "dueDate", status FROM project WHERE id = $1',
      [project.id],
    );
    expect(server.rows).toEqual([expected]);

    // The phone's status replaced the laptop's: the phone is told, with the laptop's value kept
    // for a revert; its other field (due date) was nobody else's, and the laptop has no notice.
    const [notice] = await phone.db.syncIssues.toArray();
    expect(notice?.overwrote).toEqual({
      fields: ['status'],
      theirs: { status: 'active' },
      by: ada.id,
    });
    expect(await readSyncCounts(phone.db)).toEqual({ waiting: 0, failed: 0 });
    expect(await laptop.db.syncIssues.count()).toBe(0);

    await revertToTheirs(phone.db, notice!.id, { userId: ada.id, newId: uuidv7 });
    await phone.engine.syncNow();
    await laptop.engine.syncNow();
    expect(await laptop.db.projects.get(project.id)).toMatchObject({ status: 'active' });
    expect(await phone.db.syncIssues.count()).toBe(0);
  });

  it('lets a delete win over an edit: the edit becomes a sync issue, nothing comes back', async () => {
    const ada = newTestUser('ada');
    const ws = await register(ada);
    const laptop = await device(ada, [ws]);
    const phone = await device(ada, [ws]);
    const client = await createClient(laptop.ctx, { workspaceId: ws, name: 'Acme' });
    const project = await createProject(laptop.ctx, {
      workspaceId: ws,
      clientId: client.id,
      name: 'Website',
    });
    await laptop.engine.syncNow();
    await phone.engine.syncNow();

    phone.network.online = false;
    await updateProject(phone.ctx, project.id, { name: 'Website v2' });
    await deleteProject(laptop.ctx, project.id);
    await laptop.engine.syncNow();
    phone.network.online = true;
    await phone.engine.syncNow();

    expect(await phone.db.projects.get(project.id)).toBeUndefined();
    expect(await phone.db.outbox.count()).toBe(0);
    expect(await phone.db.syncIssues.toArray()).toEqual([
      expect.objectContaining({
        reason: 'not_found',
        title: "Rename project 'Website' to 'Website v2'",
        payload: expect.objectContaining({ args: { name: 'Website v2' } }),
      }),
    ]);
    expect(phone.engine.getStatus()).toMatchObject({ waiting: 0, failed: 1 });
    expect(await count('project WHERE id = $1', [project.id])).toBe(0);
  });

  it('rolls back a refused change and records it, while later changes still go through', async () => {
    const ada = newTestUser('ada');
    const dave = newTestUser('dave');
    const adaWs = await register(ada);
    await register(dave);
    await t.db.query(
      "INSERT INTO workspace_member (workspace_id, user_id, role) VALUES ($1, $2, 'member')",
      [adaWs, dave.id],
    );
    const owner = await device(ada, [adaWs]);
    const acme = await createClient(owner.ctx, { workspaceId: adaWs, name: 'Acme' });
    const globex = await createClient(owner.ctx, { workspaceId: adaWs, name: 'Globex' });
    await owner.engine.syncNow();

    const d = await device(dave, [adaWs]);
    await d.engine.syncNow();
    d.network.online = false;
    // A member may edit clients but not delete them (the server answers 403).
    await deleteClient(d.ctx, acme.id);
    const fresh = await createClient(d.ctx, { workspaceId: adaWs, name: 'Initech' });
    await updateClient(d.ctx, globex.id, { name: 'Globex Corp' });
    expect(await d.db.clients.get(acme.id)).toMatchObject({ _deleted: true });
    d.network.online = true;
    await d.engine.syncNow();

    expect(await d.db.clients.get(acme.id)).toMatchObject({ _deleted: false, _pending: 0 });
    expect(await d.db.syncIssues.toArray()).toEqual([
      expect.objectContaining({
        reason: 'forbidden',
        httpStatus: 403,
        title: "Delete client 'Acme'",
        entityId: acme.id,
      }),
    ]);
    expect(await d.db.outbox.count()).toBe(0);
    const names = await t.db.query<{ name: string }>(
      'SELECT name FROM client WHERE workspace_id = $1 ORDER BY name',
      [adaWs],
    );
    expect(names.rows.map((row) => row.name)).toEqual(['Acme', 'Globex Corp', 'Initech']);
    expect(await d.db.clients.get(fresh.id)).toMatchObject({ _pending: 0 });
  });

  it('re-downloads a workspace on a stale cursor and keeps the outbox', async () => {
    const ada = newTestUser('ada');
    const ws = await register(ada);
    const d = await device(ada, [ws]);
    const keep = await createClient(d.ctx, { workspaceId: ws, name: 'Keep' });
    const gone = await createClient(d.ctx, { workspaceId: ws, name: 'Gone' });
    await d.engine.syncNow();

    // Meanwhile: deleted elsewhere, and the log was trimmed past this device's cursor.
    const response = await t.app.request(`/api/client?endpoint=delete-client&id=${gone.id}`, {
      method: 'DELETE',
      headers: bearer(await tokens.sign(ada)),
    });
    expect(response.status).toBe(200);
    const head = await t.db.query<{ seq: string }>(
      'SELECT seq FROM workspace_seq WHERE workspace_id = $1',
      [ws],
    );
    await t.db.query('INSERT INTO change_log_floor (workspace_id, min_seq) VALUES ($1, $2)', [
      ws,
      Number(head.rows[0]?.seq) + 5,
    ]);

    // Local changes that are still queued while the reset happens.
    d.network.push = temporarilyUnavailable;
    await updateClient(d.ctx, keep.id, { name: 'Keep Ltd' });
    const offline = await createClient(d.ctx, { workspaceId: ws, name: 'Made offline' });
    await d.engine.syncNow();

    expect(await d.db.outbox.count()).toBe(2);
    expect(await d.db.clients.get(gone.id)).toBeUndefined();
    expect(await d.db.clients.get(keep.id)).toMatchObject({
      name: 'Keep Ltd',
      _base: { name: 'Keep' },
    });
    expect(await d.db.clients.get(offline.id)).toMatchObject({ name: 'Made offline', _v: 0 });

    await t.db.query('DELETE FROM change_log_floor WHERE workspace_id = $1', [ws]);
    d.network.push = null;
    // The first queued change honours the server's Retry-After (1 s) before it goes again.
    skewMs += 1_500;
    await d.engine.syncNow();
    expect(await d.db.outbox.count()).toBe(0);
    const names = await t.db.query<{ name: string }>(
      'SELECT name FROM client WHERE workspace_id = $1 ORDER BY name',
      [ws],
    );
    expect(names.rows.map((row) => row.name)).toEqual(['Keep Ltd', 'Made offline']);
  });

  it('purges a workspace the user was removed from and keeps its queued changes as issues', async () => {
    const ada = newTestUser('ada');
    const dave = newTestUser('dave');
    const adaWs = await register(ada);
    await register(dave);
    await t.db.query(
      "INSERT INTO workspace_member (workspace_id, user_id, role) VALUES ($1, $2, 'member')",
      [adaWs, dave.id],
    );
    const owner = await device(ada, [adaWs]);
    const acme = await createClient(owner.ctx, { workspaceId: adaWs, name: 'Acme' });
    await createProject(owner.ctx, { workspaceId: adaWs, clientId: acme.id, name: 'Website' });
    await owner.engine.syncNow();

    const d = await device(dave, [adaWs]);
    await d.engine.syncNow();
    expect(await d.db.projects.where('workspaceId').equals(adaWs).count()).toBe(1);

    // The workspace's waiting uploads and offline copies are its data too.
    const projectId = (await d.db.projects.where('workspaceId').equals(adaWs).first())?.id ?? '';
    const blob = new Blob(['brief']);
    await d.db.uploads.add({
      id: randomUUID(),
      workspaceId: adaWs,
      projectId,
      name: 'brief.txt',
      folder: '',
      type: 'text/plain',
      size: 5,
      blob,
      status: 'queued',
      uploadUrl: null,
      error: null,
      fileId: null,
      createdAt: new Date().toISOString(),
    });
    await d.db.fileCopies.add({
      fileId: randomUUID(),
      version: 1,
      workspaceId: adaWs,
      projectId,
      size: 5,
      type: 'text/plain',
      blob,
      keptAt: new Date().toISOString(),
    });
    await d.db.keptProjects.add({ projectId, workspaceId: adaWs });

    d.network.push = temporarilyUnavailable;
    await updateClient(d.ctx, acme.id, { phone: '+1 555 0100' });
    await t.db.query('DELETE FROM workspace_member WHERE workspace_id = $1 AND user_id = $2', [
      adaWs,
      dave.id,
    ]);
    await d.engine.syncNow();

    expect(await d.db.clients.where('workspaceId').equals(adaWs).count()).toBe(0);
    expect(await d.db.projects.where('workspaceId').equals(adaWs).count()).toBe(0);
    expect(await d.db.workspaces.get(adaWs)).toBeUndefined();
    expect(await d.db.outbox.count()).toBe(0);
    expect([
      await d.db.uploads.count(),
      await d.db.fileCopies.count(),
      await d.db.keptProjects.count(),
    ]).toEqual([0, 0, 0]);
    expect(await d.db.syncIssues.toArray()).toEqual([
      expect.objectContaining({
        reason: 'access_revoked',
        title: "Change the phone of client 'Acme' to '+1 555 0100'",
      }),
    ]);
  });
});
