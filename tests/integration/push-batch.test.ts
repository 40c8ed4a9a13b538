// A push batch's fast path (server/sync/batch-writes.ts): consecutive creates written several
// rows a statement, parents remembered for the batch, outputs completed after the writes. These
// check that it changes nothing a device can see: each mutation's own result and row, children
// right after their parents, a taken id a conflict of that mutation only, everything once.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Queryable } from '../../server/db/database.ts';
import { createTestApp, jsonRequest, type TestApp } from '../fixtures/create-test-app.ts';
import { postgresTestUrl } from '../fixtures/scratch-postgres.ts';
import { bearer, createTestTokens, newTestUser, type TestUser } from '../fixtures/test-tokens.ts';

type Json = Record<string, any>;

function describePushBatch(label: string, options: { postgresUrl?: string }) {
  describe(`push batch on ${label}`, () => {
    let t: TestApp;
    let tokens: Awaited<ReturnType<typeof createTestTokens>>;
    let ada: TestUser;
    let bob: TestUser;
    let adaWs: string;
    let bobWs: string;
    /** Statements run inside transactions, while `counting` (one push at a time). */
    const statements: string[] = [];
    let counting = false;

    async function call(user: TestUser, method: string, url: string, body?: unknown) {
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

    let seq = 0;
    const mutation = (resource: string, operation: string, body: Json, query?: Json) => ({
      mutationId: randomUUID(),
      clientSeq: (seq += 1),
      resource,
      operation,
      ...(query ? { query } : {}),
      body,
    });
    const createClient = (workspaceId: string, name: string, id: string = randomUUID()) =>
      mutation('client', 'create-client', { id, workspaceId, name });
    const createClientNote = (
      workspaceId: string,
      clientId: string,
      title: string,
      id: string = randomUUID(),
    ) => mutation('client-note', 'create-client-note', { id, workspaceId, clientId, title });

    const push = (user: TestUser, clientId: string, mutations: Json[]) =>
      call(user, 'POST', '/api/sync?endpoint=push', { clientId, mutations });

    const count = async (sql: string, params: unknown[]) =>
      (await t.db.query<{ n: number }>(sql, params)).rows[0]?.n;

    beforeAll(async () => {
      tokens = await createTestTokens();
      t = await createTestApp({ verifyAccessToken: tokens.verifyAccessToken, ...options });
      // Every statement of the server's transactions, to see how a batch was written.
      const transaction = t.db.transaction.bind(t.db);
      (t.db as { transaction: unknown }).transaction = <T>(fn: (tx: Queryable) => Promise<T>) =>
        transaction((tx) =>
          fn({
            query(sql, params) {
              if (counting) statements.push(sql);
              return tx.query(sql, params);
            },
          }),
        );
      ada = newTestUser('ada');
      bob = newTestUser('bob');
      adaWs = await register(ada);
      bobWs = await register(bob);
    });
    afterAll(async () => {
      await t.cleanup();
    });

    it('applies creates of several entities, each child right after its parent, once', async () => {
      const device = `device-${randomUUID()}`;
      const [c1, c2, p1, k1, t1, n1] = [1, 2, 3, 4, 5, 6].map(() => randomUUID()) as string[];
      const batch = [
        createClient(adaWs, 'Acme', c1),
        createClientNote(adaWs, c1!, 'Kick-off'),
        mutation('project', 'create-project', {
          id: p1,
          workspaceId: adaWs,
          clientId: c1,
          name: 'Website',
        }),
        mutation('kanban', 'create-kanban-column', {
          id: k1,
          workspaceId: adaWs,
          projectId: p1,
          name: 'To do',
          position: 'a0',
        }),
        // Its column is checked by a read (task hooks): the column queued above must be there.
        mutation('task', 'create-task', {
          id: t1,
          workspaceId: adaWs,
          projectId: p1,
          columnId: k1,
          title: 'Wireframes',
          position: 'a0',
          labels: ['design'],
        }),
        mutation('notes', 'create-note', {
          id: n1,
          workspaceId: adaWs,
          projectId: p1,
          title: 'Brief',
        }),
        createClient(adaWs, 'Globex', c2),
        createClientNote(adaWs, c2!, 'Intro'),
        createClientNote(adaWs, c1!, 'Follow-up'),
      ];
      statements.length = 0;
      counting = true;
      const first = await push(ada, device, batch);
      counting = false;
      expect(first.status).toBe(200);
      const results = first.body.results as Json[];
      expect(results.map((r) => r.status)).toEqual(batch.map(() => 200));
      // Applied by the fast path (the careful one would hide a fault of it behind its savepoints).
      expect(statements.some((sql) => sql.startsWith('SAVEPOINT'))).toBe(false);
      expect(results.map((r) => r.mutationId)).toEqual(batch.map((m) => m.mutationId));

      // Each result is its own mutation's row, exactly as the server now holds it.
      const gets = [
        ['client', 'get-client', 'client'],
        ['client-note', 'get-client-note', 'clientNote'],
        ['project', 'get-project', 'project'],
        ['kanban', 'get-kanban-column', 'kanbanColumn'],
        ['task', 'get-task', 'task'],
        ['notes', 'get-note', 'note'],
        ['client', 'get-client', 'client'],
        ['client-note', 'get-client-note', 'clientNote'],
        ['client-note', 'get-client-note', 'clientNote'],
      ] as const;
      for (const [index, [resource, operation, key]] of gets.entries()) {
        const id = String(batch[index]?.body.id);
        const stored = await call(ada, 'GET', `/api/${resource}?endpoint=${operation}&id=${id}`);
        expect(stored.status).toBe(200);
        expect(results[index]?.body[key]).toEqual(stored.body[key]);
        expect(results[index]?.body[key].id).toBe(id);
        // A row's version is the change-log sequence its result names.
        expect(results[index]?.body[key].version).toBe(results[index]?.seq);
      }
      const seqs = results.map((r) => r.seq as number);
      expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
      expect(new Set(seqs).size).toBe(seqs.length);

      // Project-scoped creates have their activity line, with their seq, in the same commit.
      const activity = await t.db.query<{ entity_id: string; seq: string; op: string }>(
        'SELECT entity_id, seq, op FROM project_activity WHERE project_id = $1 ORDER BY seq',
        [p1],
      );
      expect(activity.rows.map((row) => [row.entity_id, Number(row.seq), row.op])).toEqual([
        [p1, seqs[2], 'create'],
        [k1, seqs[3], 'create'],
        [t1, seqs[4], 'create'],
        [n1, seqs[5], 'create'],
      ]);

      // Sent again (the answer was lost): the same results, nothing applied twice.
      const again = await push(ada, device, batch);
      expect(again.body.results).toEqual(results);
      const ids = batch.map((m) => String(m.body.id));
      expect(
        await count('SELECT count(*)::int AS n FROM change_log WHERE entity_id = ANY($1::uuid[])', [
          ids,
        ]),
      ).toBe(batch.length);
      expect(
        await count(
          'SELECT count(*)::int AS n FROM client_note WHERE client_id = ANY($1::uuid[])',
          [[c1, c2]],
        ),
      ).toBe(3);
    });

    it('makes a taken id in the middle of a mixed batch that mutation’s conflict only', async () => {
      const device = `device-${randomUUID()}`;
      const earlier = randomUUID();
      expect((await push(ada, device, [createClient(adaWs, 'Earlier', earlier)])).status).toBe(200);
      const [a, b, c, x, y] = [1, 2, 3, 4, 5].map(() => randomUUID()) as string[];
      const batch = [
        createClient(adaWs, 'A', a),
        createClient(adaWs, 'B', b),
        createClientNote(adaWs, a!, 'X', x),
        createClient(adaWs, 'A again', a), // taken earlier in this batch
        createClientNote(adaWs, b!, 'X again', x),
        createClient(adaWs, 'Earlier again', earlier), // taken by an earlier push
        createClient(adaWs, 'C', c),
        createClientNote(adaWs, c!, 'Y', y),
      ];
      const first = await push(ada, device, batch);
      expect(first.status).toBe(200);
      const results = first.body.results as Json[];
      expect(results.map((r) => r.status)).toEqual([200, 200, 200, 409, 409, 409, 200, 200]);
      expect(results[3]?.body.error.code).toBe('CONFLICT');
      expect(results[4]?.seq).toBeNull();
      expect(results[6]?.body.client.name).toBe('C');
      expect(results[7]?.body.clientNote.title).toBe('Y');

      const names = await t.db.query<{ id: string; name: string }>(
        'SELECT id, name FROM client WHERE id = ANY($1::uuid[]) ORDER BY name',
        [[a, b, c, earlier]],
      );
      expect(names.rows).toEqual([
        { id: a, name: 'A' },
        { id: b, name: 'B' },
        { id: c, name: 'C' },
        { id: earlier, name: 'Earlier' },
      ]);
      const notes = await t.db.query('SELECT id, client_id, title FROM client_note WHERE id = $1', [
        x,
      ]);
      expect(notes.rows).toEqual([{ id: x, client_id: a, title: 'X' }]);
      // One change each for what applied, none for the conflicts; every outcome recorded once.
      expect(
        await count('SELECT count(*)::int AS n FROM change_log WHERE entity_id = ANY($1::uuid[])', [
          [a, b, c, x, y],
        ]),
      ).toBe(5);
      expect(
        await count(
          'SELECT count(*)::int AS n FROM sync_mutation WHERE mutation_id = ANY($1::uuid[])',
          [batch.map((m) => m.mutationId)],
        ),
      ).toBe(batch.length);

      const again = await push(ada, device, batch);
      expect(again.body.results).toEqual(results);
      expect(
        await count('SELECT count(*)::int AS n FROM client WHERE id = ANY($1::uuid[])', [
          [a, b, c],
        ]),
      ).toBe(3);
    });

    it('makes the second of two consecutive creates with one id a conflict', async () => {
      const id = randomUUID();
      const batch = [
        createClient(adaWs, 'First', id),
        createClient(adaWs, 'Second', id),
        createClient(adaWs, 'Third'),
      ];
      const r = await push(ada, `device-${randomUUID()}`, batch);
      expect(r.body.results.map((x: Json) => x.status)).toEqual([200, 409, 200]);
      const rows = await t.db.query('SELECT name FROM client WHERE id = $1', [id]);
      expect(rows.rows).toEqual([{ name: 'First' }]);
    });

    it('writes a run of creates of one entity in one statement', async () => {
      const batch = Array.from({ length: 30 }, (_, i) => createClient(adaWs, `Run ${i}`));
      statements.length = 0;
      counting = true;
      const r = await push(ada, `device-${randomUUID()}`, batch);
      counting = false;
      expect(r.body.results.map((x: Json) => x.status)).toEqual(batch.map(() => 200));
      expect(statements.filter((sql) => sql.startsWith('INSERT INTO client ')).length).toBe(1);
      expect(statements.some((sql) => sql.startsWith('SAVEPOINT'))).toBe(false);
      for (const [index, result] of (r.body.results as Json[]).entries()) {
        expect(result.body.client.name).toBe(`Run ${index}`);
        expect(result.body.client.id).toBe(batch[index]?.body.id);
      }
    });

    it('checks a parent once per batch and writes its children in one statement', async () => {
      const parent = randomUUID();
      expect(
        (await push(ada, `device-${randomUUID()}`, [createClient(adaWs, 'P', parent)])).status,
      ).toBe(200);
      const batch = Array.from({ length: 20 }, (_, i) =>
        createClientNote(adaWs, parent, `Note ${i}`),
      );
      statements.length = 0;
      counting = true;
      const r = await push(ada, `device-${randomUUID()}`, batch);
      counting = false;
      expect(r.body.results.map((x: Json) => x.status)).toEqual(batch.map(() => 200));
      expect(statements.filter((sql) => sql.startsWith('SELECT 1 FROM client ')).length).toBe(1);
      expect(statements.filter((sql) => sql.startsWith('INSERT INTO client_note ')).length).toBe(1);
      expect(statements.some((sql) => sql.startsWith('SAVEPOINT'))).toBe(false);
      expect((r.body.results as Json[]).map((x) => x.body.clientNote.title)).toEqual(
        batch.map((m) => m.body.title),
      );
    });

    it('still checks every parent and workspace in a batch', async () => {
      const device = `device-${randomUUID()}`;
      const gone = randomUUID();
      const bobClient = randomUUID();
      expect(
        (await push(bob, `device-${randomUUID()}`, [createClient(bobWs, 'Bob’s', bobClient)]))
          .status,
      ).toBe(200);
      const batch = [
        createClient(adaWs, 'Soon gone', gone),
        mutation('client', 'delete-client', {}, { id: gone }),
        // Its parent was created in this batch, then deleted in it.
        createClientNote(adaWs, gone, 'Orphan'),
        // A parent in another workspace is no parent.
        createClientNote(adaWs, bobClient, 'Elsewhere'),
        // A workspace the user is not a member of.
        createClient(bobWs, 'Intruder'),
        createClientNote(adaWs, randomUUID(), 'Nobody'),
        createClient(adaWs, 'Fine'),
      ];
      // delete-client has no body: the device sends none.
      delete (batch[1] as Json).body;
      const r = await push(ada, device, batch);
      expect(r.status).toBe(200);
      expect(r.body.results.map((x: Json) => x.status)).toEqual([
        200, 200, 422, 422, 403, 422, 200,
      ]);
      expect(
        await count('SELECT count(*)::int AS n FROM client WHERE workspace_id = $1 AND name = $2', [
          bobWs,
          'Intruder',
        ]),
      ).toBe(0);
    });
  });
}

describePushBatch('PGlite', {});
if (postgresTestUrl) describePushBatch('PostgreSQL', { postgresUrl: postgresTestUrl });
