import { describe, expect, it } from 'vitest';
import type { SyncChange } from '#contract/sync.ts';
import { serverClientRow } from '../db/client-test-fakes.ts';
import { createAppDatabase, type AppDatabase } from '../db/app-database.ts';
import { writeCreate, writePatch } from '../db/local-write.ts';
import { restoreWorkspaceState } from '../db/sync-state.ts';
import { applyPullPage, checkPage } from './apply-pull-page.ts';

const WS = '0190a000-0000-7000-8000-000000000001';

/** A database that records the id of every row written to `clients` (puts and adds). */
function countingDatabase(): { db: AppDatabase; writes: string[] } {
  const writes: string[] = [];
  const db = createAppDatabase('u1', { name: `test-${crypto.randomUUID()}` });
  db.use({
    stack: 'dbcore',
    name: 'count-client-writes',
    create: (down) => ({
      ...down,
      table: (name) => {
        const table = down.table(name);
        return {
          ...table,
          mutate: (request) => {
            if (name === 'clients' && (request.type === 'put' || request.type === 'add')) {
              for (const value of request.values as { id: string }[]) writes.push(value.id);
            }
            return table.mutate(request);
          },
        };
      },
    }),
  });
  return { db, writes };
}

/** The client row as the server sends it in a pull. */
const serverClient = (id: string, name: string, version: number) =>
  serverClientRow({ id, workspaceId: WS, name, version });

const upsert = (row: ReturnType<typeof serverClient>): SyncChange => ({
  table: 'clients',
  id: row.id,
  op: 'upsert',
  row,
  seq: row.version,
});

const mutation = (mutationId: string) => ({ userId: 'u1', mutationId, now: 1_000 });

async function createClientLocally(db: AppDatabase, id: string, name: string) {
  const row = { id, workspaceId: WS, name };
  await writeCreate(db, {
    ...mutation(crypto.randomUUID()),
    resource: 'client',
    operation: 'create-client',
    entity: 'client',
    row,
    args: row,
    label: name,
  });
}

async function patchClientLocally(db: AppDatabase, id: string, patch: Record<string, unknown>) {
  await writePatch(db, {
    ...mutation(crypto.randomUUID()),
    resource: 'client',
    operation: 'update-client',
    entity: 'client',
    id,
    patch,
  });
}

/** Marks the outbox entries of `id` acked, as a push's settle does, with this ack seq. */
async function ack(db: AppDatabase, id: string, ackSeq: number) {
  const entries = await db.outbox.where('[entity+entityId]').equals(['client', id]).toArray();
  await db.outbox.bulkPut(entries.map((entry) => ({ ...entry, status: 'acked', ackSeq })));
}

/** One log page as the engine applies it, the acked entries read when its pull started. */
async function pullPage(db: AppDatabase, changes: SyncChange[], final = true) {
  const page = checkPage(changes);
  await applyPullPage(db, {
    workspaceId: WS,
    page,
    acked: await db.outbox.where('status').equals('acked').toArray(),
    coverUpToSeq: page.maxSeq,
    coverAll: final,
    state: { ...restoreWorkspaceState(undefined, WS), highestSeq: page.maxSeq },
    seen: null,
  });
}

describe('a pull page confirming acked changes', () => {
  it('writes a confirmed create once: the server row, its pending marker gone', async () => {
    const { db, writes } = countingDatabase();
    const ids = [crypto.randomUUID(), crypto.randomUUID()];
    for (const id of ids) await createClientLocally(db, id, `Client ${id}`);
    for (const id of ids) await ack(db, id, 5);
    writes.length = 0;

    await pullPage(db, [
      upsert(serverClient(ids[0]!, 'Server 0', 5)),
      upsert(serverClient(ids[1]!, 'Server 1', 5)),
    ]);

    expect(writes.sort()).toEqual([...ids].sort());
    expect(await db.outbox.count()).toBe(0);
    expect(await db.clients.get(ids[0]!)).toMatchObject({
      name: 'Server 0',
      _v: 5,
      _pending: 0,
      _deleted: false,
      _base: {},
    });
    db.close();
  });

  it('keeps a still-unacked edit on top of a confirmed create, written once', async () => {
    const { db, writes } = countingDatabase();
    const id = crypto.randomUUID();
    await createClientLocally(db, id, 'Acme');
    await ack(db, id, 5);
    await patchClientLocally(db, id, { name: 'Mine' });
    writes.length = 0;

    await pullPage(db, [upsert(serverClient(id, 'Acme', 5))]);

    expect(writes).toEqual([id]);
    expect(await db.clients.get(id)).toMatchObject({
      name: 'Mine',
      _v: 5,
      _pending: 1,
      _base: { name: 'Acme' },
    });
    expect((await db.outbox.toArray()).map((entry) => [entry.op, entry.status])).toEqual([
      ['patch', 'pending'],
    ]);
    db.close();
  });

  it('keeps a later pending patch of the same field over a confirmed one', async () => {
    const { db } = countingDatabase();
    const id = crypto.randomUUID();
    await createClientLocally(db, id, 'Acme');
    await ack(db, id, 5);
    await pullPage(db, [upsert(serverClient(id, 'Acme', 5))]);
    await patchClientLocally(db, id, { name: 'B' });
    await ack(db, id, 7);
    await patchClientLocally(db, id, { name: 'C' });

    await pullPage(db, [upsert(serverClient(id, 'B', 7))]);

    expect(await db.clients.get(id)).toMatchObject({
      name: 'C',
      _v: 7,
      _pending: 1,
      _base: { name: 'B' },
    });
    expect((await db.outbox.toArray()).map((entry) => entry.args)).toEqual([{ name: 'C' }]);
    db.close();
  });

  it('releases an acked patch whose row the page does not bring (a later page will)', async () => {
    const { db } = countingDatabase();
    const [id, other] = [crypto.randomUUID(), crypto.randomUUID()];
    await createClientLocally(db, id, 'Acme');
    await ack(db, id, 5);
    await pullPage(db, [upsert(serverClient(id, 'Acme', 5))]);
    await patchClientLocally(db, id, { name: 'B' });
    await ack(db, id, 7);

    // A page reaching seq 8 without the row: the entry leaves, its field shows the server value
    // known so far.
    await pullPage(db, [upsert(serverClient(other, 'Other', 8))], false);

    expect(await db.outbox.count()).toBe(0);
    expect(await db.clients.get(id)).toMatchObject({ name: 'Acme', _pending: 0, _base: {} });
    expect(await db.clients.get(other)).toMatchObject({ name: 'Other', _pending: 0 });
    db.close();
  });
});
