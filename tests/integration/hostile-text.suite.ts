// Every text field of the contract, found by walking its schemas, sent with NUL, a lone
// surrogate, a 100 KB string and a right-to-left override: directly, and through push ahead of a
// valid mutation. Nothing may answer 5xx, and no push may stop early (a stuck outbox).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpointKey, endpointRegistry } from '../../contract/endpoint-registry.ts';
import { createTestApp, jsonRequest, type TestApp } from '../fixtures/create-test-app.ts';
import {
  NEW_ID,
  sampleInputs,
  USER_ID,
  WORKSPACE_ID,
  type SampleInputs,
} from '../fixtures/sample-inputs.ts';
import { bearer, createTestTokens, newTestUser, type TestUser } from '../fixtures/test-tokens.ts';
import { textFields } from '../fixtures/text-fields.ts';

type Json = Record<string, any>;

export const HOSTILE_TEXT: Record<string, string> = {
  nul: 'a\u0000b',
  'lone surrogate': 'a\uD800b\uDC00c',
  '100 KB': 'x'.repeat(100_000),
  'right-to-left override': '\u202Egnp.exe',
  'C1 and DEL': 'a\u0085b\u007Fc\u001Bd',
};

export function describeHostileText(label: string, options: { postgresUrl?: string }) {
  describe(`hostile text on ${label}`, () => {
    let t: TestApp;
    let tokens: Awaited<ReturnType<typeof createTestTokens>>;
    let user: TestUser;
    let workspaceId: string;
    let clientId: string;
    let projectId: string;
    let seq = 0;

    async function call(method: string, url: string, body?: unknown) {
      const headers = bearer(await tokens.sign(user));
      const response = await t.app.request(
        url,
        body === undefined ? { method, headers } : jsonRequest(method, body, headers),
      );
      const text = await response.text();
      return { status: response.status, body: (text ? JSON.parse(text) : null) as Json };
    }

    /** The sample input with real ids: existing entities for reads and updates, fresh for creates. */
    function sample(def: (typeof endpointRegistry)[number]) {
      const input = sampleInputs[endpointKey(def) as keyof SampleInputs];
      const existing = def.resource === 'project' ? projectId : clientId;
      const entityId = def.operation.startsWith('create-') ? randomUUID() : existing;
      const fill = (value: string) =>
        value
          .replaceAll(WORKSPACE_ID, workspaceId)
          .replaceAll(USER_ID, user.id)
          .replaceAll(NEW_ID, entityId);
      const query = JSON.parse(fill(JSON.stringify(input.query))) as Json;
      const body =
        'body' in input && input.body !== undefined
          ? (JSON.parse(fill(JSON.stringify(input.body))) as Json)
          : undefined;
      // A project needs an existing client.
      // Finished, so the Free plan's allowance of active projects never refuses it.
      if (body && def.operation === 'create-project') {
        body.clientId = clientId;
        body.status = 'completed';
      }
      return { query, body };
    }

    function url(def: (typeof endpointRegistry)[number], query: Json) {
      const params = new URLSearchParams({ endpoint: def.operation });
      for (const [key, value] of Object.entries(query)) params.set(key, String(value));
      return `/api/${def.resource}?${params.toString()}`;
    }

    const validCreate = () => ({
      mutationId: randomUUID(),
      clientSeq: ++seq,
      resource: 'client',
      operation: 'create-client',
      body: { id: randomUUID(), workspaceId, name: 'Behind the bad one' },
    });

    beforeAll(async () => {
      tokens = await createTestTokens();
      t = await createTestApp({
        verifyAccessToken: tokens.verifyAccessToken,
        ...(options.postgresUrl ? { postgresUrl: options.postgresUrl } : {}),
      });
      user = newTestUser('hostile');
      const registered = await call('POST', '/api/register?endpoint=register-user', {
        id: user.id,
        email: user.email,
        firstName: 'Ada',
      });
      workspaceId = registered.body.data.workspace.id as string;
      clientId = randomUUID();
      projectId = randomUUID();
      expect(
        (
          await call('POST', '/api/client?endpoint=create-client', {
            id: clientId,
            workspaceId,
            name: 'Acme',
          })
        ).status,
      ).toBe(200);
      expect(
        (
          await call('POST', '/api/project?endpoint=create-project', {
            id: projectId,
            workspaceId,
            clientId,
            name: 'Site',
          })
        ).status,
      ).toBe(200);
    });
    afterAll(async () => {
      await t.cleanup();
    });

    // Public forms are rate-limited per address; their text fields are covered by the same
    // schemas, so they run with the other operations but a 429 counts as "not a 5xx" too.
    const operations = endpointRegistry.filter((def) => def.resource !== 'sync');

    it('finds the text fields of every operation', () => {
      const names = operations.flatMap((def) => [
        ...textFields(def.query).map((f) => `${endpointKey(def)} query.${f.path}`),
        ...textFields(def.body).map((f) => `${endpointKey(def)} body.${f.path}`),
      ]);
      expect(names).toContain('client/create-client body.name');
      expect(names).toContain('workspace/update-workspace-settings body.settings{key}');
      expect(names).toContain('user/update-user-profile body.firstName');
      expect(names.length).toBeGreaterThan(60);
    });

    for (const def of operations) {
      it(`${endpointKey(def)}: every text field, directly, never a 5xx`, async () => {
        const { query, body } = sample(def);
        const failures: string[] = [];
        for (const [kind, value] of Object.entries(HOSTILE_TEXT)) {
          for (const field of textFields(def.query)) {
            const r = await call(def.method, url(def, field.set(query, value)), body);
            if (r.status >= 500) failures.push(`query.${field.path} ${kind}: ${r.status}`);
          }
          for (const field of textFields(def.body)) {
            if (!body) continue;
            const fresh = sample(def);
            const r = await call(def.method, url(def, fresh.query), field.set(fresh.body!, value));
            if (r.status >= 500)
              failures.push(`body.${field.path} ${kind}: ${r.status} ${JSON.stringify(r.body)}`);
          }
        }
        expect(failures).toEqual([]);
      });
    }

    const pushable = operations.filter((def) => def.method !== 'GET' && def.auth === 'user');
    for (const def of pushable) {
      it(`${endpointKey(def)}: every text field through push, the mutation behind still applies`, async () => {
        const failures: string[] = [];
        const fields = [
          ...textFields(def.query).map((f) => ({ where: 'query' as const, f })),
          ...textFields(def.body).map((f) => ({ where: 'body' as const, f })),
        ];
        for (const [kind, value] of Object.entries(HOSTILE_TEXT)) {
          for (const { where, f } of fields) {
            const { query, body } = sample(def);
            const hostile = {
              mutationId: randomUUID(),
              clientSeq: ++seq,
              resource: def.resource,
              operation: def.operation,
              query: where === 'query' ? f.set(query, value) : query,
              ...(body ? { body: where === 'body' ? f.set(body, value) : body } : {}),
            };
            const behind = validCreate();
            const r = await call('POST', '/api/sync?endpoint=push', {
              clientId: 'hostile-text-device',
              mutations: [hostile, behind],
            });
            const results = (r.body?.results ?? []) as Json[];
            const applied = results.find((result) => result.mutationId === behind.mutationId);
            if (
              r.status !== 200 ||
              r.body.retryAfterSeconds !== undefined ||
              applied?.status !== 200
            )
              failures.push(
                `${where}.${f.path} ${kind}: ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`,
              );
          }
        }
        expect(failures).toEqual([]);
      });
    }

    it('a NUL in the push envelope (resource, operation, query) is that mutation’s rejection only', async () => {
      const hostile = [
        { resource: 'cli\u0000ent', operation: 'create-client' },
        { resource: 'client', operation: 'create\u0000-client' },
        { resource: 'client', operation: 'update-client', query: { 'i\u0000d': clientId } },
        { resource: 'client', operation: 'update-client', query: { id: `${clientId}\u0000` } },
      ];
      for (const envelope of hostile) {
        const behind = validCreate();
        const r = await call('POST', '/api/sync?endpoint=push', {
          clientId: 'hostile-text-device',
          mutations: [
            { mutationId: randomUUID(), clientSeq: ++seq, body: { name: 'x' }, ...envelope },
            behind,
          ],
        });
        expect(r.status).toBe(200);
        expect(r.body.retryAfterSeconds).toBeUndefined();
        const [first, second] = r.body.results as Json[];
        // Cleaned, an envelope may name a real operation again; either way, never a 5xx.
        expect(first!.status).toBeLessThan(500);
        expect(second).toMatchObject({ mutationId: behind.mutationId, status: 200 });
      }
    });

    it('stores cleaned text: the NUL is gone, the right-to-left text is kept', async () => {
      const id = randomUUID();
      const created = await call('POST', '/api/client?endpoint=create-client', {
        id,
        workspaceId,
        name: 'Ac\u0000me \u202Eltd',
        tags: ['a\u0000b'],
      });
      expect(created.status).toBe(200);
      const read = await call('GET', `/api/client?endpoint=get-client&id=${id}`);
      expect(read.body.client).toMatchObject({ name: 'Acme \u202Eltd', tags: ['ab'] });
      const settings = await call(
        'PATCH',
        `/api/workspace?endpoint=update-workspace-settings&workspaceId=${workspaceId}`,
        { settings: { 'theme\u0000': { nested: ['x\u0000y', 1, true, null] } } },
      );
      expect(settings.status).toBeLessThan(300);
      const after = await call(
        'GET',
        `/api/workspace?endpoint=get-workspace-settings&workspaceId=${workspaceId}`,
      );
      expect(JSON.stringify(after.body)).toContain('"theme":{"nested":["xy",1,true,null]}');
    });
  });
}
