import { describe, expect, it } from 'vitest';
import { createAppDatabase, type AppDatabase } from '../db/app-database.ts';
import {
  countUnread,
  countUnreadByProject,
  nextChatRange,
  readChatWindow,
  type ChatRange,
  type ChatWindow,
} from './chat.ts';
import { chatMessageRow, chatReadRow } from './chat-test-fakes.ts';

const WS = '0190a000-0000-7000-8000-000000000001';
const OTHER_WS = '0190a000-0000-7000-8000-000000000002';
const ME = 'u1';
const BOB = 'u2';

const message = (
  projectId: string,
  seq: number,
  extra: { createdBy?: string; deleted?: boolean; _deleted?: boolean; workspaceId?: string } = {},
) =>
  chatMessageRow(projectId, seq, {
    ...extra,
    workspaceId: extra.workspaceId ?? WS,
    createdBy: extra.createdBy ?? BOB,
  });

const marker = (projectId: string, userId: string, lastReadSeq: number) =>
  chatReadRow(WS, projectId, userId, lastReadSeq);

function database(): AppDatabase {
  return createAppDatabase(ME, { name: `test-${crypto.randomUUID()}` });
}

describe('countUnreadByProject', () => {
  it('counts others’ live messages above the member’s own marker, per project', async () => {
    const db = database();
    await db.chatMessages.bulkPut([
      // Read up to 10: 5 is read; 11 and 12 count; own, deleted and locally deleted ones never do.
      message('read', 5),
      message('read', 11),
      message('read', 12),
      message('read', 13, { createdBy: ME }),
      message('read', 14, { deleted: true }),
      message('read', 15, { _deleted: true }),
      // No marker of mine (Bob's own marker is his): every message of others counts.
      message('never', 3),
      message('never', 4),
      message('never', 7, { createdBy: ME }),
      // Only mine, or not sent yet (seq 0): nothing.
      message('mine', 8, { createdBy: ME }),
      message('mine', 0, { createdBy: ME }),
      // Another workspace's project.
      message('elsewhere', 9, { workspaceId: OTHER_WS }),
    ]);
    await db.chatReads.bulkPut([marker('read', ME, 10), marker('never', BOB, 100)]);

    const counts = await countUnreadByProject(db, WS, ME);
    expect(Object.fromEntries(counts)).toEqual({ read: 2, never: 2 });
    // The tab's count is the same function's.
    for (const projectId of ['read', 'never', 'mine'])
      expect(await countUnread(db, projectId, ME)).toBe(counts.get(projectId) ?? 0);
  });

  it('counts hundreds of projects (several slices of ranges), each above its own marker', async () => {
    const db = database();
    const projectIds = Array.from({ length: 300 }, (_, i) => `p${String(i).padStart(4, '0')}`);
    await db.chatMessages.bulkPut(
      projectIds.flatMap((projectId, i) => [
        message(projectId, i * 10 + 1),
        message(projectId, i * 10 + 2),
        message(projectId, i * 10 + 3),
      ]),
    );
    // Every third project read up to its second message.
    await db.chatReads.bulkPut(
      projectIds
        .filter((_, i) => i % 3 === 0)
        .map((id) => marker(id, ME, projectIds.indexOf(id) * 10 + 2)),
    );
    const counts = await countUnreadByProject(db, WS, ME);
    expect(counts.size).toBe(300);
    projectIds.forEach((projectId, i) => expect(counts.get(projectId)).toBe(i % 3 === 0 ? 1 : 3));
  });
});

/** A window of ordered messages `from`..`to` (seq = position), as nextChatRange sees it. */
function windowOf(from: number, to: number, hasOlder: boolean, newer: number) {
  const messages = [];
  for (let seq = from; seq <= to; seq++) messages.push(message('p', seq));
  return { messages, hasOlder, newer } as Pick<ChatWindow, 'messages' | 'hasOlder' | 'newer'>;
}

describe('nextChatRange', () => {
  it('grows a short window upwards as before, and stops at the oldest', () => {
    expect(nextChatRange(windowOf(951, 1000, true, 0), 'older', 50, 250)).toEqual({
      edge: 'newest',
      size: 100,
    });
    expect(nextChatRange(windowOf(1, 50, false, 0), 'older', 50, 250)).toBeNull();
    expect(nextChatRange(windowOf(1, 50, false, 0), 'newer', 50, 250)).toBeNull();
    expect(nextChatRange({ messages: [], hasOlder: false, newer: 0 }, 'older')).toBeNull();
  });

  it('a page up past the bound drops the newest from the bottom', () => {
    // 250 shown (751..1000): keep the oldest 200 (751..950), read 50 more above.
    expect(nextChatRange(windowOf(751, 1000, true, 0), 'older', 50, 250)).toEqual({
      edge: 'before',
      seq: 950,
      size: 250,
    });
    // A window not at the newest grows up to the bound, still ending where it ended.
    expect(nextChatRange(windowOf(401, 500, true, 500), 'older', 50, 250)).toEqual({
      edge: 'before',
      seq: 500,
      size: 150,
    });
  });

  it('a page down past the bound drops the oldest from the top', () => {
    // 250 shown (501..750): drop 501..550, keep 551..750, read 50 below.
    expect(nextChatRange(windowOf(501, 750, true, 250), 'newer', 50, 250)).toEqual({
      edge: 'after',
      seq: 551,
      size: 250,
    });
    expect(nextChatRange(windowOf(501, 600, true, 10), 'newer', 50, 250)).toEqual({
      edge: 'after',
      seq: 501,
      size: 150,
    });
  });
});

describe('readChatWindow', () => {
  it('reads each kind of range, with what lies beyond it, and the unsent only at the newest', async () => {
    const db = database();
    const rows = [];
    for (let seq = 1; seq <= 300; seq++) rows.push(message('p', seq, { _deleted: seq === 120 }));
    await db.chatMessages.bulkPut([...rows, message('p', 0, { createdBy: ME })]);
    const seqs = (window: ChatWindow) => window.messages.map((row) => row.seq);

    const newest = await readChatWindow(db, 'p', { edge: 'newest', size: 50 });
    expect(seqs(newest)).toEqual([...Array.from({ length: 50 }, (_, i) => 251 + i), 0]);
    expect(newest).toMatchObject({ hasOlder: true, newer: 0 });

    const range: ChatRange = { edge: 'before', seq: 150, size: 40 };
    const before = await readChatWindow(db, 'p', range);
    expect(before.range).toBe(range);
    // 120 is gone on this device: skipped, and the window still holds 40.
    expect(seqs(before)).toEqual([
      ...Array.from({ length: 10 }, (_, i) => 110 + i),
      ...Array.from({ length: 30 }, (_, i) => 121 + i),
    ]);
    expect(before).toMatchObject({ hasOlder: true, newer: 150 });

    const after = await readChatWindow(db, 'p', { edge: 'after', seq: 1, size: 30 });
    expect(seqs(after)).toEqual(Array.from({ length: 30 }, (_, i) => 1 + i));
    expect(after).toMatchObject({ hasOlder: false, newer: 270 });

    const end = await readChatWindow(db, 'p', { edge: 'after', seq: 281, size: 50 });
    expect(seqs(end)).toEqual([...Array.from({ length: 20 }, (_, i) => 281 + i), 0]);
    expect(end).toMatchObject({ hasOlder: true, newer: 0 });
  });
});
