// Contract-wide: every operation that needs a user rejects missing, malformed, expired,
// wrong-audience and foreign-signed tokens; no workspace-scoped operation answers a non-member.
// Driven by the registry, so operations added later are covered without touching this file.
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

type Tokens = Awaited<ReturnType<typeof createTestTokens>>;

function requestFor(
  def: (typeof endpointRegistry)[number],
  ids: { workspaceId: string; userId: string },
  headers: Record<string, string>,
) {
  const sample = sampleInputs[endpointKey(def) as keyof SampleInputs];
  // Each request gets its own fresh ids, so no two calls share a mutation or entity id.
  const fresh = crypto.randomUUID();
  const fill = (value: string) =>
    value
      .replaceAll(WORKSPACE_ID, ids.workspaceId)
      .replaceAll(USER_ID, ids.userId)
      .replaceAll(NEW_ID, fresh);
  const params = new URLSearchParams({ endpoint: def.operation });
  for (const [key, value] of Object.entries(sample.query)) params.set(key, fill(value));
  const url = `/api/${def.resource}?${params.toString()}`;
  if (!('body' in sample) || sample.body === undefined)
    return { url, init: { method: def.method, headers } };
  const body = JSON.parse(fill(JSON.stringify(sample.body))) as unknown;
  return { url, init: jsonRequest(def.method, body, headers) };
}

describe('API identity across the whole contract', () => {
  let t: TestApp;
  let tokens: Tokens;
  let owner: TestUser;
  let stranger: TestUser;
  let ownerWorkspace: string;

  beforeAll(async () => {
    tokens = await createTestTokens();
    t = await createTestApp({ verifyAccessToken: tokens.verifyAccessToken });
    owner = newTestUser('owner');
    stranger = newTestUser('stranger');
    for (const user of [owner, stranger]) {
      const response = await t.app.request(
        '/api/register?endpoint=register-user',
        jsonRequest(
          'POST',
          { id: user.id, email: user.email, firstName: 'A', lastName: 'B' },
          bearer(await tokens.sign(user)),
        ),
      );
      expect(response.status).toBe(200);
      if (user === owner)
        ownerWorkspace = ((await response.json()) as { data: { workspace: { id: string } } }).data
          .workspace.id;
    }
  });
  afterAll(async () => {
    await t.cleanup();
  });

  const userEndpoints = endpointRegistry.filter((def) => def.auth === 'user');

  it('covers every operation with a sample input', () => {
    expect(Object.keys(sampleInputs).sort()).toEqual(endpointRegistry.map(endpointKey).sort());
    expect(userEndpoints.length).toBeGreaterThan(0);
  });

  for (const def of userEndpoints) {
    it(`${endpointKey(def)} rejects missing and bad tokens with 401`, async () => {
      const ids = { workspaceId: ownerWorkspace, userId: owner.id };
      const cases: [string, Record<string, string>, RegExp][] = [
        ['no token', {}, /sign in/i],
        ['not a bearer header', { Authorization: 'Basic abc' }, /Bearer/],
        ['garbage', bearer('not.a.jwt'), /Invalid JWT/],
        ['expired', bearer(await tokens.sign(owner, { expiresInSeconds: -60 })), /expired/i],
        ['wrong audience', bearer(await tokens.sign(owner, { audience: 'anon' })), /Invalid JWT/],
        [
          'foreign signer',
          bearer(await tokens.sign(owner, { key: tokens.foreignKey })),
          /^Invalid JWT signature$/,
        ],
      ];
      for (const [label, headers, message] of cases) {
        const { url, init } = requestFor(def, ids, headers);
        const response = await t.app.request(url, init);
        expect(response.status, label).toBe(401);
        const body = (await response.json()) as { error: { code: string; message: string } };
        expect(body.error.code, label).toBe('UNAUTHORIZED');
        expect(body.error.message, label).toMatch(message);
      }
    });
  }

  // Every operation whose input names a workspace, in the query or in the body.
  const workspaceScoped = userEndpoints.filter((def) =>
    JSON.stringify(sampleInputs[endpointKey(def) as keyof SampleInputs]).includes(WORKSPACE_ID),
  );

  it('finds the workspace-scoped operations', () => {
    expect(workspaceScoped.length).toBeGreaterThanOrEqual(8);
  });

  /**
   * The refusal as the caller sees it. Direct calls answer 403; sync push answers 200 with the
   * mutation's stored 403; sync pull answers with a scope_remove of the workspace and nothing else.
   */
  async function refusal(def: (typeof endpointRegistry)[number], response: Response) {
    const text = await response.text();
    const body = JSON.parse(text) as Record<string, any>;
    if (endpointKey(def) === 'sync/push') {
      expect(response.status).toBe(200);
      expect(body.results.map((r: { status: number }) => r.status)).toEqual([403]);
      return { text, message: body.results[0].body.error.message as string };
    }
    if (endpointKey(def) === 'sync/pull') {
      expect(response.status).toBe(200);
      expect(body.changes.map((c: { op: string; row?: unknown }) => [c.op, c.row])).toEqual([
        ['scope_remove', undefined],
      ]);
      return { text, message: 'scope_remove' };
    }
    expect(response.status).toBe(403);
    return { text, message: body.error.message as string };
  }

  for (const def of workspaceScoped) {
    it(`${endpointKey(def)} refuses a non-member and leaks nothing`, async () => {
      const { url, init } = requestFor(
        def,
        { workspaceId: ownerWorkspace, userId: stranger.id },
        bearer(await tokens.sign(stranger)),
      );
      const seen = await refusal(def, await t.app.request(url, init));
      expect(seen.text).not.toContain(owner.email);
      expect(seen.text).not.toContain("A's workspace");

      // A workspace that does not exist gets the same answer: no probing for ids.
      const missing = requestFor(
        def,
        { workspaceId: crypto.randomUUID(), userId: stranger.id },
        bearer(await tokens.sign(stranger)),
      );
      const other = await refusal(def, await t.app.request(missing.url, missing.init));
      expect(other.message).toBe(seen.message);
    });
  }

  it('never changes the workspace through a refused call', async () => {
    const { rows } = await t.db.query<{ name: string }>(
      'SELECT name FROM workspace WHERE id = $1',
      [ownerWorkspace],
    );
    expect(rows[0]?.name).not.toBe('Taken over');
    const clients = await t.db.query('SELECT id FROM client WHERE workspace_id = $1', [
      ownerWorkspace,
    ]);
    expect(clients.rows).toEqual([]);
  });
});
