import { describe, expect, it } from 'vitest';
import { createAppDatabase, type AppDatabase } from '../db/app-database.ts';
import { applyLiveRows } from './apply-live-rows.ts';

const WS = '0192f3a0-0000-7000-8000-0000000000aa';
const PROJECT = '0192f3a0-0000-7000-8000-0000000000bb';
const ID = '0192f3a0-0000-7000-8000-0000000000cc';

function message(overrides: Record<string, unknown> = {}) {
  return {
    id: ID,
    workspaceId: WS,
    projectId: PROJECT,
    text: 'Hello',
    mentions: [],
    replyToId: null,
    attachmentFileIds: [],
    deleted: false,
    seq: 7,
    editedAt: null,
    authorKind: 'member',
    authorName: '',
    createdAt: '2026-11-25T10:00:00.000Z',
    createdBy: 'u2',
    updatedAt: '2026-11-25T10:00:00.000Z',
    updatedBy: 'u2',
    version: 7,
    ...overrides,
  };
}

async function openDb(withWorkspace = true): Promise<AppDatabase> {
  const db = createAppDatabase('u1', { name: `test-${crypto.randomUUID()}` });
  if (withWorkspace) {
    await db.workspaces.put({
      id: WS,
      name: 'Studio',
      ownerId: 'u1',
      settings: {},
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
      _v: 1,
    } as never);
  }
  return db;
}

describe('applyLiveRows', () => {
  it('stores a pushed message at once, and never lets an older version replace a newer one', async () => {
    const db = await openDb();
    expect(
      await applyLiveRows(db, { workspaceId: WS, table: 'chatMessages', rows: [message()] }),
    ).toEqual({ stored: 1, ignored: 0 });
    expect(await db.chatMessages.get(ID)).toMatchObject({ text: 'Hello', seq: 7, _v: 7 });

    await applyLiveRows(db, {
      workspaceId: WS,
      table: 'chatMessages',
      rows: [message({ text: 'Edited', version: 9 })],
    });
    const stale = await applyLiveRows(db, {
      workspaceId: WS,
      table: 'chatMessages',
      rows: [message({ text: 'Old', version: 8 })],
    });
    expect(stale).toEqual({ stored: 0, ignored: 1 });
    expect(await db.chatMessages.get(ID)).toMatchObject({ text: 'Edited', _v: 9 });
    // The cursor is the pull's: nothing here touches sync state.
    expect(await db.syncState.count()).toBe(0);
  });

  it('keeps a pending local edit on top of the pushed row', async () => {
    const db = await openDb();
    await db.chatMessages.put({
      ...message({ text: 'Mine, edited', version: 7 }),
      _v: 7,
      _pending: 1,
      _deleted: false,
      _base: { text: 'Hello' },
    } as never);
    await applyLiveRows(db, {
      workspaceId: WS,
      table: 'chatMessages',
      rows: [message({ text: 'Server text', version: 8, mentions: ['x'] })],
    });
    expect(await db.chatMessages.get(ID)).toMatchObject({
      text: 'Mine, edited',
      mentions: ['x'],
      _pending: 1,
      _base: { text: 'Server text' },
      _v: 8,
    });
  });

  it('ignores rows of another workspace, of a workspace not on this device, of a table that is not live, or off the contract', async () => {
    const db = await openDb();
    const results = [
      await applyLiveRows(db, {
        workspaceId: WS,
        table: 'chatMessages',
        rows: [message({ workspaceId: 'elsewhere' })],
      }),
      await applyLiveRows(db, {
        workspaceId: WS,
        table: 'clients',
        rows: [{ id: ID, workspaceId: WS, name: 'X', version: 3 }],
      }),
      await applyLiveRows(db, {
        workspaceId: WS,
        table: 'chatMessages',
        rows: [message({ seq: 'seven' })],
      }),
      await applyLiveRows(await openDb(false), {
        workspaceId: WS,
        table: 'chatMessages',
        rows: [message()],
      }),
    ];
    expect(results.every((result) => result.stored === 0 && result.ignored === 1)).toBe(true);
    expect(await db.chatMessages.count()).toBe(0);
  });
});
