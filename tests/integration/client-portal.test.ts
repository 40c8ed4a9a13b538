// The client portal over the app's HTTP surface, as the spec names its calls: a member turns a
// project's portal on with a password; a client enters it, gets a cookie scoped to that project
// and reads the project, its milestones, its visible files (downloading one), and the workspace's
// branding. Every refusal of the issue: wrong, empty and 10 KB passwords, unknown projects and
// closed portals answering like a wrong password, a cookie of project A used on project B, member
// tokens and portal cookies crossing over, foreign origins, rate limits, expiry, rotation.
import { createHash, randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonRequest } from '../fixtures/create-test-app.ts';
import { createRegisteredUserApp, type RegisteredUserApp } from '../fixtures/registered-user.ts';
import { postgresTestUrl } from '../fixtures/scratch-postgres.ts';
import { bearer, newTestUser } from '../fixtures/test-tokens.ts';

type Json = Record<string, any>;
interface Reply {
  status: number;
  body: Json | null;
  headers: Headers;
}

const sha256 = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');
const PASSWORD = 'blue lagoon 42';

// PGlite always; PostgreSQL too when DATABASE_URL_TEST names a server (CI sets it).
const backends: [string, string | undefined][] = [
  ['PGlite', undefined],
  ...(postgresTestUrl ? [['PostgreSQL', postgresTestUrl] as [string, string]] : []),
];

describe.each(backends)('client portal on %s', (_name, postgresUrl) => {
  let me: RegisteredUserApp;
  let server: ReturnType<typeof serve>;
  let clientId: string;
  let projectId: string;
  let otherProjectId: string;
  let visibleFile: Json;
  let hiddenFile: Json;
  const data = new TextEncoder().encode('Final deliverable.\n'.repeat(300));
  let nextIp = 1;
  /** Each test's visitor has its own address, so per-address limits stay its own. */
  const freshIp = () => `198.51.100.${nextIp++}`;

  const send = async (
    method: string,
    url: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Reply> => {
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

  const setAccess = async (id: string, body: Json) =>
    me.call('PATCH', `/api/project?endpoint=update-portal-access&id=${id}`, body);

  const authenticate = (pid: string, password: string, headers: Record<string, string> = {}) =>
    send(
      'POST',
      '/api/client-portal?endpoint=authenticate',
      { projectId: pid, password },
      { 'x-forwarded-for': freshIp(), ...headers },
    );

  /** Enters the portal and answers the Cookie header to send with portal calls. */
  const enter = async (pid = projectId, password = PASSWORD): Promise<string> => {
    const reply = await authenticate(pid, password);
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    const cookie = reply.headers.get('set-cookie') ?? '';
    return cookie.split(';')[0] as string;
  };

  const portal = (cookie: string, query: string) =>
    send('GET', `/api/client-portal?${query}`, undefined, { cookie });

  // The Free plan allows two active projects; a third one is made completed.
  const createProject = async (name: string, status = 'active') => {
    const reply = await me.call('POST', '/api/project?endpoint=create-project', {
      id: randomUUID(),
      workspaceId: me.workspaceId,
      clientId,
      name,
      status,
    });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    return reply.body.project.id as string;
  };

  beforeAll(async () => {
    me = await createRegisteredUserApp({
      publicUrl: 'http://portal.test',
      trustProxyHops: 1,
      ...(postgresUrl ? { postgresUrl } : {}),
    });
    const client = await me.call('POST', '/api/client?endpoint=create-client', {
      id: randomUUID(),
      workspaceId: me.workspaceId,
      name: 'Acme Bakery',
    });
    clientId = client.body.client.id;
    projectId = await createProject('Shop front');
    otherProjectId = await createProject('Menu cards');
    for (const [title, position] of [
      ['Sketches', 'a0'],
      ['Final art', 'a1'],
    ] as const) {
      const reply = await me.call('POST', '/api/milestone?endpoint=create-milestone', {
        id: randomUUID(),
        workspaceId: me.workspaceId,
        projectId,
        title,
        position,
        amount: 120_000,
        currency: 'EUR',
      });
      expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    }

    server = serve({ fetch: me.t.app.fetch, port: 0, hostname: '127.0.0.1' });
    await new Promise((resolve) => server.once('listening', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const upload = async (filename: string) => {
      const meta = Object.entries({ projectId, filename, filetype: 'text/plain' })
        .map(([key, value]) => `${key} ${Buffer.from(value).toString('base64')}`)
        .join(',');
      const response = await fetch(`${origin}/files/uploads`, {
        method: 'POST',
        headers: {
          ...bearer(await me.token()),
          'Tus-Resumable': '1.0.0',
          'Upload-Length': String(data.length),
          'Upload-Metadata': meta,
          'Content-Type': 'application/offset+octet-stream',
        },
        body: data,
      });
      expect(response.status, await response.clone().text()).toBe(201);
      const files = await me.call('GET', `/api/file?endpoint=get-files&projectId=${projectId}`);
      return (files.body.files as Json[]).find((file) => file.name === filename) as Json;
    };
    visibleFile = await upload('handover.txt');
    hiddenFile = await upload('internal-notes.txt');
    const hidden = await me.call('PATCH', `/api/file?endpoint=update-file&id=${hiddenFile.id}`, {
      visibleToClient: false,
    });
    expect(hidden.status, JSON.stringify(hidden.body)).toBe(200);
  });
  afterAll(async () => {
    if (server) await new Promise((resolve) => server.close(resolve));
    await me?.t.cleanup();
  });

  it('starts off, without a password, with its link', async () => {
    const reply = await me.call('GET', `/api/project?endpoint=get-portal-access&id=${projectId}`);
    expect(reply.status).toBe(200);
    expect(reply.body.portal).toEqual({
      projectId,
      clientId,
      enabled: false,
      hasPassword: false,
      passwordSetAt: null,
      url: `http://portal.test/client/${clientId}/project/${projectId}`,
      lastOpenedAt: null,
      openSessions: 0,
      chatEnabled: false,
    });
  });

  it('refuses to turn on without a password, and a password that is too short', async () => {
    const none = await setAccess(projectId, { enabled: true });
    expect(none.status).toBe(422);
    expect(none.body.error.message).toBe('Set a password to turn the portal on.');
    const short = await setAccess(projectId, { enabled: true, password: 'short' });
    expect(short.status).toBe(400);
    expect(short.body.error.details[0].message).toBe('A portal password is at least 8 characters');
  });

  it('turns on with a password that is never answered', async () => {
    const reply = await setAccess(projectId, { enabled: true, password: PASSWORD });
    expect(reply.status).toBe(200);
    expect(reply.body.portal).toMatchObject({ enabled: true, hasPassword: true });
    expect(reply.body.portal.passwordSetAt).toEqual(expect.any(String));
    expect(JSON.stringify(reply.body)).not.toContain('argon2');
    expect(JSON.stringify(reply.body)).not.toContain(PASSWORD);
  });

  it('a wrong password, an unknown project and a closed portal all answer the same 401, without a cookie', async () => {
    const closed = await createProject('Closed portal', 'completed');
    await setAccess(closed, { enabled: true, password: PASSWORD });
    await setAccess(closed, { enabled: false });
    const replies = [
      await authenticate(projectId, 'not the password'),
      await authenticate(randomUUID(), PASSWORD),
      await authenticate(closed, PASSWORD),
    ];
    for (const reply of replies) {
      expect(reply.status).toBe(401);
      expect(reply.body?.error).toMatchObject({
        code: 'UNAUTHORIZED',
        message: 'Invalid password.',
      });
      expect(reply.headers.get('set-cookie')).toBeNull();
    }
  });

  it('an empty, a 10 KB and a missing password are clear 400s', async () => {
    const empty = await authenticate(projectId, '');
    expect(empty.status).toBe(400);
    expect(empty.body?.error.details[0].message).toBe('Enter the password');
    const huge = await authenticate(projectId, 'x'.repeat(10_240));
    expect(huge.status).toBe(400);
    expect(huge.body?.error.details[0].message).toBe('The password is too long');
    const missing = await send(
      'POST',
      '/api/client-portal?endpoint=authenticate',
      { projectId },
      { 'x-forwarded-for': freshIp() },
    );
    expect(missing.status).toBe(400);
  });

  it('the right password answers {authenticated: true} and an httpOnly, SameSite=Strict cookie for the portal calls', async () => {
    const reply = await authenticate(projectId, PASSWORD);
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ authenticated: true });
    const cookie = reply.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^satchel_portal=[A-Za-z0-9_-]{43}; /);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Strict');
    expect(cookie).toContain('Path=/api/client-portal');
    expect(cookie).not.toContain('Secure'); // http://portal.test; https turns it on
    const access = await me.call('GET', `/api/project?endpoint=get-portal-access&id=${projectId}`);
    expect(access.body.portal.lastOpenedAt).toEqual(expect.any(String));
    expect(access.body.portal.openSessions).toBeGreaterThanOrEqual(1);
  });

  it("reads its project, milestones, visible files and the workspace's branding", async () => {
    const cookie = await enter();
    const project = await portal(cookie, `endpoint=get-client-project&id=${projectId}`);
    expect(project.status).toBe(200);
    expect(project.body?.project).toMatchObject({
      id: projectId,
      clientId,
      workspaceId: me.workspaceId,
      clientName: 'Acme Bakery',
      name: 'Shop front',
      status: 'active',
    });
    expect(Object.keys(project.body?.project ?? {})).not.toContain('budget');

    const milestones = await portal(
      cookie,
      `endpoint=get-project-milestones&projectId=${projectId}`,
    );
    expect(milestones.status).toBe(200);
    expect(milestones.body?.milestones.map((m: Json) => [m.title, m.amount, m.currency])).toEqual([
      ['Sketches', 120_000, 'EUR'],
      ['Final art', 120_000, 'EUR'],
    ]);

    const files = await portal(cookie, `endpoint=get-project-files&projectId=${projectId}`);
    expect(files.status).toBe(200);
    expect(files.body?.files.map((f: Json) => f.name)).toEqual(['handover.txt']);
    expect(files.body?.files[0]).toMatchObject({
      size: data.length,
      blobName: visibleFile.blobName,
    });

    const workspace = await portal(
      cookie,
      `endpoint=get-workspace-settings&workspaceId=${me.workspaceId}`,
    );
    expect(workspace.status).toBe(200);
    // The Free plan shows the portal in Satchel's colours: no workspace logo or colour.
    expect(workspace.body?.workspace).toMatchObject({
      id: me.workspaceId,
      branding: 'satchel',
      logoUrl: null,
      brandColor: null,
    });
  });

  it('downloads a visible file through generate-sas-url, and refuses a hidden one or a made-up blob', async () => {
    const cookie = await enter();
    const link = await portal(
      cookie,
      `endpoint=generate-sas-url&blobName=${visibleFile.blobName}&projectId=${projectId}&expiryMinutes=5&downloadFileName=handover.txt`,
    );
    expect(link.status, JSON.stringify(link.body)).toBe(200);
    const url = new URL(link.body?.sasUrl as string);
    const download = await me.t.app.request(`${url.pathname}${url.search}`);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-disposition')).toContain('attachment');
    expect(sha256(new Uint8Array(await download.arrayBuffer()))).toBe(sha256(data));

    for (const blobName of [hiddenFile.blobName, randomUUID()]) {
      const refused = await portal(
        cookie,
        `endpoint=generate-sas-url&blobName=${blobName}&projectId=${projectId}&expiryMinutes=5`,
      );
      expect(refused.status).toBe(403);
      expect(refused.body?.error.message).toBe('This file is not shared in this portal.');
    }
    const tooLong = await portal(
      cookie,
      `endpoint=generate-sas-url&blobName=${visibleFile.blobName}&projectId=${projectId}&expiryMinutes=99999`,
    );
    expect(tooLong.status).toBe(400);
  });

  it("a cookie of project A is a 403 for project B's data and another workspace id", async () => {
    await setAccess(otherProjectId, { enabled: true, password: 'menu password' });
    const cookieA = await enter();
    for (const query of [
      `endpoint=get-client-project&id=${otherProjectId}`,
      `endpoint=get-project-milestones&projectId=${otherProjectId}`,
      `endpoint=get-project-files&projectId=${otherProjectId}`,
      `endpoint=generate-sas-url&blobName=${visibleFile.blobName}&projectId=${otherProjectId}`,
      `endpoint=get-workspace-settings&workspaceId=${randomUUID()}`,
    ]) {
      const reply = await portal(cookieA, query);
      expect(reply.status, query).toBe(403);
    }
  });

  it('no portal call takes a member token, and no member call takes a portal cookie', async () => {
    const asMember = await send(
      'GET',
      `/api/client-portal?endpoint=get-client-project&id=${projectId}`,
      undefined,
      bearer(await me.token()),
    );
    expect(asMember.status).toBe(401);
    expect(asMember.body?.error.message).toContain('portal session has ended');
    const cookie = await enter();
    const asClient = await send(
      'GET',
      `/api/project?endpoint=get-projects&workspaceId=${me.workspaceId}`,
      undefined,
      { cookie },
    );
    expect(asClient.status).toBe(401);
    const forged = await portal(
      'satchel_portal=' + 'A'.repeat(43),
      `endpoint=get-client-project&id=${projectId}`,
    );
    expect(forged.status).toBe(401);
  });

  it('refuses a portal POST from another site (CSRF)', async () => {
    const foreign = await authenticate(projectId, PASSWORD, { origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    expect(foreign.headers.get('set-cookie')).toBeNull();
    const crossSite = await authenticate(projectId, PASSWORD, { 'sec-fetch-site': 'cross-site' });
    expect(crossSite.status).toBe(403);
    const own = await authenticate(projectId, PASSWORD, {
      origin: 'http://portal.test',
      'sec-fetch-site': 'same-origin',
    });
    expect(own.status).toBe(200);
  });

  it('limits password attempts per address, with Retry-After', async () => {
    const ip = freshIp();
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const reply = await authenticate(projectId, `wrong ${i}`, { 'x-forwarded-for': ip });
      statuses.push(reply.status);
      if (reply.status === 429) {
        expect(Number(reply.headers.get('retry-after'))).toBeGreaterThan(0);
        expect(reply.body?.error.code).toBe('RATE_LIMITED');
      }
    }
    expect(statuses.slice(0, 10).every((status) => status === 401)).toBe(true);
    expect(statuses[10]).toBe(429);
    // Even the right password waits out the limit from that address.
    const right = await authenticate(projectId, PASSWORD, { 'x-forwarded-for': ip });
    expect(right.status).toBe(429);
  });

  it('an idle session ends after 30 minutes, and sign-out ends one at once', async () => {
    const idle = await enter();
    await me.t.db.query(
      `UPDATE portal_session SET last_seen_at = now() - interval '31 minutes'
       WHERE token_hash = encode(sha256(convert_to($1, 'UTF8')), 'hex')`,
      [idle.split('=')[1]],
    );
    expect((await portal(idle, `endpoint=get-client-project&id=${projectId}`)).status).toBe(401);

    const cookie = await enter();
    const out = await send('POST', '/api/client-portal?endpoint=sign-out', {}, { cookie });
    expect(out.status).toBe(200);
    expect(out.headers.get('set-cookie')).toContain('Max-Age=0');
    expect((await portal(cookie, `endpoint=get-client-project&id=${projectId}`)).status).toBe(401);
  });

  it('a new password or turning the portal off ends every open session of the project', async () => {
    const before = await enter();
    const other = await enter(otherProjectId, 'menu password');
    const rotated = await setAccess(projectId, { enabled: true, password: 'a brand new one' });
    expect(rotated.status).toBe(200);
    expect((await portal(before, `endpoint=get-client-project&id=${projectId}`)).status).toBe(401);
    // Another project's sessions are not touched.
    expect((await portal(other, `endpoint=get-client-project&id=${otherProjectId}`)).status).toBe(
      200,
    );
    expect((await authenticate(projectId, PASSWORD)).status).toBe(401);

    const after = await enter(projectId, 'a brand new one');
    // Turning it off keeps the password for when it is turned on again.
    expect((await setAccess(projectId, { enabled: false })).body.portal).toMatchObject({
      enabled: false,
      hasPassword: true,
      openSessions: 0,
    });
    expect((await portal(after, `endpoint=get-client-project&id=${projectId}`)).status).toBe(401);
    const reopened = await setAccess(projectId, { enabled: true });
    expect(reopened.status, JSON.stringify(reopened.body)).toBe(200);
    await enter(projectId, 'a brand new one');
    await setAccess(projectId, { enabled: true, password: PASSWORD });
  });

  it("tells the members of the client's first visit of the day, once", async () => {
    const list = async () => {
      const reply = await me.call(
        'GET',
        '/api/notifications?endpoint=get-notifications&page=1&limit=50',
      );
      return (reply.body.notifications as Json[]).filter((n) => n.type === 'portal-opened');
    };
    const opened = (await list()).filter((n) => n.title.includes('Shop front'));
    expect(opened).toHaveLength(1);
    expect(opened[0]).toMatchObject({
      title: expect.stringContaining('Shop front'),
      link: `/projects/${projectId}/${clientId}`,
    });
    await enter();
    expect((await list()).filter((n) => n.title.includes('Shop front'))).toHaveLength(1);
  });

  it("a member of another workspace cannot read or change this project's portal", async () => {
    const eve = newTestUser('eve');
    const headers = bearer(await me.tokens.sign(eve));
    await send(
      'POST',
      '/api/register?endpoint=register-user',
      { id: eve.id, email: eve.email, firstName: 'Eve' },
      headers,
    );
    const read = await send(
      'GET',
      `/api/project?endpoint=get-portal-access&id=${projectId}`,
      undefined,
      headers,
    );
    expect(read.status).toBe(404);
    const write = await send(
      'PATCH',
      `/api/project?endpoint=update-portal-access&id=${projectId}`,
      { enabled: true, password: 'taken over!' },
      headers,
    );
    expect(write.status).toBe(404);
    expect((await authenticate(projectId, 'taken over!')).status).toBe(401);
  });
});
