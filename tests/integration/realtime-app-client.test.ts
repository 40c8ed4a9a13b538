// The app's own hub client (src/realtime/create-notification-hub.ts, over the real
// @microsoft/signalr) and the app's API client against the in-process server: what the other
// realtime tests do by hand (joins, re-joins) is here done by the code the PWA runs, including
// its own retries taking over once SignalR's automatic reconnect has given up.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Notification } from '#contract/entities/notification.ts';
import { sendTestNotification } from '#contract/endpoints/notifications.ts';
import { joinNotificationGroup, notificationConnect } from '#contract/endpoints/signalr.ts';
import { createApiClient } from '../../src/api-client/call-endpoint.ts';
import {
  createNotificationHub,
  type HubConnectionState,
  type TablesInvalidated,
} from '../../src/realtime/create-notification-hub.ts';
import { createTestTokens } from '../fixtures/test-tokens.ts';
import {
  createMigratedDb,
  HUB_PATH,
  registerMember,
  sleep,
  startHubServer,
  type Tokens,
} from './realtime-harness.ts';

describe('the app’s notification hub client against the server', () => {
  let tokens: Tokens;
  beforeAll(async () => {
    tokens = await createTestTokens();
  });

  it('joins its groups, hands on typed pushes, and comes back after a restart with its groups', async () => {
    const db = await createMigratedDb();
    let server = await startHubServer({ tokens, db });
    const member = await registerMember(server, tokens, 'dana');
    const other = await registerMember(server, tokens, 'eli');
    const api = createApiClient({
      baseUrl: server.url,
      getAccessToken: () => Promise.resolve(member.token),
    });
    const userId = member.user.id;

    const notifications: Notification[] = [];
    const counts: number[] = [];
    const invalidations: TablesInvalidated[] = [];
    const states: HubConnectionState[] = [];
    let reconnected = 0;
    let tokensIssued = 0;
    const hub = createNotificationHub({
      hubUrl: `${server.url}${HUB_PATH}`,
      userId,
      getHubToken: async () => {
        tokensIssued += 1;
        return (await api.callEndpoint(notificationConnect, { query: { userId } })).accessToken;
      },
      joinGroup: async (join) => {
        await api.callEndpoint(joinNotificationGroup, { query: {}, body: join });
      },
      onNotification: (notification) => notifications.push(notification),
      onUnreadCount: (count) => counts.push(count),
      onTablesInvalidated: (message) => invalidations.push(message),
      onStateChange: (state) => states.push(state),
      onReconnected: () => {
        reconnected += 1;
      },
      // Small delays: SignalR's reconnect is spent in 150 ms, then the steady retry takes over.
      timings: {
        reconnectDelaysMs: [0, 50, 100],
        connectRetryDelayMs: 50,
        steadyRetryMs: 200,
        connectionTimeoutMs: 5_000,
        serverTimeoutMs: 2_000,
        keepAliveIntervalMs: 100,
      },
      environment: null,
      isOnline: () => true,
    });

    await expect.poll(() => hub.getState()).toBe('connected');
    // Workspace groups may arrive later (the first pull): joined on the live connection.
    hub.setWorkspaces([member.workspaceId]);
    await expect.poll(() => tokensIssued).toBeGreaterThanOrEqual(1);

    const sent = await api.callEndpoint(sendTestNotification, { query: {} });
    await expect.poll(() => notifications.map((n) => n.id)).toEqual([sent.notification.id]);
    await expect.poll(() => counts).toEqual([1]);

    const change = {
      workspaceId: member.workspaceId,
      tables: ['clients'],
      seq: 7,
      originClientId: null,
    };
    // The workspace join is under way: publish until one arrives. Another user's workspace,
    // published first on the same socket each time, never reaches this client.
    await expect
      .poll(async () => {
        await server.realtime.publisher.publishTablesInvalidated({
          ...change,
          workspaceId: other.workspaceId,
        });
        await server.realtime.publisher.publishTablesInvalidated(change);
        return invalidations.length > 0;
      })
      .toBe(true);
    expect(invalidations[0]).toEqual(change);
    expect(invalidations.every((m) => m.workspaceId === member.workspaceId)).toBe(true);

    // Down for longer than SignalR's own reconnect lasts.
    const port = server.port;
    const issuedBefore = tokensIssued;
    await server.stop();
    await expect.poll(() => hub.getState()).toBe('reconnecting');
    await sleep(600);
    server = await startHubServer({ tokens, db, port });

    await expect.poll(() => hub.getState(), { timeout: 10_000 }).toBe('connected');
    expect(reconnected).toBe(1);
    // A fresh hub token for the new connection, not the old one replayed.
    expect(tokensIssued).toBeGreaterThan(issuedBefore);

    // Groups joined again on the new connection: pushes reach it.
    const again = await api.callEndpoint(sendTestNotification, { query: {} });
    await expect
      .poll(() => notifications.map((n) => n.id))
      .toEqual([sent.notification.id, again.notification.id]);
    await expect.poll(() => counts).toEqual([1, 2]);
    invalidations.length = 0;
    await server.realtime.publisher.publishTablesInvalidated({ ...change, seq: 8 });
    await expect.poll(() => invalidations).toEqual([{ ...change, seq: 8 }]);

    await hub.stop();
    expect(hub.getState()).toBe('disconnected');
    expect(states).toEqual([
      'connecting',
      'connected',
      'reconnecting',
      'connected',
      'disconnected',
    ]);
    await server.stop();
    await db.close();
  });
});
