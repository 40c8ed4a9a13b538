// Who may connect to the hub and join which group: identity always comes from a verified token,
// never from x-user-id, x-workspace-id or body fields.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createHubTokens,
  loadHubTokenSecret,
  type HubTokens,
} from '../../server/realtime/hub-tokens.ts';
import { createTestTokens } from '../fixtures/test-tokens.ts';
import {
  buildConnection,
  call,
  connectionInfo,
  joinGroup,
  negotiate,
  openRaw,
  registerMember,
  startHubServer,
  type HubServer,
  type Member,
  type Tokens,
} from './realtime-harness.ts';

describe('real-time security', () => {
  let tokens: Tokens;
  let hubTokens: HubTokens;
  let server: HubServer;
  let ada: Member;
  let eve: Member;

  beforeAll(async () => {
    tokens = await createTestTokens();
    server = await startHubServer({ tokens });
    hubTokens = createHubTokens({ secret: await loadHubTokenSecret(server.db) });
    ada = await registerMember(server, tokens, 'ada');
    eve = await registerMember(server, tokens, 'eve');
  });
  afterAll(async () => {
    await server.stop();
  });

  const connect = (
    member: Member,
    headers: Record<string, string>,
    path = '/api/signalr/notification-connect',
  ) => call(server, path, { method: 'POST', token: member.token, headers });

  it('notification-connect answers both spellings and checks the claim headers against the token', async () => {
    const ok = await connect(ada, { 'x-user-id': ada.user.id, 'x-workspace-id': ada.workspaceId });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({
      url: 'http://localhost:8080/hubs/notifications',
      accessToken: expect.any(String),
    });
    const queryForm = await connect(
      ada,
      { 'x-user-id': ada.user.id },
      '/api/signalr?endpoint=notification-connect',
    );
    expect(queryForm.status).toBe(200);
    // No claims at all is fine (the token says who); an empty workspace header claims nothing.
    expect((await connect(ada, { 'x-workspace-id': '' })).status).toBe(200);

    const forged = await connect(eve, { 'x-user-id': ada.user.id });
    expect(forged.status).toBe(403);
    expect(forged.body.error.message).toMatch(/x-user-id/);
    const forgedQueryForm = await connect(
      eve,
      { 'x-user-id': ada.user.id },
      '/api/signalr?endpoint=notification-connect',
    );
    expect(forgedQueryForm.status).toBe(403);
    const foreignWorkspace = await connect(eve, {
      'x-user-id': eve.user.id,
      'x-workspace-id': ada.workspaceId,
    });
    expect(foreignWorkspace.status).toBe(403);
    const disagree = await call(
      server,
      `/api/signalr?endpoint=notification-connect&userId=${eve.user.id}`,
      { method: 'POST', token: eve.token, headers: { 'x-user-id': ada.user.id } },
    );
    expect(disagree.status).toBe(400);
    expect(
      (await call(server, '/api/signalr/notification-connect', { method: 'POST' })).status,
    ).toBe(401);
    expect(
      (await call(server, '/api/signalr/no-such-operation', { method: 'POST', token: ada.token }))
        .status,
    ).toBe(404);
  });

  it('join-notification-group: only your own live connection, your own user, your own workspace', async () => {
    const adaConn = buildConnection(server, ada);
    await adaConn.start();
    const id = adaConn.connectionId!;

    // Eve names herself but Ada's connection.
    const stolen = await joinGroup(server, eve, id, 'user', eve.workspaceId);
    expect(stolen.status).toBe(403);
    // Eve claims to be Ada.
    const asAda = await call(server, '/api/signalr/join-notification-group', {
      method: 'POST',
      token: eve.token,
      body: {
        userId: ada.user.id,
        workspaceId: ada.workspaceId,
        connectionId: id,
        groupType: 'workspace',
      },
    });
    expect(asAda.status).toBe(403);
    // Ada into Eve's workspace, with either group type.
    expect((await joinGroup(server, ada, id, 'workspace', eve.workspaceId)).status).toBe(403);
    expect((await joinGroup(server, ada, id, 'user', eve.workspaceId)).status).toBe(403);
    // Unknown connection, missing workspace for the workspace group.
    expect((await joinGroup(server, ada, 'no-such-connection', 'user')).status).toBe(404);
    expect((await joinGroup(server, ada, id, 'workspace', null)).status).toBe(400);
    // And the legitimate joins, including the user group without a workspace.
    expect((await joinGroup(server, ada, id, 'user', null)).status).toBe(200);
    expect((await joinGroup(server, ada, id, 'workspace')).status).toBe(200);
    await adaConn.stop();
    expect((await joinGroup(server, ada, id, 'user')).status).toBe(404);
  });

  it('refuses an expired hub token at negotiate and at the upgrade', async () => {
    const expired = await hubTokens.sign(ada.user.id, -60);
    const neg = await negotiate(server, expired);
    expect(neg.status).toBe(401);
    expect(neg.body.error.message).toMatch(/expired/);
    const connection = buildConnection(server, ada, {
      accessToken: () => Promise.resolve(expired),
    });
    await expect(connection.start()).rejects.toThrow(/401/);

    const { accessToken } = await connectionInfo(server, ada);
    const { body } = await negotiate(server, accessToken);
    const raw = openRaw(server, { id: body.connectionToken, access_token: expired });
    expect(await raw.opened).toBe(401);
  });

  it('refuses a hub token used for another user’s connection, or as an API token', async () => {
    const ada1 = await connectionInfo(server, ada);
    const { body } = await negotiate(server, ada1.accessToken);
    const eveToken = (await connectionInfo(server, eve)).accessToken;
    const raw = openRaw(server, { id: body.connectionToken, access_token: eveToken });
    expect(await raw.opened).toBe(403);
    const header = openRaw(
      server,
      { id: body.connectionToken },
      { headers: { Authorization: `Bearer ${eveToken}` } },
    );
    expect(await header.opened).toBe(403);
    const none = openRaw(server, { id: body.connectionToken });
    expect(await none.opened).toBe(401);
    // The hub token is not an API token (other key, other audience).
    const api = await call(server, '/api/notifications?endpoint=get-unread-count', {
      token: ada1.accessToken,
    });
    expect(api.status).toBe(401);
    // A foreign key's token with a valid shape is refused too.
    const forged = createHubTokens({ secret: new Uint8Array(32).fill(7) });
    expect((await negotiate(server, await forged.sign(ada.user.id))).status).toBe(401);
  });

  it('caps the connections one user may hold on a process', async () => {
    const mallory = await registerMember(server, tokens, 'mallory');
    const { accessToken } = await connectionInfo(server, mallory);
    const answers = await Promise.all(
      Array.from({ length: 101 }, () => negotiate(server, accessToken)),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(100);
    const refused = answers.find((a) => a.status !== 200);
    expect(refused?.status).toBe(429);
    // Others are not affected.
    expect((await negotiate(server, (await connectionInfo(server, ada)).accessToken)).status).toBe(
      200,
    );
  });
});
