// The client's uploads in the portal and the change requests they are attached to, over the
// app's HTTP surface: tus with the portal cookie at /api/client-portal/uploads, always into the
// session's project and the "From client" folder, named as the client's in the file and the
// activity; and every refusal: no cookie, a member's bearer token, another project, a foreign
// Origin, someone else's upload, attachments of another project or hidden since.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PORTAL_UPLOAD_FOLDER, PORTAL_UPLOAD_PATH } from '#contract/endpoints/client-portal.ts';
import { jsonRequest } from '../fixtures/create-test-app.ts';
import { createRegisteredUserApp, type RegisteredUserApp } from '../fixtures/registered-user.ts';
import { postgresTestUrl } from '../fixtures/scratch-postgres.ts';

type Json = Record<string, any>;

const PASSWORD = 'blue lagoon 42';
const ORIGIN = 'http://portal.test';

const backends: [string, string | undefined][] = [
  ['PGlite', undefined],
  ...(postgresTestUrl ? [['PostgreSQL', postgresTestUrl] as [string, string]] : []),
];

const metadataHeader = (meta: Record<string, string>) =>
  Object.entries(meta)
    .map(([key, value]) => `${key} ${Buffer.from(value).toString('base64')}`)
    .join(',');

describe.each(backends)('portal uploads on %s', (_name, postgresUrl) => {
  let me: RegisteredUserApp;
  let projectId: string;
  let otherProjectId: string;
  let cookie: string;
  let otherCookie: string;
  let nextIp = 1;

  const enter = async (pid: string): Promise<string> => {
    const response = await me.t.app.request(
      '/api/client-portal?endpoint=authenticate',
      jsonRequest(
        'POST',
        { projectId: pid, password: PASSWORD },
        { 'x-forwarded-for': `203.0.113.${nextIp++}` },
      ),
    );
    expect(response.status, await response.clone().text()).toBe(200);
    return (response.headers.get('set-cookie') ?? '').split(';')[0] as string;
  };

  /** A whole file in the creating POST (tus creation-with-upload). */
  const upload = async (
    data: Buffer,
    meta: Record<string, string>,
    headers: Record<string, string> = { cookie, origin: ORIGIN },
  ) => {
    const response = await me.t.app.request(PORTAL_UPLOAD_PATH, {
      method: 'POST',
      headers: {
        'Tus-Resumable': '1.0.0',
        'Upload-Length': String(data.length),
        'Upload-Metadata': metadataHeader(meta),
        'Content-Type': 'application/offset+octet-stream',
        ...headers,
      },
      body: new Uint8Array(data),
    });
    const text = await response.text();
    return {
      status: response.status,
      headers: response.headers,
      body: (text.startsWith('{') ? JSON.parse(text) : { text }) as Json,
    };
  };

  const reply = async (response: Response) => ({
    status: response.status,
    body: (await response.json()) as Json,
  });
  const portalPost = async (operation: string, body: Json, as = cookie) =>
    reply(
      await me.t.app.request(
        `/api/client-portal?endpoint=${operation}`,
        jsonRequest('POST', body, { cookie: as, origin: ORIGIN }),
      ),
    );
  const portalGet = async (query: string, as = cookie) =>
    reply(await me.t.app.request(`/api/client-portal?${query}`, { headers: { cookie: as } }));
  const memberFiles = async (pid = projectId) =>
    (await me.call('GET', `/api/file?endpoint=get-files&projectId=${pid}`)).body.files as Json[];

  beforeAll(async () => {
    me = await createRegisteredUserApp({
      publicUrl: ORIGIN,
      trustProxyHops: 1,
      ...(postgresUrl ? { postgresUrl } : {}),
    });
    const client = await me.call('POST', '/api/client?endpoint=create-client', {
      id: randomUUID(),
      workspaceId: me.workspaceId,
      name: 'Acme Bakery',
    });
    const createProject = async (name: string) => {
      const reply = await me.call('POST', '/api/project?endpoint=create-project', {
        id: randomUUID(),
        workspaceId: me.workspaceId,
        clientId: client.body.client.id,
        name,
      });
      expect(reply.status, JSON.stringify(reply.body)).toBe(200);
      const id = reply.body.project.id as string;
      const on = await me.call('PATCH', `/api/project?endpoint=update-portal-access&id=${id}`, {
        enabled: true,
        password: PASSWORD,
      });
      expect(on.status, JSON.stringify(on.body)).toBe(200);
      return id;
    };
    projectId = await createProject('Shop front');
    otherProjectId = await createProject('Menu cards');
    cookie = await enter(projectId);
    otherCookie = await enter(otherProjectId);
  });
  afterAll(async () => {
    await me?.t.cleanup();
  });

  it("stores the client's file in the project's From client folder, as the client's, with an activity line", async () => {
    const data = Buffer.from('the new opening hours, as a text file');
    const reply = await upload(data, {
      projectId,
      filename: 'hours.txt',
      filetype: 'text/plain',
      // Asked for, and ignored: the client's files all go to one folder.
      folder: 'Contracts',
    });
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    const fileId = reply.headers.get('Satchel-File-Id');
    const file = (await memberFiles()).find((row) => row.id === fileId);
    expect(file).toMatchObject({
      name: 'hours.txt',
      folder: PORTAL_UPLOAD_FOLDER,
      size: data.length,
      visibleToClient: true,
    });
    const clientId = (await portalGet(`endpoint=get-client-project&id=${projectId}`)).body.project
      .clientId as string;
    expect(file?.uploadedBy).toBe(clientId);
    const activity = await me.call(
      'GET',
      `/api/project-activity?endpoint=get-project-activity&projectId=${projectId}`,
    );
    expect(
      (activity.body.activity as Json[]).find((line) => line.entityId === fileId),
    ).toMatchObject({ op: 'create', actorKind: 'client', actorName: 'Acme Bakery' });
    // The client sees it among the portal's files.
    const portalFiles = await portalGet(`endpoint=get-project-files&projectId=${projectId}`);
    expect((portalFiles.body.files as Json[]).map((f) => f.name)).toContain('hours.txt');
  });

  it('refuses an upload without a portal session, with a member token, or from another site', async () => {
    const data = Buffer.from('x');
    const meta = { projectId, filename: 'nope.txt' };
    const none = await upload(data, meta, { origin: ORIGIN });
    expect(none.status).toBe(401);
    expect(none.body.error.message).toMatch(/portal session has ended/);
    const member = await upload(data, meta, {
      authorization: `Bearer ${await me.token()}`,
      origin: ORIGIN,
    });
    expect(member.status).toBe(401);
    const foreign = await upload(data, meta, { cookie, origin: 'https://evil.test' });
    expect(foreign.status).toBe(403);
    expect(foreign.body.error.message).toBe(
      'Portal requests are only accepted from the portal page itself.',
    );
    expect((await memberFiles()).map((f) => f.name)).not.toContain('nope.txt');
  });

  it("refuses an upload into another project than the session's", async () => {
    const reply = await upload(Buffer.from('x'), {
      projectId: otherProjectId,
      filename: 'elsewhere.txt',
    });
    expect(reply.status).toBe(403);
    expect(reply.body.error.code).toBe('FORBIDDEN');
    expect((await memberFiles(otherProjectId)).map((f) => f.name)).not.toContain('elsewhere.txt');
  });

  it("answers someone else's upload like one that does not exist", async () => {
    const created = await me.t.app.request(PORTAL_UPLOAD_PATH, {
      method: 'POST',
      headers: {
        'Tus-Resumable': '1.0.0',
        'Upload-Length': '10',
        'Upload-Metadata': metadataHeader({ projectId, filename: 'half.txt' }),
        cookie,
        origin: ORIGIN,
      },
    });
    expect(created.status).toBe(201);
    const location = created.headers.get('location') as string;
    expect(location.startsWith(`${PORTAL_UPLOAD_PATH}/`)).toBe(true);
    const head = (as: string) =>
      me.t.app.request(location, {
        method: 'HEAD',
        headers: { 'Tus-Resumable': '1.0.0', cookie: as },
      });
    expect((await head(cookie)).status).toBe(200);
    expect((await head(otherCookie)).status).toBe(404);
    // And a member's route does not reach it either.
    const viaMember = await me.t.app.request(
      location.replace(PORTAL_UPLOAD_PATH, '/files/uploads'),
      {
        method: 'HEAD',
        headers: { 'Tus-Resumable': '1.0.0', authorization: `Bearer ${await me.token()}` },
      },
    );
    expect(viaMember.status).toBe(404);
  });

  it('attaches uploaded files to a change request; another project’s file is a 422 and nothing is stored', async () => {
    const first = await upload(Buffer.from('sketch one'), { projectId, filename: 'sketch-1.png' });
    const second = await upload(Buffer.from('sketch two'), { projectId, filename: 'sketch-2.png' });
    const elsewhere = await upload(
      Buffer.from('menu'),
      { projectId: otherProjectId, filename: 'menu.pdf' },
      { cookie: otherCookie, origin: ORIGIN },
    );
    const ids = [first, second].map((r) => r.headers.get('Satchel-File-Id') as string);
    const otherId = elsewhere.headers.get('Satchel-File-Id') as string;
    expect(otherId).toBeTruthy();

    const refusedId = randomUUID();
    const refused = await portalPost('create-change-request', {
      id: refusedId,
      projectId,
      title: 'Use the other sketch',
      attachmentFileIds: [ids[0], otherId],
    });
    expect(refused.status).toBe(422);
    expect(refused.body.error.details).toEqual([
      { path: 'attachmentFileIds.1', message: 'Upload the file again, then send the request.' },
    ]);
    const tooMany = await portalPost('create-change-request', {
      id: randomUUID(),
      projectId,
      title: 'Eleven files',
      attachmentFileIds: Array.from({ length: 11 }, () => randomUUID()),
    });
    expect(tooMany.status).toBe(400);

    const id = randomUUID();
    const created = await portalPost('create-change-request', {
      id,
      projectId,
      title: 'Use the second sketch',
      attachmentFileIds: ids,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.changeRequest.attachmentFileIds).toEqual(ids);

    const list = await portalGet(`endpoint=get-change-requests&projectId=${projectId}`);
    const ids_ = (list.body.changeRequests as Json[]).map((r) => r.id);
    expect(ids_).toContain(id);
    expect(ids_).not.toContain(refusedId);

    // The member's synced row carries them.
    const row = await me.call('GET', `/api/change-request?endpoint=get-change-request&id=${id}`);
    expect(row.body.changeRequest.attachmentFileIds).toEqual(ids);

    // A member hides one: the portal no longer lists it on the request.
    const hide = await me.call('PATCH', `/api/file?endpoint=update-file&id=${ids[0]}`, {
      visibleToClient: false,
    });
    expect(hide.status, JSON.stringify(hide.body)).toBe(200);
    const after = await portalGet(`endpoint=get-change-requests&projectId=${projectId}`);
    expect(
      (after.body.changeRequests as Json[]).find((r) => r.id === id)?.attachmentFileIds,
    ).toEqual([ids[1]]);
  });
});
