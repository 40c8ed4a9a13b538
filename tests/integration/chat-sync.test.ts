// Project chat through the real sync engine and Dexie (fake-indexeddb) against the in-process
// server (PGlite): two members of one workspace (the second brought in by an invitation), each on
// their own device, write messages with the chat's own write (src/data/chat.ts). One is offline
// while she writes; the other's message reaches the server first; once both have synced, both
// devices hold the same messages in the server's order (seq), and sending the offline batch again
// changes nothing anywhere.
import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/data/client-mutations.ts';
import { createProject } from '../../src/data/project-mutations.ts';
import { chatMessageWrites, readChatWindow } from '../../src/data/chat.ts';
import type { AppDatabase } from '../../src/db/app-database.ts';
import { jsonRequest } from '../fixtures/create-test-app.ts';
import { createSyncDevices, type SyncDevice, type SyncDevices } from '../fixtures/sync-devices.ts';
import { bearer, newTestUser, type TestUser } from '../fixtures/test-tokens.ts';

type Json = Record<string, any>;

describe('chat through the sync engine on two members’ devices', () => {
  let devices: SyncDevices;

  beforeAll(async () => {
    devices = await createSyncDevices();
  });
  afterEach(() => devices.closeAll());
  afterAll(async () => {
    await devices.cleanup();
  });

  const request = async (user: TestUser, method: string, path: string, body: unknown) => {
    const response = await devices.t.app.request(
      path,
      jsonRequest(method, body, bearer(await devices.sign(user))),
    );
    return { status: response.status, body: (await response.json()) as Json };
  };

  /** Ada's workspace (on Agency, so it takes a second member) with Bob brought in by invitation. */
  async function twoMembers() {
    const ada = newTestUser('ada');
    const bob = newTestUser('bob');
    const ws = await devices.register(ada);
    await devices.register(bob);
    await devices.t.db.query(
      `INSERT INTO workspace_subscription (workspace_id, plan_id, billing_interval, status,
         stripe_customer_id, stripe_subscription_id)
       VALUES ($1, 'agency', 'month', 'active', 'cus_test', $2)`,
      [ws, `sub_${randomUUID()}`],
    );
    const invite = await request(
      ada,
      'POST',
      `/api/workspace-invite?endpoint=create-workspace-invite&workspaceId=${ws}`,
      { role: 'member', maxUses: 1 },
    );
    expect(invite.status).toBe(201);
    const url = invite.body.url as string;
    const accepted = await request(
      bob,
      'POST',
      '/api/workspace-invite?endpoint=accept-workspace-invite',
      { token: url.slice(url.lastIndexOf('/') + 1) },
    );
    expect(accepted.status).toBe(200);
    return { ada, bob, ws };
  }

  /** A chat message as the composer writes it (chat-tab.tsx's submit). */
  const write = (d: SyncDevice, ws: string, projectId: string, text: string) =>
    chatMessageWrites.create(d.ctx, {
      workspaceId: ws,
      projectId,
      text,
      mentions: [],
      replyToId: null,
      attachmentFileIds: [],
    });

  /** The device's chat as the tab shows it, and the raw table rows in [projectId+seq] order. */
  async function chatOn(db: AppDatabase, projectId: string) {
    const shown = (await readChatWindow(db, projectId, 50)).messages.map((message) => ({
      id: message.id,
      text: message.text,
      seq: message.seq,
      createdBy: message.createdBy,
    }));
    const stored = await db.chatMessages
      .where('[projectId+seq]')
      .between([projectId, 0], [projectId, Number.MAX_SAFE_INTEGER])
      .toArray();
    return { shown, stored };
  }

  const serverMessages = async (projectId: string) =>
    (
      await devices.t.db.query<{ id: string; text: string; seq: string; created_by: string }>(
        'SELECT id, text, seq, created_by FROM chat_message WHERE project_id = $1 ORDER BY seq',
        [projectId],
      )
    ).rows.map((row) => ({
      id: row.id,
      text: row.text,
      seq: Number(row.seq),
      createdBy: row.created_by,
    }));

  const changeLogCount = async (ws: string) =>
    Number(
      (
        await devices.t.db.query<{ n: string }>(
          'SELECT count(*) AS n FROM change_log WHERE workspace_id = $1',
          [ws],
        )
      ).rows[0]?.n,
    );

  it('orders an offline member’s messages after the one sent meanwhile, the same on both devices, exactly once', async () => {
    const { ada, bob, ws } = await twoMembers();
    const adas = await devices.device(ada, [ws]);
    const bobs = await devices.device(bob, [ws]);

    // Ada makes the project online; Bob's device pulls it (a message needs its project here).
    const client = await createClient(adas.ctx, { workspaceId: ws, name: 'Acme' });
    const project = await createProject(adas.ctx, {
      workspaceId: ws,
      clientId: client.id,
      name: 'Site',
    });
    await adas.engine.syncNow();
    await bobs.engine.syncNow();
    expect(await bobs.db.projects.get(project.id)).toMatchObject({ name: 'Site' });
    adas.pushes.length = 0;

    // Ada goes offline and writes two messages: shown at once, unsent (seq 0), queued.
    adas.network.online = false;
    const a1 = await write(adas, ws, project.id, 'Ada offline one');
    const a2 = await write(adas, ws, project.id, 'Ada offline two');
    await adas.engine.syncNow();
    expect(adas.engine.getStatus()).toMatchObject({ state: 'offline', waiting: 2, failed: 0 });
    expect(adas.pushes).toHaveLength(0);
    expect((await chatOn(adas.db, project.id)).shown).toEqual([
      { id: a1.id, text: 'Ada offline one', seq: 0, createdBy: ada.id },
      { id: a2.id, text: 'Ada offline two', seq: 0, createdBy: ada.id },
    ]);
    expect(await serverMessages(project.id)).toEqual([]);

    // Bob, online, writes after her (by the clock) and his message reaches the server first.
    const b1 = await write(bobs, ws, project.id, 'Bob online');
    expect(b1.createdAt >= a2.createdAt).toBe(true);
    await bobs.engine.syncNow();
    expect(bobs.engine.getStatus()).toMatchObject({ waiting: 0, failed: 0 });
    const [bobOnServer] = await serverMessages(project.id);
    expect(bobOnServer).toMatchObject({ id: b1.id, text: 'Bob online', createdBy: bob.id });

    // Ada comes back: her two messages go out in one push, then both devices catch up.
    adas.network.online = true;
    await adas.engine.syncNow();
    expect(adas.engine.getStatus()).toMatchObject({ state: 'idle', waiting: 0, failed: 0 });
    expect(adas.pushes).toHaveLength(1);
    await bobs.engine.syncNow();

    const server = await serverMessages(project.id);
    expect(server.map((message) => message.id)).toEqual([b1.id, a1.id, a2.id]);
    const seqs = server.map((message) => message.seq);
    expect(seqs[0]).toBeGreaterThan(0);
    expect(seqs).toEqual([...seqs].sort((x, y) => x - y));
    expect(new Set(seqs).size).toBe(3);

    for (const d of [adas, bobs]) {
      const { shown, stored } = await chatOn(d.db, project.id);
      // The tab's order and the table's [projectId+seq] order are both the server's.
      expect(shown).toEqual(server);
      expect(stored.map((row) => [row.id, row.seq, row._pending, row._deleted])).toEqual(
        server.map((message) => [message.id, message.seq, 0, false]),
      );
      expect(await d.db.outbox.count()).toBe(0);
      expect(await d.db.syncIssues.count()).toBe(0);
    }

    // The same batch sent again (a replay after a lost answer): answered as before, applied never.
    const logBefore = await changeLogCount(ws);
    const snapshot = async () => ({
      ada: (await chatOn(adas.db, project.id)).stored,
      bob: (await chatOn(bobs.db, project.id)).stored,
    });
    const before = await snapshot();
    const [sent] = adas.pushes;
    const first = JSON.parse(
      await (await devices.t.app.request(sent!.input, sent!.init)).text(),
    ) as Json;
    const sentBody = JSON.parse(sent!.init!.body as string) as Json;
    expect(sentBody.mutations.map((m: Json) => m.body.id)).toEqual([a1.id, a2.id]);
    expect(first.results.map((r: Json) => [r.status, r.seq])).toEqual([
      [200, server[1]!.seq],
      [200, server[2]!.seq],
    ]);
    expect(first.results.map((r: Json) => r.body.chatMessage.id)).toEqual([a1.id, a2.id]);
    expect(await serverMessages(project.id)).toEqual(server);
    expect(await changeLogCount(ws)).toBe(logBefore);
    await adas.engine.syncNow();
    await bobs.engine.syncNow();
    expect(await snapshot()).toEqual(before);
  });
});
