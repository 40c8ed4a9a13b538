// Push and pull against the in-process server: exactly-once apply, rejections that never jam the
// queue, cursors, snapshots in pages, tombstones, resets and lost access.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, jsonRequest, type TestApp } from '../fixtures/create-test-app.ts';
import { bearer, createTestTokens, newTestUser, type TestUser } from '../fixtures/test-tokens.ts';

type Json = Record<string, any>;

/** The protocol suite, run on PGlite (sync-protocol.test.ts) and PostgreSQL (.pg.test.ts). */
export function describeSyncProtocol(label: string, options: { postgresUrl?: string }) {
  describe(`sync protocol on ${label}`, () => {
    let t: TestApp;
    let tokens: Awaited<ReturnType<typeof createTestTokens>>;
    let ada: TestUser;
    let bob: TestUser;
    let adaWs: string;
    let bobWs: string;

    async function call(
      user: TestUser,
      method: string,
      url: string,
      body?: unknown,
    ): Promise<{ status: number; body: Json }> {
      const headers = bearer(await tokens.sign(user));
      const response = await t.app.request(
        url,
        body === undefined ? { method, headers } : jsonRequest(method, body, headers),
      );
      return { status: response.status, body: (await response.json()) as Json };
    }

    async function register(user: TestUser): Promise<string> {
      const r = await call(user, 'POST', '/api/register?endpoint=register-user', {
        id: user.id,
        email: user.email,
        firstName: 'A',
      });
      return r.body.data.workspace.id as string;
    }

    const push = (user: TestUser, clientId: string, mutations: Json[]) =>
      call(user, 'POST', '/api/sync?endpoint=push', { clientId, mutations });

    async function pullAll(user: TestUser, workspaceId: string, cursor?: string, limit = 1000) {
      const changes: Json[] = [];
      let next = cursor;
      for (let page = 0; page < 100; page += 1) {
        const query = new URLSearchParams({
          endpoint: 'pull',
          workspaceId,
          limit: String(limit),
          ...(next ? { cursor: next } : {}),
        });
        const r = await call(user, 'GET', `/api/sync?${query.toString()}`);
        expect(r.status).toBe(200);
        if (r.body.reset) return { reset: true as const, changes, cursor: next };
        changes.push(...(r.body.changes as Json[]));
        next = r.body.cursor as string;
        if (!r.body.hasMore) return { reset: false as const, changes, cursor: next };
      }
      throw new Error('pull did not finish');
    }

    const createClientMutation = (
      workspaceId: string,
      clientSeq: number,
      name: string,
      id = randomUUID(),
    ) => ({
      mutationId: randomUUID(),
      clientSeq,
      resource: 'client',
      operation: 'create-client',
      body: { id, workspaceId, name },
    });

    beforeAll(async () => {
      tokens = await createTestTokens();
      t = await createTestApp({ verifyAccessToken: tokens.verifyAccessToken, ...options });
      ada = newTestUser('ada');
      bob = newTestUser('bob');
      adaWs = await register(ada);
      bobWs = await register(bob);
    });
    afterAll(async () => {
      await t.cleanup();
    });

    it('applies a pushed batch in order, exactly once however often it is sent', async () => {
      const device = `device-${randomUUID()}`;
      const clientId = randomUUID();
      const projectId = randomUUID();
      const batch = [
        createClientMutation(adaWs, 1, 'Acme', clientId),
        {
          mutationId: randomUUID(),
          clientSeq: 2,
          resource: 'project',
          operation: 'create-project',
          body: { id: projectId, workspaceId: adaWs, clientId, name: 'Website' },
        },
        {
          mutationId: randomUUID(),
          clientSeq: 3,
          resource: 'client',
          operation: 'update-client',
          query: { id: clientId },
          body: { name: 'Acme Ltd' },
        },
      ];
      const first = await push(ada, device, batch);
      expect(first.status).toBe(200);
      expect(first.body.results.map((r: Json) => r.status)).toEqual([200, 200, 200]);
      expect(first.body.results[2].body.client.name).toBe('Acme Ltd');
      const seqs = first.body.results.map((r: Json) => r.seq as number);
      expect(seqs[0]).toBeLessThan(seqs[1]);
      expect(seqs[1]).toBeLessThan(seqs[2]);

      // The tab closed after sending and before the answer: the whole batch comes again.
      const again = await push(ada, device, batch);
      expect(again.body.results).toEqual(first.body.results);
      const clients = await t.db.query('SELECT name FROM client WHERE id = $1', [clientId]);
      expect(clients.rows).toEqual([{ name: 'Acme Ltd' }]);
      const log = await t.db.query(
        'SELECT count(*)::int AS n FROM change_log WHERE entity_id = ANY($1::uuid[])',
        [[clientId, projectId]],
      );
      expect(log.rows).toEqual([{ n: 3 }]);
    });

    it('applies concurrent pushes of one mutation once', async () => {
      const device = `device-${randomUUID()}`;
      const mutation = createClientMutation(adaWs, 1, 'Twice');
      const [a, b] = await Promise.all([
        push(ada, device, [mutation]),
        push(ada, device, [mutation]),
      ]);
      expect(a.body.results[0]).toEqual(b.body.results[0]);
      const { rows } = await t.db.query("SELECT id FROM client WHERE name = 'Twice'");
      expect(rows).toHaveLength(1);
    });

    it('records permanent rejections and goes on with the rest of the batch', async () => {
      const device = `device-${randomUUID()}`;
      const batch = [
        createClientMutation(bobWs, 1, 'Not yours'),
        {
          mutationId: randomUUID(),
          clientSeq: 2,
          resource: 'client',
          operation: 'create-client',
          body: { id: randomUUID(), workspaceId: adaWs, name: '' },
        },
        {
          mutationId: randomUUID(),
          clientSeq: 3,
          resource: 'invoice',
          operation: 'create-invoice',
          body: {},
        },
        {
          mutationId: randomUUID(),
          clientSeq: 4,
          resource: 'client',
          operation: 'get-clients',
          query: { workspaceId: adaWs },
        },
        createClientMutation(adaWs, 5, 'After the failures'),
      ];
      const result = await push(ada, device, batch);
      expect(result.body.results.map((r: Json) => [r.status, r.body.error?.code ?? 'ok'])).toEqual([
        [403, 'FORBIDDEN'],
        [400, 'VALIDATION_FAILED'],
        [404, 'UNKNOWN_ENDPOINT'],
        [400, 'VALIDATION_FAILED'],
        [200, 'ok'],
      ]);
      expect(result.body.results[1].body.error.details).toEqual([
        expect.objectContaining({ path: 'body.name' }),
      ]);
      // Rejections are stored: the replay answers the same without running anything again.
      const replay = await push(ada, device, batch);
      expect(replay.body.results.map((r: Json) => r.status)).toEqual([403, 400, 404, 400, 200]);
      expect(
        (await t.db.query('SELECT 1 FROM client WHERE workspace_id = $1', [bobWs])).rows,
      ).toEqual([]);
    });

    it('refuses a reused mutation id with another payload, and a device id of another user', async () => {
      const device = `device-${randomUUID()}`;
      const mutation = createClientMutation(adaWs, 1, 'Original');
      await push(ada, device, [mutation]);
      const reused = await push(ada, device, [
        { ...mutation, body: { ...mutation.body, name: 'Changed' } },
      ]);
      expect(reused.body.results[0]).toMatchObject({
        status: 422,
        body: { error: { code: 'IDEMPOTENCY_KEY_REUSED' } },
      });

      const stolen = await push(bob, device, [createClientMutation(bobWs, 2, 'Via stolen device')]);
      expect(stolen.status).toBe(403);
      expect(
        (await t.db.query("SELECT 1 FROM client WHERE name = 'Via stolen device'")).rows,
      ).toEqual([]);
    });

    it('rejects malformed pushes whole, applying nothing', async () => {
      const device = `device-${randomUUID()}`;
      const tooMany = Array.from({ length: 101 }, (_, i) =>
        createClientMutation(adaWs, i + 1, `Bulk ${i}`),
      );
      const cases: [unknown, string][] = [
        [{ clientId: device, mutations: tooMany }, 'body.mutations'],
        [{ clientId: device, mutations: [] }, 'body.mutations'],
        [
          { clientId: 'x', mutations: [createClientMutation(adaWs, 1, 'Short device')] },
          'body.clientId',
        ],
        [
          {
            clientId: device,
            mutations: [{ ...createClientMutation(adaWs, 1, 'Bad id'), mutationId: 'nope' }],
          },
          'body.mutations.0.mutationId',
        ],
        [
          { clientId: device, mutations: [{ ...createClientMutation(adaWs, 0, 'Bad seq') }] },
          'body.mutations.0.clientSeq',
        ],
      ];
      for (const [body, path] of cases) {
        const r = await call(ada, 'POST', '/api/sync?endpoint=push', body);
        expect(r.status, path).toBe(400);
        expect(
          r.body.error.details.map((d: Json) => d.path),
          path,
        ).toContain(path);
      }
      expect(
        (
          await t.db.query(
            "SELECT 1 FROM client WHERE name LIKE 'Bulk %' OR name IN ('Short device', 'Bad id', 'Bad seq')",
          )
        ).rows,
      ).toEqual([]);
    });

    it('never overwrites an id that exists in another workspace', async () => {
      const id = randomUUID();
      expect(
        (
          await call(bob, 'POST', '/api/client?endpoint=create-client', {
            id,
            workspaceId: bobWs,
            name: "Bob's",
          })
        ).status,
      ).toBe(200);
      const clash = await call(ada, 'POST', '/api/client?endpoint=create-client', {
        id,
        workspaceId: adaWs,
        name: 'Mine now',
      });
      expect(clash.status).toBe(409);
      expect(
        (await t.db.query('SELECT workspace_id, name FROM client WHERE id = $1', [id])).rows,
      ).toEqual([{ workspace_id: bobWs, name: "Bob's" }]);
    });

    it('refuses to delete a client with projects unless cascade=true', async () => {
      const clientId = randomUUID();
      const projectId = randomUUID();
      await call(ada, 'POST', '/api/client?endpoint=create-client', {
        id: clientId,
        workspaceId: adaWs,
        name: 'Cascade Co',
      });
      await call(ada, 'POST', '/api/project?endpoint=create-project', {
        id: projectId,
        workspaceId: adaWs,
        clientId,
        name: 'P',
        startDate: '2026-01-01',
        dueDate: '2026-02-01',
        budget: '1500.50',
      });
      const refused = await call(
        ada,
        'DELETE',
        `/api/client?endpoint=delete-client&id=${clientId}`,
      );
      expect(refused.status).toBe(409);
      expect(refused.body.error.details).toEqual({ projectCount: 1 });
      const badDates = await call(
        ada,
        'PATCH',
        `/api/project?endpoint=update-project&id=${projectId}`,
        { dueDate: '2025-12-31' },
      );
      expect(badDates.status).toBe(400);
      const project = await call(ada, 'GET', `/api/project?endpoint=get-project&id=${projectId}`);
      expect(project.body.project).toMatchObject({
        budget: '1500.50',
        startDate: '2026-01-01',
        dueDate: '2026-02-01',
      });
      const done = await call(
        ada,
        'DELETE',
        `/api/client?endpoint=delete-client&id=${clientId}&cascade=true`,
      );
      expect(done.body).toEqual({ deleted: true, id: clientId });
      expect((await t.db.query('SELECT 1 FROM project WHERE id = $1', [projectId])).rows).toEqual(
        [],
      );
    });

    it('pulls a snapshot in pages, then only what changed, including deletions', async () => {
      const carol = newTestUser('carol');
      const ws = await register(carol);
      const ids = Array.from({ length: 5 }, () => randomUUID());
      for (const [i, id] of ids.entries()) {
        await call(carol, 'POST', '/api/client?endpoint=create-client', {
          id,
          workspaceId: ws,
          name: `Client ${i}`,
        });
      }
      const snapshot = await pullAll(carol, ws, undefined, 2);
      expect(snapshot.reset).toBe(false);
      expect(
        snapshot.changes
          .filter((c) => c.table === 'clients')
          .map((c) => c.id)
          .sort(),
      ).toEqual([...ids].sort());
      expect(snapshot.changes.filter((c) => c.table === 'workspaces').map((c) => c.id)).toEqual([
        ws,
      ]);
      expect(snapshot.changes[1]?.row).toMatchObject({ workspaceId: ws });

      const nothing = await pullAll(carol, ws, snapshot.cursor);
      expect(nothing.changes).toEqual([]);

      await call(carol, 'PATCH', `/api/client?endpoint=update-client&id=${ids[0]}`, {
        name: 'Renamed',
        tags: ['vip'],
      });
      await call(carol, 'PATCH', `/api/client?endpoint=update-client&id=${ids[0]}`, {
        status: 'lead',
      });
      await call(carol, 'DELETE', `/api/client?endpoint=delete-client&id=${ids[1]}`);
      const delta = await pullAll(carol, ws, nothing.cursor);
      expect(delta.changes.map((c) => [c.op, c.id])).toEqual([
        ['upsert', ids[0]],
        ['delete', ids[1]],
      ]);
      expect(delta.changes[0]?.row).toMatchObject({
        name: 'Renamed',
        tags: ['vip'],
        status: 'lead',
      });
      expect(delta.changes[0]?.seq).toBeLessThan(delta.changes[1]?.seq);
    });

    it('answers garbage cursors with 400, and stale or future cursors with reset', async () => {
      for (const cursor of ['garbage', Buffer.from('{"v":2}').toString('base64url')]) {
        const r = await call(
          ada,
          'GET',
          `/api/sync?endpoint=pull&workspaceId=${adaWs}&cursor=${cursor}`,
        );
        expect(r.status).toBe(400);
        expect(r.body.error.details).toEqual([expect.objectContaining({ path: 'query.cursor' })]);
      }
      const future = Buffer.from(JSON.stringify({ v: 1, p: 'log', seq: 10_000_000 })).toString(
        'base64url',
      );
      expect(
        (await call(ada, 'GET', `/api/sync?endpoint=pull&workspaceId=${adaWs}&cursor=${future}`))
          .body,
      ).toEqual({ reset: true });

      await t.db.query('INSERT INTO change_log_floor (workspace_id, min_seq) VALUES ($1, 3)', [
        adaWs,
      ]);
      const stale = Buffer.from(JSON.stringify({ v: 1, p: 'log', seq: 1 })).toString('base64url');
      expect(
        (await call(ada, 'GET', `/api/sync?endpoint=pull&workspaceId=${adaWs}&cursor=${stale}`))
          .body,
      ).toEqual({ reset: true });
      await t.db.query('DELETE FROM change_log_floor WHERE workspace_id = $1', [adaWs]);
    });

    it('tells a removed member to drop the workspace, with no data', async () => {
      const dave = newTestUser('dave');
      await register(dave);
      await t.db.query(
        "INSERT INTO workspace_member (workspace_id, user_id, role) VALUES ($1, $2, 'member')",
        [adaWs, dave.id],
      );
      const before = await pullAll(dave, adaWs);
      expect(before.changes.some((c) => c.table === 'clients')).toBe(true);
      await t.db.query('DELETE FROM workspace_member WHERE workspace_id = $1 AND user_id = $2', [
        adaWs,
        dave.id,
      ]);
      const after = await pullAll(dave, adaWs, before.cursor);
      expect(after.changes).toEqual([
        { table: 'workspaces', id: adaWs, op: 'scope_remove', seq: expect.any(Number) },
      ]);
    });
  });
}
