import { describe, expect, it } from 'vitest';
import { createAppDatabase, type AppDatabase } from '../db/app-database.ts';
import { writeCreate, writePatch } from '../db/local-write.ts';
import { stuckIssueId } from '../db/sync-issue.ts';
import { failTemporarily, rejectEntry } from './outbox-settlement.ts';
import {
  describeSyncIssueDetails,
  discardSyncIssue,
  keepSyncIssueCopy,
  retrySyncIssue,
} from './sync-issue-actions.ts';

const base = (mutationId: string) => ({
  userId: 'u1',
  mutationId,
  now: 0,
  resource: 'client',
  operation: 'update-client',
  entity: 'client' as const,
});

async function setup(): Promise<AppDatabase> {
  const db = createAppDatabase('u1', { name: `test-${crypto.randomUUID()}` });
  await writeCreate(db, {
    ...base('m0'),
    operation: 'create-client',
    row: { id: 'c1', workspaceId: 'w1', name: 'Acme' },
    args: { id: 'c1', workspaceId: 'w1', name: 'Acme' },
    label: 'Acme',
  });
  await db.outbox.clear();
  await db.clients.update('c1', { _pending: 0, _v: 3 });
  await writePatch(db, { ...base('m1'), id: 'c1', patch: { name: 'Acme Ltd' } });
  return db;
}

describe('sync issue actions', () => {
  it('requeues a refused change as a new mutation, and discards only on request', async () => {
    const db = await setup();
    const [entry] = await db.outbox.toArray();
    await db.transaction('rw', [db.clients, db.projects, db.outbox, db.syncIssues], () =>
      rejectEntry(db, entry!, { status: 422, reason: 'validation', message: 'No' }, 0),
    );
    expect((await db.clients.get('c1'))?.name).toBe('Acme');
    expect(await retrySyncIssue(db, 'm1', { userId: 'u1', newId: () => 'm2' })).toBe('requeued');
    expect((await db.clients.get('c1'))?.name).toBe('Acme Ltd');
    expect((await db.outbox.toArray()).map((e) => [e.mutationId, e.args])).toEqual([
      ['m2', { name: 'Acme Ltd' }],
    ]);
    expect(await db.syncIssues.count()).toBe(0);
  });

  it('retries a stuck entry at once, or discards it with its optimistic change', async () => {
    const db = await setup();
    const [entry] = await db.outbox.toArray();
    const stuck = { ...entry!, attempts: 19 };
    await db.transaction('rw', [db.clients, db.projects, db.outbox, db.syncIssues], () =>
      failTemporarily(db, stuck, { status: 503, code: 'X', message: 'Down' }, 5, () => 0),
    );
    expect(await db.syncIssues.get(stuckIssueId('m1'))).toMatchObject({ reason: 'stuck' });
    expect(await retrySyncIssue(db, stuckIssueId('m1'), { userId: 'u1', newId: () => 'x' })).toBe(
      'retrying',
    );
    expect((await db.outbox.toArray())[0]).toMatchObject({ status: 'retry', attempts: 0 });

    await db.transaction('rw', [db.clients, db.projects, db.outbox, db.syncIssues], async () =>
      failTemporarily(
        db,
        { ...(await db.outbox.toArray())[0]!, attempts: 19 },
        { status: 503, code: 'X', message: 'Down' },
        5,
        () => 0,
      ),
    );
    await discardSyncIssue(db, stuckIssueId('m1'));
    expect(await db.outbox.count()).toBe(0);
    expect(await db.clients.get('c1')).toMatchObject({ name: 'Acme', _pending: 0, _base: {} });
  });

  it('edits and retries with the corrected values only', async () => {
    const db = await setup();
    const [entry] = await db.outbox.toArray();
    await db.transaction('rw', [db.clients, db.projects, db.outbox, db.syncIssues], () =>
      rejectEntry(db, entry!, { status: 422, reason: 'validation', message: 'Too long' }, 0),
    );
    const result = await retrySyncIssue(db, 'm1', {
      userId: 'u1',
      newId: () => 'm3',
      args: { name: 'Acme Limited' },
    });
    expect(result).toBe('requeued');
    expect((await db.clients.get('c1'))?.name).toBe('Acme Limited');
    expect((await db.outbox.toArray()).map((e) => e.args)).toEqual([{ name: 'Acme Limited' }]);
  });

  it('keeps a copy of a refused change as a new client, leaving the original as it was', async () => {
    const db = await setup();
    const [entry] = await db.outbox.toArray();
    await db.transaction('rw', [db.clients, db.projects, db.outbox, db.syncIssues], () =>
      rejectEntry(db, entry!, { status: 403, reason: 'forbidden', message: 'No' }, 0),
    );
    const ids = ['c2', 'm4'];
    const copy = await keepSyncIssueCopy(db, 'm1', { userId: 'u1', newId: () => ids.shift()! });
    expect(copy).toBe('c2');
    expect(await db.clients.get('c1')).toMatchObject({ name: 'Acme' });
    expect(await db.clients.get('c2')).toMatchObject({ name: 'Acme Ltd (copy)', _pending: 1 });
    const [queued] = await db.outbox.toArray();
    expect(queued).toMatchObject({ mutationId: 'm4', op: 'create', entityId: 'c2' });
    expect(queued?.args).not.toHaveProperty('_v');
    expect(await db.syncIssues.count()).toBe(0);
  });

  it('describes an issue with what the user typed', async () => {
    const db = await setup();
    const [entry] = await db.outbox.toArray();
    await db.transaction('rw', [db.clients, db.projects, db.outbox, db.syncIssues], () =>
      rejectEntry(db, entry!, { status: 422, reason: 'validation', message: 'Too long' }, 0),
    );
    const details = JSON.parse(describeSyncIssueDetails((await db.syncIssues.get('m1'))!)) as {
      values: unknown;
      serverMessage: string;
    };
    expect(details).toMatchObject({ values: { name: 'Acme Ltd' }, serverMessage: 'Too long' });
  });
});
