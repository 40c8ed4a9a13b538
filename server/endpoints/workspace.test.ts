import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, jsonRequest, type TestApp } from '../../tests/fixtures/create-test-app.ts';
import {
  bearer,
  createTestTokens,
  newTestUser,
  type TestUser,
} from '../../tests/fixtures/test-tokens.ts';

describe('users and workspaces', () => {
  let t: TestApp;
  let tokens: Awaited<ReturnType<typeof createTestTokens>>;

  beforeAll(async () => {
    tokens = await createTestTokens();
    t = await createTestApp({ verifyAccessToken: tokens.verifyAccessToken });
  });
  afterAll(async () => {
    await t.cleanup();
  });

  async function call(user: TestUser, method: string, url: string, body?: unknown) {
    const headers = bearer(await tokens.sign(user));
    const response = await t.app.request(
      url,
      body === undefined ? { method, headers } : jsonRequest(method, body, headers),
    );
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  }

  async function register(user: TestUser, names = { firstName: 'Ada', lastName: 'Lovelace' }) {
    return call(user, 'POST', '/api/register?endpoint=register-user', {
      id: user.id,
      email: user.email,
      ...names,
      profilePictureUrl: null,
    });
  }

  it('registers a user with an owned workspace, idempotently', async () => {
    const ada = newTestUser('ada');
    expect((await call(ada, 'GET', '/api/workspace?endpoint=get-owned-workspace-id')).body).toEqual(
      { workspaceId: null, memberOf: [] },
    );

    const first = await register(ada);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      ok: true,
      data: { workspace: { name: "Ada's workspace", currency: 'USD' } },
    });
    const again = await register(ada, { firstName: 'Other', lastName: 'Name' });
    expect(again.body.data.workspace.id).toBe(first.body.data.workspace.id);

    const owned = await call(ada, 'GET', '/api/workspace?endpoint=get-owned-workspace-id');
    expect(owned.body).toEqual({
      workspaceId: first.body.data.workspace.id,
      memberOf: [first.body.data.workspace.id],
    });
  });

  it('keeps one workspace when two registrations race', async () => {
    const grace = newTestUser('grace');
    const [a, b] = await Promise.all([register(grace), register(grace)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.data.workspace.id).toBe(b.body.data.workspace.id);
    const { rows } = await t.db.query('SELECT id FROM workspace WHERE owner_id = $1', [grace.id]);
    expect(rows).toHaveLength(1);
  });

  it("refuses to register someone else's id or email", async () => {
    const ada = newTestUser('ada');
    const other = newTestUser('other');
    const wrongId = await call(ada, 'POST', '/api/register?endpoint=register-user', {
      id: other.id,
      email: ada.email,
    });
    expect(wrongId.status).toBe(403);
    const wrongEmail = await call(ada, 'POST', '/api/register?endpoint=register-user', {
      id: ada.id,
      email: other.email,
    });
    expect(wrongEmail.status).toBe(403);
    expect(
      (await t.db.query('SELECT 1 FROM user_profile WHERE id = $1', [ada.id])).rows,
    ).toHaveLength(0);
  });

  it('lists members and settings only for members, and lets owner and admin change settings', async () => {
    const owner = newTestUser('owner');
    const admin = newTestUser('admin');
    const member = newTestUser('member');
    const stranger = newTestUser('stranger');
    const workspaceId = (await register(owner)).body.data.workspace.id as string;
    for (const [user, role] of [
      [admin, 'admin'],
      [member, 'member'],
    ] as const) {
      await register(user, { firstName: role, lastName: 'Person' });
      await t.db.query(
        'INSERT INTO workspace_member (workspace_id, user_id, role) VALUES ($1, $2, $3)',
        [workspaceId, user.id, role],
      );
    }
    await register(stranger);

    const members = await call(
      member,
      'GET',
      `/api/workspace?endpoint=get-workspace-members&workspaceId=${workspaceId}`,
    );
    expect(members.status).toBe(200);
    expect(members.body.members.map((m: { role: string }) => m.role)).toEqual([
      'owner',
      'admin',
      'member',
    ]);
    expect(members.body.members[0]).toMatchObject({
      id: owner.id,
      email: owner.email,
      firstName: 'Ada',
    });

    for (const url of [
      `/api/workspace?endpoint=get-workspace-members&workspaceId=${workspaceId}`,
      `/api/workspace?endpoint=get-workspace-settings&workspaceId=${workspaceId}`,
    ]) {
      const denied = await call(stranger, 'GET', url);
      expect(denied.status).toBe(403);
      expect(JSON.stringify(denied.body)).not.toContain(owner.email);
    }

    const patch = `/api/workspace?endpoint=update-workspace-settings&workspaceId=${workspaceId}`;
    expect((await call(member, 'PATCH', patch, { name: 'Mine now' })).status).toBe(403);
    const updated = await call(admin, 'PATCH', patch, {
      name: 'Studio Ada',
      brandColor: '#A0522D',
      settings: { weekStartsOn: 1 },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.workspace).toMatchObject({
      name: 'Studio Ada',
      brandColor: '#A0522D',
      settings: { weekStartsOn: 1 },
    });
    const merged = await call(owner, 'PATCH', patch, {
      settings: { theme: 'dark' },
      timeZone: 'Europe/Paris',
    });
    expect(merged.body.workspace.settings).toEqual({ weekStartsOn: 1, theme: 'dark' });

    const invalid = await call(owner, 'PATCH', patch, {
      brandColor: 'red',
      timeZone: 'Mars/Base',
      currency: 'euro',
    });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.details.map((d: { path: string }) => d.path).sort()).toEqual([
      'body.brandColor',
      'body.currency',
      'body.timeZone',
    ]);
    const empty = await call(owner, 'PATCH', patch, {});
    expect(empty.status).toBe(400);
  });

  it('lets a user change only their own profile and see only co-members', async () => {
    const ada = newTestUser('ada');
    const bob = newTestUser('bob');
    await register(ada);
    await register(bob);
    const own = await call(ada, 'PATCH', `/api/user?endpoint=update-user-profile&id=${ada.id}`, {
      firstName: 'Augusta',
      profilePictureUrl: 'https://img.example.com/a.png',
    });
    expect(own.body.user).toEqual({
      id: ada.id,
      email: ada.email,
      firstName: 'Augusta',
      lastName: 'Lovelace',
      profilePictureUrl: 'https://img.example.com/a.png',
    });
    expect(
      (
        await call(ada, 'PATCH', `/api/user?endpoint=update-user-profile&id=${bob.id}`, {
          firstName: 'X',
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await call(ada, 'PATCH', `/api/user?endpoint=update-user-profile&id=${ada.id}`, {
          profilePictureUrl: 'javascript:alert(1)',
        })
      ).status,
    ).toBe(400);

    expect(
      (await call(ada, 'GET', `/api/user?endpoint=get-user-profile&id=${ada.id}`)).status,
    ).toBe(200);
    expect(
      (await call(ada, 'GET', `/api/user?endpoint=get-user-profile&id=${bob.id}`)).status,
    ).toBe(404);
    const adaWorkspace = (await call(ada, 'GET', '/api/workspace?endpoint=get-owned-workspace-id'))
      .body.workspaceId as string;
    await t.db.query(
      "INSERT INTO workspace_member (workspace_id, user_id, role) VALUES ($1, $2, 'member')",
      [adaWorkspace, bob.id],
    );
    expect(
      (await call(ada, 'GET', `/api/user?endpoint=get-user-profile&id=${bob.id}`)).body.user.id,
    ).toBe(bob.id);
  });
});
