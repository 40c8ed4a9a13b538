// Share links over the app's HTTP surface: a member makes a link (expiry, cap, password), a
// stranger looks it up and opens it (bytes compared by checksum), every download is counted and
// in the activity, the cap holds under a race, revoking and expiry end it with a 403 saying why,
// and a member of another workspace can neither list, make nor revoke links of this one.
import { createHash, randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonRequest } from '../fixtures/create-test-app.ts';
import { createRegisteredUserApp, type RegisteredUserApp } from '../fixtures/registered-user.ts';
import { bearer, newTestUser } from '../fixtures/test-tokens.ts';

type Json = Record<string, any>;

const sha256 = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');

const PRO_SUBSCRIPTION = `INSERT INTO workspace_subscription (workspace_id, plan_id, billing_interval, status, stripe_customer_id, stripe_subscription_id)
  VALUES ($1, 'pro', 'month', 'active', 'cus_share', 'sub_share')`;

describe('file share links', () => {
  let me: RegisteredUserApp;
  let server: ReturnType<typeof serve>;
  let projectId: string;
  let fileId: string;
  const data = new TextEncoder().encode('The final logo, version three.\n'.repeat(500));
  let asStranger: (method: string, url: string, body?: unknown) => Promise<Json>;
  let asOutsider: (method: string, url: string, body?: unknown) => Promise<Json>;

  const send = async (
    method: string,
    url: string,
    body: unknown,
    headers: Record<string, string>,
  ): Promise<Json> => {
    const response = await me.t.app.request(
      url,
      body === undefined ? { method, headers } : jsonRequest(method, body, headers),
    );
    const text = await response.text();
    return {
      status: response.status,
      body: text ? JSON.parse(text) : null,
      headers: response.headers,
    };
  };

  /** A stranger's requests come from their own address, so rate limits are theirs alone. */
  const stranger = (ip: string) => (method: string, url: string, body?: unknown) =>
    send(method, url, body, { 'x-forwarded-for': ip });

  const tokenOf = (url: string) => url.split('/shared/')[1] as string;

  const createLink = async (body: Json = {}) => {
    const r = await me.call('POST', '/api/file-share-link?endpoint=create-file-share-link', {
      fileId,
      ...body,
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    return r.body.link as Json;
  };

  const open = (token: string, password?: string, who = asStranger) =>
    who('POST', '/api/shared-file?endpoint=open-shared-file', {
      token,
      ...(password === undefined ? {} : { password }),
    });

  const fetchBytes = async (url: string) => {
    const parsed = new URL(url);
    const response = await me.t.app.request(`${parsed.pathname}${parsed.search}`);
    return { response, bytes: new Uint8Array(await response.arrayBuffer()) };
  };

  beforeAll(async () => {
    // One proxy in front, so each stranger's X-Forwarded-For is their own address.
    me = await createRegisteredUserApp({ publicUrl: 'http://x', trustProxyHops: 1 });
    const client = await me.call('POST', '/api/client?endpoint=create-client', {
      id: randomUUID(),
      workspaceId: me.workspaceId,
      name: 'Acme',
    });
    const project = await me.call('POST', '/api/project?endpoint=create-project', {
      id: randomUUID(),
      workspaceId: me.workspaceId,
      clientId: client.body.client.id,
      name: 'Logo',
    });
    projectId = project.body.project.id;
    const meta = (values: Record<string, string>) =>
      Object.entries(values)
        .map(([key, value]) => `${key} ${Buffer.from(value).toString('base64')}`)
        .join(',');
    // tus over a real socket, as a browser sends it.
    server = serve({ fetch: me.t.app.fetch, port: 0, hostname: '127.0.0.1' });
    await new Promise((resolve) => server.once('listening', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const uploaded = await fetch(`${origin}/files/uploads`, {
      method: 'POST',
      headers: {
        ...bearer(await me.token()),
        'Tus-Resumable': '1.0.0',
        'Upload-Length': String(data.length),
        'Upload-Metadata': meta({ projectId, filename: 'logo.txt', filetype: 'text/plain' }),
        'Content-Type': 'application/offset+octet-stream',
      },
      body: data,
    });
    expect(uploaded.status, await uploaded.clone().text()).toBe(201);
    fileId = uploaded.headers.get('Satchel-File-Id') as string;
    expect(fileId).toBeTruthy();

    // Share links are a paid plan's (plan-limits.ts); the Free plan's refusal has its own test.
    await me.t.db.query(PRO_SUBSCRIPTION, [me.workspaceId]);

    asStranger = stranger('203.0.113.7');
    const outsider = newTestUser('eve');
    const outsiderCall = async (method: string, url: string, body?: unknown) =>
      send(method, url, body, bearer(await me.tokens.sign(outsider)));
    const registered = await outsiderCall('POST', '/api/register?endpoint=register-user', {
      id: outsider.id,
      email: outsider.email,
      firstName: 'Eve',
    });
    expect(registered.status).toBe(200);
    asOutsider = outsiderCall;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await me.t.cleanup();
  });

  it('on the Free plan a new link is a 422 naming the limit; a link made before keeps working, and can be listed and turned off', async () => {
    const before = await createLink();
    await me.t.db.query('DELETE FROM workspace_subscription WHERE workspace_id = $1', [
      me.workspaceId,
    ]);
    try {
      const refused = await me.call(
        'POST',
        '/api/file-share-link?endpoint=create-file-share-link',
        {
          fileId,
        },
      );
      expect(refused.status).toBe(422);
      expect(refused.body.error.code).toBe('BUSINESS_RULE');
      expect(refused.body.error.message).toMatch(/Free plan does not include share links/);
      expect(refused.body.error.details).toEqual({
        limit: 'shareLinks',
        plan: 'free',
        upgradePath: '/settings?tab=billing',
      });
      const listed = await me.call(
        'GET',
        `/api/file-share-link?endpoint=get-file-share-links&fileId=${fileId}`,
      );
      expect(listed.status).toBe(200);
      expect((listed.body.links as Json[]).map((link) => link.id)).toContain(before.id);
      const opened = await open(tokenOf(before.url as string));
      expect(opened.status, JSON.stringify(opened.body)).toBe(200);
      const revoked = await me.call(
        'POST',
        `/api/file-share-link?endpoint=revoke-file-share-link&id=${before.id}`,
      );
      expect(revoked.status).toBe(200);
      const { rows } = await me.t.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM file_share_link WHERE file_id = $1 AND created_at > $2',
        [fileId, before.createdAt],
      );
      expect(rows[0]?.n).toBe(0);
    } finally {
      await me.t.db.query(PRO_SUBSCRIPTION, [me.workspaceId]);
    }
  });

  it('a stranger opens a link, gets the bytes as a download, and the download is counted and in the activity', async () => {
    const link = await createLink({ expiryMinutes: 60, maxDownloads: 5 });
    expect(link).toMatchObject({
      fileId,
      projectId,
      maxDownloads: 5,
      downloadCount: 0,
      hasPassword: false,
      revokedAt: null,
      createdBy: me.user.id,
      createdByName: 'Ada',
    });
    expect(link.url).toMatch(/^http:\/\/x\/shared\/[A-Za-z0-9_-]{43}$/);
    expect(Date.parse(link.expiresAt) - Date.now()).toBeGreaterThan(59 * 60_000);

    const token = tokenOf(link.url);
    const about = await asStranger(
      'GET',
      `/api/shared-file?endpoint=get-shared-file&token=${token}`,
    );
    expect(about.status).toBe(200);
    expect(about.body).toMatchObject({
      fileName: 'logo.txt',
      size: data.length,
      type: 'text/plain',
      passwordRequired: false,
      downloadsLeft: 5,
    });

    const opened = await open(token);
    expect(opened.status).toBe(200);
    expect(opened.body.fileName).toBe('logo.txt');
    const got = await fetchBytes(opened.body.url);
    expect(got.response.status).toBe(200);
    expect(sha256(got.bytes)).toBe(sha256(data));
    // A shared file is always a download, never a page of ours, whatever its type.
    expect(got.response.headers.get('content-disposition')).toMatch(/^attachment/);

    const listed = await me.call(
      'GET',
      `/api/file-share-link?endpoint=get-file-share-links&fileId=${fileId}`,
    );
    const after = listed.body.links.find((candidate: Json) => candidate.id === link.id);
    expect(after.downloadCount).toBe(1);
    expect(after.lastDownloadedAt).not.toBeNull();
    expect(
      (await asStranger('GET', `/api/shared-file?endpoint=get-shared-file&token=${token}`)).body
        .downloadsLeft,
    ).toBe(4);

    const activity = await me.call(
      'GET',
      `/api/project-activity?endpoint=get-project-activity&projectId=${projectId}&kind=file`,
    );
    const ops = activity.body.activity.map((entry: Json) => `${entry.op} ${entry.label}`);
    expect(ops.slice(0, 2)).toEqual(['download logo.txt', 'share logo.txt']);
    expect(activity.body.activity[0].changes.downloads).toEqual({ from: 0, to: 1 });
  });

  it('a password link refuses a wrong password with 401 and opens with the right one; guesses are limited', async () => {
    const link = await createLink({ password: 'blue whale' });
    expect(link.hasPassword).toBe(true);
    // The password itself is never answered, hashed or not.
    expect(JSON.stringify(link)).not.toContain('blue whale');
    expect(JSON.stringify(link)).not.toContain('argon2');
    const token = tokenOf(link.url);
    const about = await asStranger(
      'GET',
      `/api/shared-file?endpoint=get-shared-file&token=${token}`,
    );
    expect(about.body.passwordRequired).toBe(true);

    const guesser = stranger('198.51.100.9');
    const missing = await open(token, undefined, guesser);
    expect(missing.status).toBe(401);
    expect(missing.body.error.message).toBe('Wrong password for this link.');
    expect((await open(token, 'red whale', guesser)).status).toBe(401);
    expect((await open(token, 'blue whale', guesser)).status).toBe(200);
    // The wrong tries counted nothing.
    const listed = await me.call(
      'GET',
      `/api/file-share-link?endpoint=get-file-share-links&fileId=${fileId}`,
    );
    expect(listed.body.links.find((l: Json) => l.id === link.id).downloadCount).toBe(1);

    // Ten tries per address in 15 minutes: the eleventh is refused even with the right password.
    for (let i = 0; i < 7; i += 1)
      expect((await open(token, `guess ${i}`, guesser)).status).toBe(401);
    const limited = await open(token, 'blue whale', guesser);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBeTruthy();
    // Another address still gets in.
    expect((await open(token, 'blue whale', stranger('198.51.100.10'))).status).toBe(200);
  });

  it('the cap holds when recipients race for the last downloads', async () => {
    const link = await createLink({ maxDownloads: 2 });
    const token = tokenOf(link.url);
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) => open(token, undefined, stranger(`192.0.2.${i + 1}`))),
    );
    const statuses = results.map((result) => result.status).sort();
    expect(statuses).toEqual([200, 200, 403, 403, 403, 403]);
    const refused = results.find((result) => result.status === 403);
    expect(refused?.body.error.message).toBe(
      'This link has been used for all 2 downloads it allowed.',
    );
    const about = await asStranger(
      'GET',
      `/api/shared-file?endpoint=get-shared-file&token=${token}`,
    );
    expect(about.status).toBe(403);
  });

  it('a revoked link is a 403 saying so; revoking twice answers it unchanged', async () => {
    const link = await createLink();
    const token = tokenOf(link.url);
    const revoked = await me.call(
      'POST',
      `/api/file-share-link?endpoint=revoke-file-share-link&id=${link.id}`,
    );
    expect(revoked.status).toBe(200);
    expect(revoked.body.link.revokedAt).not.toBeNull();
    const again = await me.call(
      'POST',
      `/api/file-share-link?endpoint=revoke-file-share-link&id=${link.id}`,
    );
    expect(again.body.link.revokedAt).toBe(revoked.body.link.revokedAt);
    for (const response of [
      await asStranger('GET', `/api/shared-file?endpoint=get-shared-file&token=${token}`),
      await open(token),
    ]) {
      expect(response.status).toBe(403);
      expect(response.body.error.message).toBe(
        'This link was turned off by the person who shared it.',
      );
    }
    const activity = await me.call(
      'GET',
      `/api/project-activity?endpoint=get-project-activity&projectId=${projectId}&kind=file`,
    );
    expect(activity.body.activity[0]).toMatchObject({ op: 'unshare', label: 'logo.txt' });
  });

  it('an expired link is a 403 saying when it expired', async () => {
    const link = await createLink({ expiryMinutes: 1 });
    await me.t.db.query(
      "UPDATE file_share_link SET expires_at = now() - interval '1 second' WHERE id = $1",
      [link.id],
    );
    const response = await open(tokenOf(link.url));
    expect(response.status).toBe(403);
    expect(response.body.error.message).toMatch(/^This link expired on /);
  });

  it('unknown and malformed tokens are refused clearly, never a 5xx', async () => {
    const unknown = await asStranger(
      'GET',
      `/api/shared-file?endpoint=get-shared-file&token=${'B'.repeat(43)}`,
    );
    expect(unknown.status).toBe(403);
    expect(unknown.body.error.message).toBe(
      'This link is not valid. Check that you have all of it.',
    );
    const malformed = await open('../../etc/passwd');
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.details[0].path).toBe('body.token');
  });

  it('bad input to create-file-share-link gets the contract error', async () => {
    for (const [body, path] of [
      [{ expiryMinutes: 0 }, 'body.expiryMinutes'],
      [{ expiryMinutes: 43_201 }, 'body.expiryMinutes'],
      [{ maxDownloads: 0 }, 'body.maxDownloads'],
      [{ maxDownloads: 1.5 }, 'body.maxDownloads'],
      [{ password: 'abc' }, 'body.password'],
      [{ fileId: 'not-an-id' }, 'body.fileId'],
    ] as const) {
      const r = await me.call('POST', '/api/file-share-link?endpoint=create-file-share-link', {
        fileId,
        ...body,
      });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error.details.map((d: Json) => d.path)).toContain(path);
    }
  });

  it("a member of another workspace can neither make, list nor revoke this workspace's links", async () => {
    const link = await createLink();
    const made = await asOutsider('POST', '/api/file-share-link?endpoint=create-file-share-link', {
      fileId,
    });
    expect(made.status).toBe(404);
    const listed = await asOutsider(
      'GET',
      `/api/file-share-link?endpoint=get-file-share-links&fileId=${fileId}`,
    );
    expect(listed.status).toBe(404);
    const revoked = await asOutsider(
      'POST',
      `/api/file-share-link?endpoint=revoke-file-share-link&id=${link.id}`,
    );
    expect(revoked.status).toBe(404);
    const still = await asStranger(
      'GET',
      `/api/shared-file?endpoint=get-shared-file&token=${tokenOf(link.url)}`,
    );
    expect(still.status).toBe(200);
  });

  it('a deleted file takes its links with it', async () => {
    const link = await createLink();
    const deleted = await me.call('DELETE', `/api/file?endpoint=delete-file&id=${fileId}`);
    expect(deleted.status).toBe(200);
    const response = await open(tokenOf(link.url));
    expect(response.status).toBe(403);
  });
});
