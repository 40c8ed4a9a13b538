// Stored notifications (spec section 7 shapes), ownership, and the hub pushes after each change.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEnv } from '../../server/env.ts';
import { createTestTokens } from '../fixtures/test-tokens.ts';
import {
  call,
  collect,
  connectAndJoin,
  registerMember,
  sleep,
  startHubServer,
  type HubServer,
  type Member,
  type Tokens,
} from './realtime-harness.ts';

const api = (operation: string, extra = '') => `/api/notifications?endpoint=${operation}${extra}`;

describe('notifications', () => {
  let tokens: Tokens;
  let server: HubServer;
  let ada: Member;
  let bob: Member;

  beforeAll(async () => {
    tokens = await createTestTokens();
    server = await startHubServer({ tokens });
    ada = await registerMember(server, tokens, 'ada');
    bob = await registerMember(server, tokens, 'bob');
  });
  afterAll(async () => {
    await server.stop();
  });

  const send = (member: Member) =>
    call(server, api('send-test-notification'), { method: 'POST', token: member.token });

  it('stores per user, lists newest first in pages, counts unread; another user’s id is a 404', async () => {
    const created: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const { status, body } = await send(ada);
      expect(status).toBe(201);
      created.push(body.notification.id);
    }
    const { body: first } = await send(ada);
    expect(first.notification).toEqual({
      id: expect.any(String),
      type: 'test',
      title: 'Test notification',
      body: expect.any(String),
      link: '/notifications',
      isRead: false,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      actor: null,
      workspaceId: null,
      projectId: null,
    });
    created.push(first.notification.id);

    const list = await call(server, api('get-notifications', '&page=1&limit=50'), {
      token: ada.token,
    });
    expect(list.status).toBe(200);
    expect(Object.keys(list.body)).toEqual(['notifications']);
    expect(list.body.notifications.map((n: { id: string }) => n.id)).toEqual(
      [...created].reverse(),
    );
    const page2 = await call(server, api('get-notifications', '&page=2&limit=3'), {
      token: ada.token,
    });
    expect(page2.body.notifications.map((n: { id: string }) => n.id)).toEqual([created[0]]);
    expect(
      (await call(server, api('get-notifications', '&limit=500'), { token: ada.token })).status,
    ).toBe(400);
    expect((await call(server, api('get-notifications'), { token: bob.token })).body).toEqual({
      notifications: [],
    });

    expect((await call(server, api('get-unread-count'), { token: ada.token })).body).toEqual({
      unreadCount: 4,
    });
    const target = created[1]!;
    // Bob cannot read, mark or delete Ada's notification, and learns nothing about it.
    for (const [method, operation] of [
      ['PUT', 'mark-read'],
      ['DELETE', 'delete-notification'],
    ] as const) {
      const refused = await call(server, api(operation, `&id=${target}`), {
        method,
        token: bob.token,
      });
      expect(refused.status).toBe(404);
      expect(refused.body.error.code).toBe('NOT_FOUND');
    }
    expect(
      (await call(server, api('mark-all-read'), { method: 'PUT', token: bob.token })).body,
    ).toEqual({ unreadCount: 0 });
    expect(
      (await call(server, api('delete-all-notifications'), { method: 'DELETE', token: bob.token }))
        .body,
    ).toEqual({ unreadCount: 0 });
    expect((await call(server, api('get-unread-count'), { token: ada.token })).body).toEqual({
      unreadCount: 4,
    });

    expect(
      (await call(server, api('mark-read', `&id=${target}`), { method: 'PUT', token: ada.token }))
        .body,
    ).toEqual({ unreadCount: 3 });
    expect(
      (await call(server, api('mark-read', `&id=${target}`), { method: 'PUT', token: ada.token }))
        .body,
    ).toEqual({ unreadCount: 3 });
    expect(
      (
        await call(server, api('delete-notification', `&id=${created[0]}`), {
          method: 'DELETE',
          token: ada.token,
        })
      ).body,
    ).toEqual({ unreadCount: 2 });
    expect(
      (await call(server, api('mark-all-read'), { method: 'PUT', token: ada.token })).body,
    ).toEqual({ unreadCount: 0 });
    expect(
      (await call(server, api('delete-all-notifications'), { method: 'DELETE', token: ada.token }))
        .body,
    ).toEqual({ unreadCount: 0 });
    expect((await call(server, api('get-notifications'), { token: ada.token })).body).toEqual({
      notifications: [],
    });
  });

  it('pushes notificationReceived and notificationCountUpdated to the owner’s user group only', async () => {
    const adaConn = await connectAndJoin(server, ada);
    const bobConn = await connectAndJoin(server, bob);
    const received = collect(adaConn, 'notificationReceived');
    const counts = collect(adaConn, 'notificationCountUpdated');
    const bobEvents = [
      ...collect(bobConn, 'notificationReceived'),
      ...collect(bobConn, 'notificationCountUpdated'),
    ];

    const { body } = await send(ada);
    await expect.poll(() => counts).toEqual([{ unreadCount: 1 }]);
    expect(received).toEqual([{ notification: body.notification }]);
    await send(ada);
    await expect.poll(() => counts.at(-1)).toEqual({ unreadCount: 2 });
    await call(server, api('mark-read', `&id=${body.notification.id}`), {
      method: 'PUT',
      token: ada.token,
    });
    await expect.poll(() => counts.at(-1)).toEqual({ unreadCount: 1 });
    await call(server, api('mark-all-read'), { method: 'PUT', token: ada.token });
    await expect.poll(() => counts.at(-1)).toEqual({ unreadCount: 0 });
    await call(server, api('delete-all-notifications'), { method: 'DELETE', token: ada.token });
    await expect.poll(() => counts).toHaveLength(5);
    expect(received).toHaveLength(2);
    await sleep(100);
    expect(bobEvents).toEqual([]);
    await Promise.all([adaConn.stop(), bobConn.stop()]);
  });

  it('createNotification pushes only after commit, and names the actor', async () => {
    const adaConn = await connectAndJoin(server, ada);
    const received = collect(adaConn, 'notificationReceived');
    const store = server.realtime.notifications;

    // Rolled back: the dispatcher never runs the effects of a failed transaction.
    const dropped: (() => Promise<void>)[] = [];
    await expect(
      server.db.transaction(async (tx) => {
        await store.createNotification(
          { tx, afterCommit: (effect) => dropped.push(effect) },
          { userId: ada.user.id, type: 'mentioned', title: 'Never seen' },
        );
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');

    const effects: (() => Promise<void>)[] = [];
    const created = await server.db.transaction((tx) =>
      store.createNotification(
        { tx, afterCommit: (effect) => effects.push(effect) },
        {
          userId: ada.user.id,
          type: 'task-assigned',
          title: 'Bob assigned you a task',
          body: 'Draft the proposal',
          link: `/workspace/${ada.workspaceId}`,
          actorId: bob.user.id,
          workspaceId: ada.workspaceId,
        },
      ),
    );
    await sleep(50);
    expect(received).toEqual([]); // committed, but effects not yet run
    for (const effect of effects) await effect();
    await expect.poll(() => received).toEqual([{ notification: created }]);
    expect(created.actor).toEqual({
      id: bob.user.id,
      firstName: 'bob',
      lastName: 'Test',
      profilePictureUrl: null,
    });
    expect(created.workspaceId).toBe(ada.workspaceId);
    const list = await call(server, api('get-notifications'), { token: ada.token });
    expect(list.body.notifications.map((n: { title: string }) => n.title)).not.toContain(
      'Never seen',
    );

    // Links are app paths only.
    await expect(
      server.db.transaction((tx) =>
        store.createNotification(
          { tx, afterCommit: () => {} },
          { userId: ada.user.id, type: 'test', title: 'x', link: 'https://evil.example' },
        ),
      ),
    ).rejects.toThrow(/app path/);
    await adaConn.stop();
  });

  it('publishTablesInvalidated reaches only that workspace’s group', async () => {
    const adaConn = await connectAndJoin(server, ada, { workspace: true });
    const bobConn = await connectAndJoin(server, bob, { workspace: true });
    const adaSeen = collect(adaConn, 'tablesInvalidated');
    const bobSeen = collect(bobConn, 'tablesInvalidated');
    const change = {
      workspaceId: bob.workspaceId,
      tables: ['projects', 'clients'],
      seq: 42,
      originClientId: null,
    };
    await server.realtime.publisher.publishTablesInvalidated(change);
    await expect.poll(() => bobSeen).toEqual([change]);
    await sleep(100);
    expect(adaSeen).toEqual([]);
    await Promise.all([adaConn.stop(), bobConn.stop()]);
  });
});

describe('real-time configuration', () => {
  it('reads REDIS_URL, REDIS_PREFIX and HUB_ALLOWED_ORIGINS', () => {
    expect(parseEnv({}).realtime).toEqual({ redis: null, allowedOrigins: [] });
    expect(
      parseEnv({
        REDIS_URL: 'redis://127.0.0.1:6379',
        REDIS_PREFIX: 'prod-eu:',
        HUB_ALLOWED_ORIGINS: 'http://localhost:5173, https://app.example.com',
      }).realtime,
    ).toEqual({
      redis: { url: 'redis://127.0.0.1:6379', prefix: 'prod-eu:' },
      allowedOrigins: ['http://localhost:5173', 'https://app.example.com'],
    });
    expect(() => parseEnv({ REDIS_URL: 'http://x' })).toThrow(/REDIS_URL/);
  });
});
