// Project chat through the real HTTP server and hub, on PGlite and on PostgreSQL: messages in the
// server's order (seq set by the database), paging backwards, edits and deletes by the author only
// (shown as edited or deleted), mentions of members only and their notifications, replies and
// attachments within the project, reactions and read markers, the bad input the issue lists, and
// live delivery of each committed message to the other member's open @microsoft/signalr client.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatReadId } from '../../contract/entities/chat.ts';
import type { Database } from '../../server/db/database.ts';
import { runMigrations } from '../../server/db/migrate.ts';
import { createPostgresDatabase } from '../../server/db/postgres-database.ts';
import { commitFileRecord } from '../fixtures/file-records.ts';
import { createScratchDatabase } from '../fixtures/scratch-postgres.ts';
import { createTestTokens } from '../fixtures/test-tokens.ts';
import {
  call,
  collect,
  connectAndJoin,
  FAST_TIMINGS,
  joinGroup,
  registerMember,
  sleep,
  startHubServer,
  type HubServer,
  type Member,
} from './realtime-harness.ts';

type Json = Record<string, any>;

async function until<T>(read: () => T | undefined, timeoutMs = 3_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error('timed out waiting');
    await sleep(10);
  }
}

export function describeChat(label: string, options: { postgresUrl?: string }) {
  describe(`chat on ${label}`, { timeout: 60_000 }, () => {
    let server: HubServer;
    let ada: Member;
    let bob: Member;
    let eve: Member;
    let workspaceId: string;
    let projectId: string;
    let otherProjectId: string;
    let drop: (() => Promise<void>) | null = null;

    const as = (member: Member, method: string, path: string, body?: unknown) =>
      call(server, path, { method, token: member.token, ...(body === undefined ? {} : { body }) });
    const send = (member: Member, body: Json) =>
      as(member, 'POST', '/api/chat-message?endpoint=create-chat-message', {
        id: randomUUID(),
        workspaceId,
        projectId,
        ...body,
      });
    const edit = (member: Member, id: string, body: Json) =>
      as(member, 'PATCH', `/api/chat-message?endpoint=update-chat-message&id=${id}`, body);
    const list = async (query = '') =>
      (
        await as(
          ada,
          'GET',
          `/api/chat-message?endpoint=get-chat-messages&projectId=${projectId}${query}`,
        )
      ).body.messages as Json[];

    beforeAll(async () => {
      const tokens = await createTestTokens();
      let db: Database | undefined;
      if (options.postgresUrl) {
        const scratch = await createScratchDatabase(options.postgresUrl);
        drop = () => scratch.drop();
        db = await createPostgresDatabase({ connectionString: scratch.url });
        await runMigrations(db);
      }
      // Fast pings, but a client stays connected through a busy machine's pauses (no test here
      // is about timeouts; a connection dropped by a 400 ms stall would lose its live rows).
      server = await startHubServer({
        tokens,
        timings: { ...FAST_TIMINGS, clientTimeoutMs: 10_000, handshakeTimeoutMs: 5_000 },
        ...(db ? { db } : {}),
      });
      ada = await registerMember(server, tokens, 'ada');
      bob = await registerMember(server, tokens, 'bob');
      eve = await registerMember(server, tokens, 'eve');
      workspaceId = ada.workspaceId;
      await server.db.query(
        "INSERT INTO workspace_member (workspace_id, user_id, role) VALUES ($1, $2, 'member')",
        [workspaceId, bob.user.id],
      );
      const create = async (resource: string, operation: string, body: Json) =>
        (
          await as(ada, 'POST', `/api/${resource}?endpoint=${operation}`, {
            id: randomUUID(),
            workspaceId,
            ...body,
          })
        ).body;
      const clientId = (await create('client', 'create-client', { name: 'Acme' })).client.id;
      projectId = (await create('project', 'create-project', { clientId, name: 'Site' })).project
        .id;
      otherProjectId = (await create('project', 'create-project', { clientId, name: 'App' }))
        .project.id;
    });
    afterAll(async () => {
      await server.stop();
      if (drop) {
        await server.db.close();
        await drop();
      }
    });

    it('orders messages by the server’s sequence and pages back from the newest', async () => {
      const texts = ['one', 'two', 'three', 'four', 'five'];
      const sent: Json[] = [];
      for (const [index, text] of texts.entries()) {
        const { status, body } = await send(index % 2 === 0 ? ada : bob, { text: ` ${text} ` });
        expect(status).toBe(200);
        sent.push(body.chatMessage);
      }
      expect(sent[0]).toMatchObject({
        text: 'one',
        mentions: [],
        replyToId: null,
        attachmentFileIds: [],
        deleted: false,
        editedAt: null,
        authorKind: 'member',
        createdBy: ada.user.id,
      });
      // seq is the create's change-log position: increasing, and equal to its version.
      const seqs = sent.map((message) => message.seq as number);
      expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
      expect(new Set(seqs).size).toBe(5);
      expect(sent.every((message) => message.seq === message.version)).toBe(true);

      expect((await list()).map((message) => message.text)).toEqual(texts);
      const newest = await list('&limit=2');
      expect(newest.map((message) => message.text)).toEqual(['four', 'five']);
      const before = await list(`&limit=2&before=${newest[0]?.seq}`);
      expect(before.map((message) => message.text)).toEqual(['two', 'three']);
      expect((await list(`&before=${seqs[0]}`)).length).toBe(0);
      expect(
        (
          await as(
            ada,
            'GET',
            `/api/chat-message?endpoint=get-chat-messages&projectId=${projectId}&limit=501`,
          )
        ).status,
      ).toBe(400);
    });

    it('lets only the author edit or delete; an edit is stamped and keeps the order, a delete keeps the place', async () => {
      const { body } = await send(ada, { text: 'Draft' });
      const message = body.chatMessage as Json;
      const notYours = await edit(bob, message.id, { text: 'Hijacked' });
      expect(notYours.status).toBe(403);
      expect(notYours.body.error.message).toMatch(/only your own messages/);
      expect(
        (await as(bob, 'DELETE', `/api/chat-message?endpoint=delete-chat-message&id=${message.id}`))
          .status,
      ).toBe(403);

      const edited = await edit(ada, message.id, { text: 'Final' });
      expect(edited.status).toBe(200);
      expect(edited.body.chatMessage).toMatchObject({ text: 'Final', seq: message.seq });
      expect(Date.parse(edited.body.chatMessage.editedAt)).not.toBeNaN();
      expect(edited.body.chatMessage.version).toBeGreaterThan(message.version);

      const deleted = await edit(ada, message.id, { deleted: true });
      expect(deleted.body.chatMessage).toMatchObject({
        deleted: true,
        text: '',
        mentions: [],
        seq: message.seq,
      });
      const again = await edit(ada, message.id, { text: 'Back' });
      expect(again.status).toBe(422);
      expect((await edit(ada, message.id, { deleted: false })).status).toBe(400);
      const stored = (await list()).find((row) => row.id === message.id);
      expect(stored).toMatchObject({ deleted: true, text: '' });
    });

    it('refuses bad input with a clear 4xx and stores nothing', async () => {
      const count = (await list('&limit=500')).length;
      const long = await send(ada, { text: 'x'.repeat(100_000) });
      expect(long.status).toBe(400);
      expect(long.body.error.details).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ path: 'body.text', message: expect.stringMatching(/10,000/) }),
        ]),
      );
      expect((await send(ada, { text: '   ' })).status).toBe(400);
      const stranger = await send(ada, { text: 'Hi @Eve', mentions: [eve.user.id] });
      expect(stranger.status).toBe(422);
      expect(stranger.body.error.details).toEqual([
        { path: 'body.mentions.0', message: 'Not a member of this workspace' },
      ]);
      const elsewhere = (
        await as(ada, 'POST', '/api/chat-message?endpoint=create-chat-message', {
          id: randomUUID(),
          workspaceId,
          projectId: otherProjectId,
          text: 'In the app project',
        })
      ).body.chatMessage as Json;
      const crossReply = await send(ada, { text: 'Re', replyToId: elsewhere.id });
      expect(crossReply.status).toBe(422);
      expect(crossReply.body.error.details[0].path).toBe('body.replyToId');
      const badFile = await send(ada, { text: 'See', attachmentFileIds: [randomUUID()] });
      expect(badFile.status).toBe(422);
      expect(badFile.body.error.details[0].path).toBe('body.attachmentFileIds.0');
      // Another workspace's member cannot write here, nor read.
      expect((await send(eve, { text: 'Let me in' })).status).toBe(403);
      expect(
        (
          await as(
            eve,
            'GET',
            `/api/chat-message?endpoint=get-chat-messages&projectId=${projectId}`,
          )
        ).status,
      ).toBe(404);
      expect((await list('&limit=500')).length).toBe(count);
    });

    it('attaches a file of the project: stored, read back and listed with the message', async () => {
      const { fileId } = await commitFileRecord(server.db, {
        actorId: ada.user.id,
        projectId,
        name: 'brief.txt',
      });
      const elsewhere = await commitFileRecord(server.db, {
        actorId: ada.user.id,
        projectId: otherProjectId,
        name: 'other.txt',
      });
      const created = await send(ada, {
        text: 'The brief',
        attachmentFileIds: [fileId, fileId],
      });
      expect(created.status).toBe(200);
      const message = created.body.chatMessage as Json;
      expect(message.attachmentFileIds).toEqual([fileId]);

      const read = await as(
        ada,
        'GET',
        `/api/chat-message?endpoint=get-chat-message&id=${message.id}`,
      );
      expect(read.status).toBe(200);
      expect(read.body.chatMessage).toMatchObject({
        id: message.id,
        text: 'The brief',
        attachmentFileIds: [fileId],
      });
      const listed = (await list('&limit=500')).find((row) => row.id === message.id);
      expect(listed).toMatchObject({ attachmentFileIds: [fileId], seq: message.seq });

      // A file of another project of the same workspace is refused, naming the entry.
      const crossFile = await send(ada, {
        text: 'Wrong one',
        attachmentFileIds: [fileId, elsewhere.fileId],
      });
      expect(crossFile.status).toBe(422);
      expect(crossFile.body.error.details[0].path).toBe('body.attachmentFileIds.1');
    });

    it('notifies a mentioned member live, once, and replies stay in the project', async () => {
      const connection = await connectAndJoin(server, bob);
      const received = collect(connection, 'notificationReceived');
      try {
        const first = await send(ada, { text: 'Hi @Bob' });
        const reply = await send(ada, {
          text: '@Bob see above',
          mentions: [bob.user.id, bob.user.id, ada.user.id],
          replyToId: first.body.chatMessage.id,
        });
        expect(reply.status).toBe(200);
        expect(reply.body.chatMessage.mentions).toEqual([bob.user.id, ada.user.id]);
        const note = await until(() => received[0]);
        expect(note.notification).toMatchObject({
          type: 'mentioned',
          title: 'ada Test mentioned you in Site',
          body: '@Bob see above',
          projectId,
          link: expect.stringMatching(new RegExp(`^/projects/${projectId}/[^/]+\\?tab=chat$`)),
        });
        // Editing the text again does not tell Bob twice; adding nobody new notifies nobody.
        await edit(ada, reply.body.chatMessage.id, { text: '@Bob see above!' });
        await sleep(150);
        expect(received).toHaveLength(1);
      } finally {
        await connection.stop();
      }
    });

    it('keeps one reaction per member and emoji, removed by its member only', async () => {
      const message = (await send(bob, { text: 'Shipped' })).body.chatMessage as Json;
      const react = (member: Member, emoji: string, project = projectId) =>
        as(member, 'POST', '/api/chat-message?endpoint=create-chat-reaction', {
          id: randomUUID(),
          workspaceId,
          messageId: message.id,
          projectId: project,
          emoji,
        });
      const liked = await react(ada, '👍');
      expect(liked.status).toBe(200);
      expect((await react(ada, '👍')).status).toBe(409);
      expect((await react(ada, '🦄')).status).toBe(400);
      expect((await react(ada, '🎉', otherProjectId)).status).toBe(422);
      expect((await react(bob, '👍')).status).toBe(200);
      const id = liked.body.chatReaction.id as string;
      expect(
        (await as(bob, 'DELETE', `/api/chat-message?endpoint=delete-chat-reaction&id=${id}`))
          .status,
      ).toBe(403);
      expect(
        (await as(ada, 'DELETE', `/api/chat-message?endpoint=delete-chat-reaction&id=${id}`))
          .status,
      ).toBe(200);
      const left = await as(
        ada,
        'GET',
        `/api/chat-message?endpoint=get-chat-reactions&messageId=${message.id}`,
      );
      expect(left.body.chatReactions.map((row: Json) => row.createdBy)).toEqual([bob.user.id]);
    });

    it('keeps a read marker per member with a derived id that only moves forward', async () => {
      const create = (member: Member, id: string, lastReadSeq: number) =>
        as(member, 'POST', '/api/chat?endpoint=create-chat-read', {
          id,
          workspaceId,
          projectId,
          lastReadSeq,
        });
      expect((await create(bob, randomUUID(), 3)).status).toBe(422);
      expect((await create(bob, chatReadId(projectId, ada.user.id), 3)).status).toBe(422);
      const id = chatReadId(projectId, bob.user.id);
      expect((await create(bob, id, 10)).status).toBe(200);
      // A second device starting the same marker moves it (forward only), never a conflict.
      const again = await create(bob, id, 7);
      expect(again.status).toBe(200);
      expect(again.body.chatRead.lastReadSeq).toBe(10);
      const back = await as(bob, 'PATCH', `/api/chat?endpoint=update-chat-read&id=${id}`, {
        lastReadSeq: 4,
      });
      expect(back.body.chatRead.lastReadSeq).toBe(10);
      const on = await as(bob, 'PATCH', `/api/chat?endpoint=update-chat-read&id=${id}`, {
        lastReadSeq: 12,
      });
      expect(on.body.chatRead.lastReadSeq).toBe(12);
      expect(
        (
          await as(ada, 'PATCH', `/api/chat?endpoint=update-chat-read&id=${id}`, {
            lastReadSeq: 99,
          })
        ).status,
      ).toBe(403);
    });

    it('pushes each committed message to the other member’s open hub connection (rowsChanged)', async () => {
      const bobs = await connectAndJoin(server, bob);
      // Bob's connection joins the workspace he is a member of (Ada's), as the app does.
      expect(
        (await joinGroup(server, bob, bobs.connectionId ?? '', 'workspace', workspaceId)).status,
      ).toBe(200);
      const rows = collect<Json>(bobs, 'rowsChanged');
      try {
        const sentAt = Date.now();
        const sent = (await send(ada, { text: 'Live?' })).body.chatMessage as Json;
        const pushed = await until(() => rows.find((change) => change.rows[0]?.id === sent.id));
        expect(Date.now() - sentAt).toBeLessThan(3_000);
        expect(pushed).toEqual({ workspaceId, table: 'chatMessages', rows: [sent] });
        await edit(ada, sent.id, { text: 'Live!' });
        const edited = await until(() =>
          rows.find((change) => change.rows[0]?.id === sent.id && change.rows[0]?.text === 'Live!'),
        );
        expect(edited.rows[0].seq).toBe(sent.seq);
        // A message that failed is never pushed.
        await send(ada, { text: 'x'.repeat(10_001) });
        await sleep(100);
        expect(rows.every((change) => change.rows[0]?.text !== 'x'.repeat(10_001))).toBe(true);
      } finally {
        await bobs.stop();
      }
    });

    it('delivers a pushed batch live to both members’ SignalR clients, sender included, in the server’s order', async () => {
      // Both members' open apps are in the workspace's group; Eve's is in her own workspace's.
      const patient = { serverTimeoutMs: 10_000 };
      const adas = await connectAndJoin(server, ada, { ...patient, workspace: true });
      const bobs = await connectAndJoin(server, bob, patient);
      const eves = await connectAndJoin(server, eve, { ...patient, workspace: true });
      expect(
        (await joinGroup(server, bob, bobs.connectionId ?? '', 'workspace', workspaceId)).status,
      ).toBe(200);
      const toAda = collect<Json>(adas, 'rowsChanged');
      const toBob = collect<Json>(bobs, 'rowsChanged');
      const toEve = collect<Json>(eves, 'rowsChanged');
      try {
        // Ada's device sends its outbox as the app does: one push of two creates.
        const ids = [randomUUID(), randomUUID()];
        const pushed = await as(ada, 'POST', '/api/sync?endpoint=push', {
          clientId: `device-${randomUUID()}`,
          mutations: ['First live', 'Second live'].map((text, index) => ({
            mutationId: randomUUID(),
            clientSeq: index + 1,
            resource: 'chat-message',
            operation: 'create-chat-message',
            body: { id: ids[index], workspaceId, projectId, text },
          })),
        });
        expect(pushed.status).toBe(200);
        expect(pushed.body.results.map((result: Json) => result.status)).toEqual([200, 200]);
        const stored = (await list('&limit=500')).filter((row) => ids.includes(row.id));
        expect(stored.map((row) => row.text)).toEqual(['First live', 'Second live']);

        const ours = (seen: Json[]) =>
          seen.filter((change) => change.rows.some((row: Json) => ids.includes(row.id)));
        for (const seen of [toBob, toAda]) {
          await until(() => (ours(seen).length >= 2 ? true : undefined));
          // Each committed row as the server stored it (with its seq), in the server's order.
          expect(ours(seen)).toEqual(
            stored.map((row) => ({ workspaceId, table: 'chatMessages', rows: [row] })),
          );
        }
        await sleep(100);
        expect(ours(toEve)).toEqual([]);
        expect(toEve).toEqual([]);
      } finally {
        await Promise.all([adas.stop(), bobs.stop(), eves.stop()]);
      }
    });
  });
}
