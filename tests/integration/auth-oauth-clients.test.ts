/**
 * The OAuth client registry through supabase-js's `auth.admin.oauth` (GoTrue's
 * /admin/oauth/clients): register, list with paging, get, update, delete, regenerate the secret.
 * The secret is shown once and only its hash is stored; only an admin token reaches the registry;
 * the authorization endpoints a client would use are not offered and say so.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createAuthTestServer,
  SITE_URL,
  TEST_PASSWORD,
  type AuthTestServer,
} from '../fixtures/create-auth-test-server.ts';

let t: AuthTestServer;
let serviceKey: string;

beforeAll(async () => {
  t = await createAuthTestServer();
  serviceKey = await t.createServiceRoleKey();
});

afterAll(async () => {
  await t.cleanup();
});

const oauth = () => t.createKeyedClient(serviceKey).auth.admin.oauth;

async function raw(
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await t.fetch(`${SITE_URL}/auth/v1${path}`, {
    method,
    headers: { 'Content-Type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return {
    status: response.status,
    body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
  };
}

async function clientCount(): Promise<number> {
  const { rows } = await t.db.query<{ n: string }>(
    'SELECT count(*)::text AS n FROM auth_oauth_client',
  );
  return Number(rows[0]?.n);
}

const admin = () => ({ Authorization: `Bearer ${serviceKey}` });

describe('the registry', () => {
  it('registers a confidential client, shows the secret once and keeps only its hash', async () => {
    const { data, error } = await oauth().createClient({
      client_name: 'Reporting tool',
      client_uri: 'https://reports.example.com',
      redirect_uris: ['https://reports.example.com/callback', 'http://localhost:3000/cb'],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
    });
    expect(error).toBeNull();
    expect(data).toMatchObject({
      client_name: 'Reporting tool',
      client_uri: 'https://reports.example.com',
      client_type: 'confidential',
      token_endpoint_auth_method: 'client_secret_basic',
      registration_type: 'manual',
      redirect_uris: ['https://reports.example.com/callback', 'http://localhost:3000/cb'],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
    });
    const secret = data?.client_secret ?? '';
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const { rows } = await t.db.query<{ client_secret_hash: string }>(
      'SELECT client_secret_hash FROM auth_oauth_client WHERE id = $1',
      [data?.client_id],
    );
    expect(rows[0]?.client_secret_hash).toBe(createHash('sha256').update(secret).digest('hex'));
    expect(JSON.stringify(rows)).not.toContain(secret);

    const got = await oauth().getClient(data?.client_id ?? '');
    expect(got.error).toBeNull();
    expect(got.data?.client_id).toBe(data?.client_id);
    expect(got.data).not.toHaveProperty('client_secret');
  });

  it('answers 201 with defaults for the minimal registration', async () => {
    const answer = await raw('POST', '/admin/oauth/clients', admin(), {
      redirect_uris: ['myapp://callback'],
    });
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({
      client_type: 'confidential',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
    });
    expect(answer.body).not.toHaveProperty('client_name');
  });

  it('a public client (auth method none) has no secret and cannot get one', async () => {
    const { data, error } = await oauth().createClient({
      client_name: 'Desktop app',
      redirect_uris: ['http://127.0.0.1:8765/callback'],
      token_endpoint_auth_method: 'none',
    });
    expect(error).toBeNull();
    expect(data?.client_type).toBe('public');
    expect(data).not.toHaveProperty('client_secret');
    const regenerated = await oauth().regenerateClientSecret(data?.client_id ?? '');
    expect(regenerated.error?.status).toBe(400);
    expect(regenerated.error?.message).toBe('Cannot regenerate secret for public client');
  });

  it('updates only the fields sent; the type decides which auth methods fit', async () => {
    const { data } = await oauth().createClient({
      client_name: 'Before',
      redirect_uris: ['https://before.example.com/cb'],
    });
    const clientId = data?.client_id ?? '';
    const updated = await oauth().updateClient(clientId, {
      logo_uri: 'https://before.example.com/logo.png',
    });
    expect(updated.error).toBeNull();
    expect(updated.data).toMatchObject({
      client_name: 'Before',
      logo_uri: 'https://before.example.com/logo.png',
      redirect_uris: ['https://before.example.com/cb'],
    });
    const renamed = await oauth().updateClient(clientId, {
      client_name: 'After',
      token_endpoint_auth_method: 'client_secret_post',
    });
    expect(renamed.data).toMatchObject({
      client_name: 'After',
      token_endpoint_auth_method: 'client_secret_post',
    });
    const toPublic = await oauth().updateClient(clientId, { token_endpoint_auth_method: 'none' });
    expect(toPublic.error?.status).toBe(400);
    expect(toPublic.error?.message).toMatch(/not valid for client_type 'confidential'/);
    const nothing = await raw('PUT', `/admin/oauth/clients/${clientId}`, admin(), {});
    expect(nothing.status).toBe(400);
    expect(nothing.body.message).toBe('No fields provided for update');
    const noUris = await oauth().updateClient(clientId, { redirect_uris: [] });
    expect(noUris.error?.message).toBe('redirect_uris cannot be empty');
    expect((await oauth().getClient(clientId)).data?.client_name).toBe('After');
  });

  it('regenerating the secret replaces the stored hash', async () => {
    const { data } = await oauth().createClient({
      client_name: 'Rotating',
      redirect_uris: ['https://rotate.example.com/cb'],
    });
    const clientId = data?.client_id ?? '';
    const hashOf = async () =>
      (
        await t.db.query<{ h: string }>(
          'SELECT client_secret_hash AS h FROM auth_oauth_client WHERE id = $1',
          [clientId],
        )
      ).rows[0]?.h;
    const before = await hashOf();
    const regenerated = await oauth().regenerateClientSecret(clientId);
    expect(regenerated.error).toBeNull();
    const secret = regenerated.data?.client_secret ?? '';
    expect(secret).not.toBe(data?.client_secret);
    const after = await hashOf();
    expect(after).not.toBe(before);
    expect(after).toBe(createHash('sha256').update(secret).digest('hex'));
  });

  it('lists newest first, in pages with Link and X-Total-Count', async () => {
    for (const name of ['Page A', 'Page B', 'Page C']) {
      await oauth().createClient({ client_name: name, redirect_uris: ['https://p.example/cb'] });
    }
    const total = await clientCount();
    const all = await oauth().listClients();
    expect(all.error).toBeNull();
    expect(all.data.clients).toHaveLength(total);
    expect(all.data.clients[0]?.client_name).toBe('Page C');

    const first = await t.fetch(`${SITE_URL}/auth/v1/admin/oauth/clients?page=1&per_page=2`, {
      headers: admin(),
    });
    expect(first.headers.get('x-total-count')).toBe(String(total));
    expect(first.headers.get('link')).toContain(
      '</admin/oauth/clients?page=2&per_page=2>; rel="next"',
    );
    const page = (await first.json()) as { clients: { client_name?: string }[] };
    expect(page.clients.map((client) => client.client_name)).toEqual(['Page C', 'Page B']);

    const paged = await oauth().listClients({ page: 2, perPage: 2 });
    expect(paged.data.clients[0]?.client_name).toBe('Page A');
    const bad = await raw('GET', '/admin/oauth/clients?page=zero', admin());
    expect(bad.status).toBe(400);
  });

  it('deletes a client: 204, then it is gone', async () => {
    const { data } = await oauth().createClient({
      client_name: 'Short-lived',
      redirect_uris: ['https://gone.example.com/cb'],
    });
    const clientId = data?.client_id ?? '';
    const deleted = await raw('DELETE', `/admin/oauth/clients/${clientId}`, admin());
    expect(deleted.status).toBe(204);
    const again = await oauth().getClient(clientId);
    expect(again.data).toBeNull();
    expect(again.error?.status).toBe(404);
    expect((await oauth().deleteClient(clientId)).error?.status).toBe(404);
  });
});

describe('bad input changes nothing', () => {
  it.each([
    [{ client_name: 'No URIs', redirect_uris: [] }, 'redirect_uris is required'],
    [{ client_name: 'No URIs' }, 'redirect_uris is required'],
    [
      { redirect_uris: ['http://example.com/cb'] },
      "invalid redirect_uri 'http://example.com/cb': HTTP scheme only allowed for localhost",
    ],
    [
      { redirect_uris: ['javascript://x/alert(1)'] },
      "invalid redirect_uri 'javascript://x/alert(1)': scheme 'javascript' is not allowed for security reasons",
    ],
    [
      { redirect_uris: ['https://example.com/cb#frag'] },
      "invalid redirect_uri 'https://example.com/cb#frag': fragment not allowed in redirect URI",
    ],
    [{ redirect_uris: ['/relative'] }, "invalid redirect_uri '/relative': invalid URL format"],
    [
      { redirect_uris: Array.from({ length: 11 }, (_, i) => `https://e.example/${i}`) },
      'redirect_uris cannot exceed 10 items',
    ],
    [
      { redirect_uris: ['https://e.example/cb'], grant_types: ['password'] },
      "grant_types must only contain 'authorization_code' and/or 'refresh_token'",
    ],
    [
      {
        redirect_uris: ['https://e.example/cb'],
        client_type: 'public',
        token_endpoint_auth_method: 'client_secret_basic',
      },
      "client_type 'public' is inconsistent with token_endpoint_auth_method 'client_secret_basic' (expected client_type 'confidential')",
    ],
    [
      { redirect_uris: ['https://e.example/cb'], logo_uri: 'not a url' },
      'logo_uri must be a valid URL',
    ],
    [{ redirect_uris: 'https://e.example/cb' }, 'redirect_uris: Invalid type'],
  ])('%j: 400 %s', async (body, message) => {
    const before = await clientCount();
    const answer = await raw('POST', '/admin/oauth/clients', admin(), body);
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe('validation_failed');
    expect(String(answer.body.message)).toContain(message);
    expect(await clientCount()).toBe(before);
  });

  it('a client id that is not a UUID is 400; an unknown one 404 oauth_client_not_found', async () => {
    const notUuid = await raw('GET', '/admin/oauth/clients/abc', admin());
    expect(notUuid.status).toBe(400);
    expect(notUuid.body.message).toBe('invalid client_id format');
    const unknown = await raw(
      'PUT',
      '/admin/oauth/clients/00000000-0000-0000-0000-000000000000',
      admin(),
      { client_name: 'x' },
    );
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('oauth_client_not_found');
  });
});

describe('who may', () => {
  it('the anon key, a user token or no token: refused before anything is read', async () => {
    const before = await clientCount();
    const body = { client_name: 'Sneaky', redirect_uris: ['https://sneaky.example/cb'] };
    const anon = await raw(
      'POST',
      '/admin/oauth/clients',
      { apikey: t.anonKey, Authorization: `Bearer ${t.anonKey}` },
      body,
    );
    expect(anon.status).toBe(403);
    expect(anon.body.code).toBe('not_admin');
    await t.registerUser('oauth-user@example.com');
    const { data } = await t.createClient().auth.signInWithPassword({
      email: 'oauth-user@example.com',
      password: TEST_PASSWORD,
    });
    const asUser = await raw(
      'GET',
      '/admin/oauth/clients',
      { Authorization: `Bearer ${data.session?.access_token ?? ''}` },
      undefined,
    );
    expect(asUser.status).toBe(403);
    const none = await raw('POST', '/admin/oauth/clients', {}, body);
    expect(none.status).toBe(401);
    expect(none.body.code).toBe('no_authorization');
    expect(await clientCount()).toBe(before);
  });
});

describe('the authorization server is not offered', () => {
  it.each([
    ['GET', '/oauth/authorize?client_id=x&response_type=code'],
    ['POST', '/oauth/token'],
    ['POST', '/oauth/clients/register'],
    ['GET', '/.well-known/oauth-authorization-server'],
  ])('%s %s: 404 feature_disabled', async (method, path) => {
    const answer = await raw(method, path, {});
    expect(answer.status).toBe(404);
    expect(answer.body).toMatchObject({
      code: 'feature_disabled',
      message: 'OAuth server is disabled',
    });
  });

  it("a user's grants: 401 without a session, then feature_disabled", async () => {
    const anonymous = await raw('GET', '/user/oauth/grants', {});
    expect(anonymous.status).toBe(401);
    await t.registerUser('oauth-grants@example.com');
    const { data } = await t.createClient().auth.signInWithPassword({
      email: 'oauth-grants@example.com',
      password: TEST_PASSWORD,
    });
    const listed = await raw('GET', '/user/oauth/grants', {
      Authorization: `Bearer ${data.session?.access_token ?? ''}`,
    });
    expect(listed.status).toBe(404);
    expect(listed.body.code).toBe('feature_disabled');
  });
});
