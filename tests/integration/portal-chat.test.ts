// The client's part in a project's chat through the portal: off until a member turns it on (then
// reading says so and writing is refused, nothing stored); on, the client reads the members'
// messages by name only and writes as the client, stored once per id as a chat_message of the
// session's project (never another's), pulled by members like any message, each member notified;
// bad text is a 400 (control characters stripped, as everywhere) and an id taken by another
// message a 409.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PORTAL_CHAT_PAGE } from '#contract/endpoints/portal-chat.ts';
import { jsonRequest } from '../fixtures/create-test-app.ts';
import { openPortalSession, type PortalSession } from '../fixtures/portal-session.ts';
import { createRegisteredUserApp, type RegisteredUserApp } from '../fixtures/registered-user.ts';

type Json = Record<string, any>;

describe('portal chat', { timeout: 60_000 }, () => {
  let me: RegisteredUserApp;
  let projectId = '';
  let otherProjectId = '';
  let clientId = '';
  let session: PortalSession;

  const create = async (resource: string, operation: string, body: Json) => {
    const answer = await me.call('POST', `/api/${resource}?endpoint=${operation}`, {
      id: randomUUID(),
      workspaceId: me.workspaceId,
      ...body,
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body;
  };
  const portal = (method: string, url: string, body?: unknown) => session.call(method, url, body);
  const read = (query = '') =>
    portal('GET', `/api/client-portal?endpoint=get-chat-messages&projectId=${projectId}${query}`);
  const send = (body: Json) =>
    portal('POST', '/api/client-portal?endpoint=send-chat-message', {
      id: randomUUID(),
      projectId,
      ...body,
    });
  const setChat = (chatEnabled: boolean) =>
    me.call('PATCH', `/api/project?endpoint=update-portal-access&id=${projectId}`, {
      enabled: true,
      chatEnabled,
    });
  const messageCount = async () =>
    Number(
      (
        await me.t.db.query<{ n: string }>(
          'SELECT count(*) AS n FROM chat_message WHERE project_id = $1',
          [projectId],
        )
      ).rows[0]!.n,
    );

  beforeAll(async () => {
    me = await createRegisteredUserApp({ publicUrl: 'https://satchel.example' });
    clientId = (await create('client', 'create-client', { name: 'Acme' })).client.id;
    projectId = (await create('project', 'create-project', { clientId, name: 'Site' })).project.id;
    otherProjectId = (await create('project', 'create-project', { clientId, name: 'App' })).project
      .id;
    session = await openPortalSession(me, projectId);
  });
  afterAll(async () => {
    await me.t.cleanup();
  });

  it('is off until a member turns it on: nothing shown, nothing stored', async () => {
    const access = await me.call('GET', `/api/project?endpoint=get-portal-access&id=${projectId}`);
    expect(access.body.portal.chatEnabled).toBe(false);
    await create('chat-message', 'create-chat-message', { projectId, text: 'Internal note' });
    expect((await read()).body).toEqual({ enabled: false, messages: [], hasOlder: false });
    const refused = await send({ text: 'Hello?' });
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toMatch(/not turned on/);
    expect(await messageCount()).toBe(1);
  });

  it('shows the members’ messages by name and takes the client’s, once per id', async () => {
    const on = await setChat(true);
    expect(on.status).toBe(200);
    expect(on.body.portal).toMatchObject({ enabled: true, chatEnabled: true, hasPassword: true });

    const before = await read();
    expect(before.body.enabled).toBe(true);
    expect(before.body.messages).toEqual([
      expect.objectContaining({ text: 'Internal note', authorKind: 'member', authorName: 'Ada' }),
    ]);
    // Members appear by name only.
    expect(JSON.stringify(before.body)).not.toContain(me.user.id);

    const id = randomUUID();
    const sent = await send({ id, text: '  Can we move the launch?  ' });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body.message).toMatchObject({
      id,
      text: 'Can we move the launch?',
      authorKind: 'client',
      authorName: 'Acme',
    });
    const again = await send({ id, text: 'Can we move the launch?' });
    expect(again.status).toBe(200);
    expect(again.body.message.seq).toBe(sent.body.message.seq);
    expect(await messageCount()).toBe(2);

    const stored = await me.t.db.query<Json>(
      'SELECT workspace_id, project_id, author_kind, author_name, created_by FROM chat_message WHERE id = $1',
      [id],
    );
    expect(stored.rows[0]).toEqual({
      workspace_id: me.workspaceId,
      project_id: projectId,
      author_kind: 'client',
      author_name: 'Acme',
      created_by: clientId,
    });
    // The member's devices pull it like any message: its change is in the workspace's log.
    const logged = await me.t.db.query<Json>(
      'SELECT table_name FROM change_log WHERE workspace_id = $1 AND entity_id = $2',
      [me.workspaceId, id],
    );
    expect(logged.rows).toHaveLength(1);
    const notified = await me.t.db.query<Json>(
      "SELECT title FROM notification WHERE user_id = $1 AND type = 'chat-message'",
      [me.user.id],
    );
    expect(notified.rows.map((row) => row.title)).toEqual(['Acme wrote in Site']);

    const list = await read();
    expect(list.body.messages.map((message: Json) => message.text)).toEqual([
      'Internal note',
      'Can we move the launch?',
    ]);
  });

  it('refuses bad text, a taken id and another project, storing nothing', async () => {
    const count = await messageCount();
    expect((await send({ text: '   ' })).status).toBe(400);
    // Invisible control characters are stripped, as from every text of the contract.
    const pasted = await send({ text: 'a\u0000b' });
    expect(pasted.body.message?.text).toBe('ab');
    expect((await send({ text: 'x'.repeat(10_001) })).status).toBe(400);
    const memberMessageId = randomUUID();
    await create('chat-message', 'create-chat-message', {
      id: memberMessageId,
      projectId,
      text: 'Mine',
    });
    const taken = await send({ id: memberMessageId, text: 'Hijack' });
    expect(taken.status).toBe(409);
    const other = await portal('POST', '/api/client-portal?endpoint=send-chat-message', {
      id: randomUUID(),
      projectId: otherProjectId,
      text: 'Wrong project',
    });
    expect(other.status).toBe(403);
    const otherRead = await portal(
      'GET',
      `/api/client-portal?endpoint=get-chat-messages&projectId=${otherProjectId}`,
    );
    expect(otherRead.status).toBe(403);
    expect(await messageCount()).toBe(count + 2);
    const noCookie = await me.t.app.request(
      '/api/client-portal?endpoint=send-chat-message',
      jsonRequest('POST', { id: randomUUID(), projectId, text: 'No session' }),
    );
    expect(noCookie.status).toBe(401);
  });

  it('pages back through a long conversation, oldest first within a page', async () => {
    for (let i = 0; i < PORTAL_CHAT_PAGE + 5; i++) {
      expect((await send({ text: `Message ${i}` })).status).toBe(200);
    }
    const newest = await read();
    expect(newest.body.messages).toHaveLength(PORTAL_CHAT_PAGE);
    expect(newest.body.hasOlder).toBe(true);
    expect(newest.body.messages.at(-1).text).toBe(`Message ${PORTAL_CHAT_PAGE + 4}`);
    const seqs = newest.body.messages.map((message: Json) => message.seq);
    expect(seqs).toEqual([...seqs].sort((a: number, b: number) => a - b));
    const older = await read(`&before=${seqs[0]}`);
    expect(older.body.hasOlder).toBe(false);
    expect(older.body.messages.at(-1).seq).toBeLessThan(seqs[0]);
    expect(older.body.messages[0].text).toBe('Internal note');
    expect((await read('&before=abc')).status).toBe(400);
  });

  it('turned off again: the client reads nothing and cannot write', async () => {
    expect((await setChat(false)).status).toBe(200);
    expect((await read()).body.enabled).toBe(false);
    expect((await send({ text: 'Still there?' })).status).toBe(403);
  });
});
