import { describe, expect, it } from 'vitest';
import { createAppDatabase, type AppDatabase } from '../db/app-database.ts';
import { countUnread, countUnreadByProject, UNREAD_COUNT_CAP } from './chat.ts';
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

describe('countUnread', () => {
  it('stops at UNREAD_COUNT_CAP (the badge says 99+), above the marker, skipping mine and deleted ones', async () => {
    const db = database();
    await db.chatMessages.bulkPut([
      ...Array.from({ length: 150 }, (_, i) => message('busy', 11 + i)),
      message('busy', 5),
      message('busy', 200, { createdBy: ME }),
      message('busy', 201, { deleted: true }),
    ]);
    await db.chatReads.bulkPut([marker('busy', ME, 10)]);
    expect(await countUnread(db, 'busy', ME)).toBe(UNREAD_COUNT_CAP);
    // The per-project counts (the projects list) are not capped.
    expect((await countUnreadByProject(db, WS, ME)).get('busy')).toBe(150);
    await db.chatReads.bulkPut([marker('busy', ME, 150)]);
    expect(await countUnread(db, 'busy', ME)).toBe(10);
  });
});
