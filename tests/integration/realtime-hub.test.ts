// Conformance of /hubs/notifications with the unmodified @microsoft/signalr client
// (../shared/research/protocols.md B14), plus raw-`ws` checks of what the client cannot show:
// the browser's access_token form, batching, record limits, pings, Origin.
import {
  DefaultHttpClient,
  HubConnectionBuilder,
  HubConnectionState,
  JsonHubProtocol,
  NullLogger,
  TransferFormat,
  type HttpRequest,
  type IHubProtocol,
  type HttpResponse,
} from '@microsoft/signalr';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HubMethodError } from '../../server/realtime/notification-hub.ts';
import { createTestTokens } from '../fixtures/test-tokens.ts';
import {
  buildConnection,
  collect,
  connectAndJoin,
  connectionInfo,
  createMigratedDb,
  HUB_PATH,
  joinGroup,
  negotiate,
  openRaw,
  PUBLIC_URL,
  registerMember,
  sleep,
  startHubServer,
  steadyRetry,
  type HubServer,
  type Member,
  type Tokens,
} from './realtime-harness.ts';

describe('notification hub: SignalR protocol with the real client', () => {
  let tokens: Tokens;
  let server: HubServer;
  let ada: Member;
  let bob: Member;
  const recorded: unknown[] = [];

  beforeAll(async () => {
    tokens = await createTestTokens();
    server = await startHubServer({
      tokens,
      methods: {
        Echo: ({ args }) => args[0],
        Record: ({ args }) => {
          recorded.push(args[0]);
        },
        Fail: () => {
          throw new HubMethodError('No can do.');
        },
      },
    });
    ada = await registerMember(server, tokens, 'ada');
    bob = await registerMember(server, tokens, 'bob');
  });
  afterAll(async () => {
    await server.stop();
  });

  it('negotiates v1; the client uses the connectionId, the token stays secret', async () => {
    const { accessToken, url } = await connectionInfo(server, ada);
    expect(url).toBe(`${PUBLIC_URL}${HUB_PATH}`);
    const raw = await negotiate(server, accessToken);
    expect(raw.status).toBe(200);
    expect(raw.body).toEqual({
      negotiateVersion: 1,
      connectionId: expect.any(String),
      connectionToken: expect.any(String),
      availableTransports: [{ transport: 'WebSockets', transferFormats: ['Text'] }],
    });
    expect(raw.body.connectionToken).not.toBe(raw.body.connectionId);

    const negotiated: any[] = [];
    class RecordingClient extends DefaultHttpClient {
      override async send(request: HttpRequest): Promise<HttpResponse> {
        const response = await super.send(request);
        if (request.url?.includes('/negotiate?')) {
          negotiated.push(JSON.parse(response.content as string));
        }
        return response;
      }
    }
    const recording = new HubConnectionBuilder()
      .withUrl(`${server.url}${HUB_PATH}`, {
        accessTokenFactory: () => accessToken,
        httpClient: new RecordingClient(NullLogger.instance),
      })
      .configureLogging(NullLogger.instance)
      .build();
    await recording.start();
    expect(negotiated).toHaveLength(1);
    expect(recording.connectionId).toBe(negotiated[0].connectionId);
    expect(await recording.invoke('echo', { hello: 'world' })).toEqual({ hello: 'world' });
    await recording.stop();
    expect(recording.state).toBe(HubConnectionState.Disconnected);
  });

  it('refuses a negotiate without a hub token, or with an API token', async () => {
    expect((await negotiate(server, null)).status).toBe(401);
    const apiToken = await negotiate(server, ada.token);
    expect(apiToken.status).toBe(401);
    expect(apiToken.body.error.message).toMatch(/not valid/);
  });

  it('answers a wrong protocol with a handshake error that start() reports', async () => {
    // A client asking for MessagePack (same JSON framing, another protocol name).
    const json = new JsonHubProtocol();
    const messagepack: IHubProtocol = {
      name: 'messagepack',
      version: 1,
      transferFormat: TransferFormat.Text,
      parseMessages: (input, logger) => json.parseMessages(input as string, logger),
      writeMessage: (message) => json.writeMessage(message),
    };
    const { accessToken: token } = await connectionInfo(server, ada);
    const connection = new HubConnectionBuilder()
      .withUrl(`${server.url}${HUB_PATH}`, { accessTokenFactory: () => token })
      .withHubProtocol(messagepack)
      .configureLogging(NullLogger.instance)
      .build();
    await expect(connection.start()).rejects.toThrow(
      "Server returned handshake error: Requested protocol 'messagepack' is not available.",
    );

    const { accessToken } = await connectionInfo(server, ada);
    const { body } = await negotiate(server, accessToken);
    const raw = openRaw(server, { id: body.connectionToken, access_token: accessToken });
    expect(await raw.opened).toBe(101);
    raw.send({ protocol: 'json', version: 3 });
    expect(await raw.waitFor((r) => 'error' in r)).toEqual({
      error: "The server does not support version 3 of the 'json' protocol.",
    });
    await raw.closed;
  });

  it('invokes hub methods case-insensitively and reports errors like ASP.NET', async () => {
    const connection = await connectAndJoin(server, ada);
    expect(await connection.invoke('ECHO', 42)).toBe(42);
    await expect(connection.invoke('Fail')).rejects.toThrow('No can do.');
    await expect(connection.invoke('Nope')).rejects.toThrow("Unknown hub method 'Nope'");
    // Client batching: both sends leave in one frame; both are processed, no reply is sent.
    recorded.length = 0;
    void connection.send('record', 1);
    void connection.send('record', 2);
    await expect.poll(() => recorded).toEqual([1, 2]);
    await connection.stop();
  });

  it('keeps an idle connection up with pings, past several client and server timeouts', async () => {
    const connection = buildConnection(server, ada, {
      serverTimeoutMs: 300,
      keepAliveMs: 100,
      reconnect: steadyRetry(50, 5),
    });
    const drops: string[] = [];
    connection.onreconnecting(() => drops.push('reconnecting'));
    connection.onclose(() => drops.push('closed'));
    await connection.start();
    const id = connection.connectionId;
    await sleep(1_500); // server timeout 300 ms, hub client timeout 400 ms
    expect(drops).toEqual([]);
    expect(connection.state).toBe(HubConnectionState.Connected);
    expect(connection.connectionId).toBe(id);
    await connection.stop();
  });

  it('pings a silent peer, then closes it allowing reconnect', async () => {
    const { accessToken } = await connectionInfo(server, ada);
    const { body } = await negotiate(server, accessToken);
    const raw = openRaw(server, { id: body.connectionToken, access_token: accessToken });
    await raw.opened;
    raw.send({ protocol: 'json', version: 1 });
    await raw.waitFor((r) => Object.keys(r).length === 0);
    await raw.waitFor((r) => r.type === 6);
    const close = await raw.waitFor((r) => r.type === 7, 2_000);
    expect(close).toEqual({
      type: 7,
      error: expect.stringMatching(/Nothing was received/),
      allowReconnect: true,
    });
    expect(await raw.closed).toBe(1000);
  });

  it('Close without allowReconnect ends the client for good', async () => {
    const connection = await connectAndJoin(server, ada, { reconnect: steadyRetry(50, 5) });
    const events: string[] = [];
    connection.onreconnecting(() => events.push('reconnecting'));
    const closed = new Promise<Error | undefined>((resolve) => connection.onclose(resolve));
    expect(
      server.realtime.hub.closeConnections(
        { connectionId: connection.connectionId! },
        { error: 'Signed out everywhere.', allowReconnect: false },
      ),
    ).toBe(1);
    expect((await closed)?.message).toBe(
      'Server returned an error on close: Signed out everywhere.',
    );
    await sleep(200);
    expect(events).toEqual([]);
    expect(connection.state).toBe(HubConnectionState.Disconnected);
  });

  it('Close with allowReconnect makes the client reconnect with a new connectionId', async () => {
    const connection = await connectAndJoin(server, ada, { reconnect: steadyRetry(50, 5) });
    const first = connection.connectionId!;
    const reconnecting = new Promise<Error | undefined>((r) => connection.onreconnecting(r));
    const reconnected = new Promise<string | undefined>((r) => connection.onreconnected(r));
    server.realtime.hub.closeConnections({ connectionId: first }, { allowReconnect: true });
    await reconnecting;
    const second = await reconnected;
    expect(second).toBeTruthy();
    expect(second).not.toBe(first);
    // Memberships ended with the old connection; the old id is gone for good.
    expect((await joinGroup(server, ada, first, 'user')).status).toBe(404);
    expect((await joinGroup(server, ada, second!, 'user')).status).toBe(200);
    await connection.stop();
  });

  it('sends to a group reach its members only', async () => {
    const adaBoth = await connectAndJoin(server, ada, { workspace: true });
    const adaUnjoined = buildConnection(server, ada);
    await adaUnjoined.start();
    const bobConn = await connectAndJoin(server, bob, { workspace: true });
    const seen = {
      adaBoth: collect(adaBoth, 'tablesInvalidated'),
      adaUnjoined: collect(adaUnjoined, 'tablesInvalidated'),
      bob: collect(bobConn, 'tablesInvalidated'),
      bobCounts: collect(bobConn, 'notificationCountUpdated'),
      adaCounts: collect(adaBoth, 'notificationCountUpdated'),
    };
    await server.realtime.publisher.publishTablesInvalidated({
      workspaceId: ada.workspaceId,
      tables: ['clients'],
      seq: 7,
      originClientId: 'device-ada-1',
    });
    await server.realtime.publisher.notificationCountUpdated(ada.user.id, 3);
    await expect.poll(() => seen.adaCounts).toEqual([{ unreadCount: 3 }]);
    expect(seen.adaBoth).toEqual([
      { workspaceId: ada.workspaceId, tables: ['clients'], seq: 7, originClientId: 'device-ada-1' },
    ]);
    await sleep(100);
    expect(seen.adaUnjoined).toEqual([]);
    expect(seen.bob).toEqual([]);
    expect(seen.bobCounts).toEqual([]);
    await Promise.all([adaBoth.stop(), adaUnjoined.stop(), bobConn.stop()]);
  });

  it('serves the browser form: access_token in the query, several records per frame', async () => {
    const { accessToken } = await connectionInfo(server, ada);
    const { body } = await negotiate(server, accessToken);
    const raw = openRaw(server, { id: body.connectionToken, access_token: accessToken });
    expect(await raw.opened).toBe(101);
    // Handshake, a ping and an invocation in one frame; then a record split across two frames.
    raw.send(
      { protocol: 'json', version: 1 },
      { type: 6 },
      {
        type: 1,
        invocationId: '0',
        target: 'echo',
        arguments: ['one frame'],
      },
    );
    expect(await raw.waitFor((r) => r.type === 3 && r.invocationId === '0')).toEqual({
      type: 3,
      invocationId: '0',
      result: 'one frame',
    });
    expect(JSON.parse(raw.records[0]!)).toEqual({});
    const split = JSON.stringify({
      type: 1,
      invocationId: '1',
      target: 'echo',
      arguments: ['split'],
    });
    raw.ws.send(split.slice(0, 20));
    raw.ws.send(`${split.slice(20)}\x1e`);
    expect((await raw.waitFor((r) => r.invocationId === '1')).result).toBe('split');

    expect((await joinGroup(server, ada, body.connectionId, 'user')).status).toBe(200);
    await server.realtime.publisher.notificationCountUpdated(ada.user.id, 9);
    expect(await raw.waitFor((r) => r.type === 1)).toEqual({
      type: 1,
      target: 'notificationCountUpdated',
      arguments: [{ unreadCount: 9 }],
    });
    raw.send({ type: 7 });
    expect(await raw.closed).toBe(1000);
  });

  it('refuses records over 32 KiB with a Close error', async () => {
    const { accessToken } = await connectionInfo(server, ada);
    const { body } = await negotiate(server, accessToken);
    const raw = openRaw(server, { id: body.connectionToken, access_token: accessToken });
    await raw.opened;
    raw.send({ protocol: 'json', version: 1 });
    await raw.waitFor((r) => Object.keys(r).length === 0);
    raw.send({ type: 1, target: 'echo', arguments: ['x'.repeat(33 * 1024)] });
    expect(await raw.waitFor((r) => r.type === 7)).toEqual({
      type: 7,
      error: 'Connection closed with an error. The maximum message size of 32768B was exceeded.',
    });
    await raw.closed;
  });

  it('checks Origin, unknown and reused connection tokens on the upgrade', async () => {
    const { accessToken } = await connectionInfo(server, ada);
    const evil = await negotiate(server, accessToken, { Origin: 'https://evil.example' });
    expect(evil.status).toBe(403);
    const { body } = await negotiate(server, accessToken, { Origin: PUBLIC_URL });
    const fromEvil = openRaw(
      server,
      { id: body.connectionToken, access_token: accessToken },
      { headers: { Origin: 'https://evil.example' } },
    );
    expect(await fromEvil.opened).toBe(403);
    const unknown = openRaw(server, { id: 'no-such-token', access_token: accessToken });
    expect(await unknown.opened).toBe(404);
    const first = openRaw(
      server,
      { id: body.connectionToken, access_token: accessToken },
      { headers: { Origin: PUBLIC_URL } },
    );
    expect(await first.opened).toBe(101);
    const second = openRaw(server, { id: body.connectionToken, access_token: accessToken });
    expect(await second.opened).toBe(409);
    first.ws.close();
    await first.closed;
  });

  it('on shutdown tells clients to reconnect; they come back to the restarted server and re-join', async () => {
    const db = await createMigratedDb();
    let first = await startHubServer({ tokens, db });
    const carol = await registerMember(first, tokens, 'carol');
    const connection = buildConnection(first, carol, { reconnect: steadyRetry(100, 60) });
    const rejoined: string[] = [];
    // What the app does after every reconnect: join its groups again with the new id.
    const rejoin = async (id: string) => {
      const user = await joinGroup(first, carol, id, 'user');
      const ws = await joinGroup(first, carol, id, 'workspace');
      rejoined.push(`${user.status}/${ws.status}`);
    };
    connection.onreconnected((id) => void rejoin(id!));
    const counts = collect(connection, 'notificationCountUpdated');
    await connection.start();
    await joinGroup(first, carol, connection.connectionId!, 'user');

    const { accessToken } = await connectionInfo(first, carol);
    const neg = await negotiate(first, accessToken);
    const raw = openRaw(first, { id: neg.body.connectionToken, access_token: accessToken });
    await raw.opened;
    raw.send({ protocol: 'json', version: 1 });
    await raw.waitFor((r) => Object.keys(r).length === 0);

    const port = first.port;
    await first.stop();
    expect(await raw.waitFor((r) => r.type === 7)).toEqual({
      type: 7,
      error: 'Server is shutting down.',
      allowReconnect: true,
    });
    expect(connection.state).not.toBe(HubConnectionState.Connected);

    first = await startHubServer({ tokens, db, port });
    await expect.poll(() => rejoined, { timeout: 10_000 }).toEqual(['200/200']);
    expect(connection.state).toBe(HubConnectionState.Connected);
    await first.realtime.publisher.notificationCountUpdated(carol.user.id, 1);
    await expect.poll(() => counts).toEqual([{ unreadCount: 1 }]);
    await connection.stop();
    await first.stop();
    await db.close();
  });
});
