import { describe, expect, it } from 'vitest';
import { allEntities, childrenOf } from '#contract/synced-entities.ts';
import type { AnySyncedEntity } from '#contract/synced-entity.ts';
import { createAppDatabase, syncedTable, type AppDatabase } from '../db/app-database.ts';
import { writeDelete } from '../db/local-write.ts';
import type { EntityName, OutboxEntry } from '../db/outbox-entry.ts';
import { deleteEntries, removeEntry, settlementScope } from './outbox-settlement.ts';

const WS = 'w1';
const name = (entity: AnySyncedEntity) => entity.name as EntityName;

/**
 * One stored row per declared entity, each child under the row of its parent entity: a delete of
 * a root hides the whole tree below it, whatever the registry declares.
 */
async function seedTree(db: AppDatabase): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  for (const entity of allEntities()) {
    const id = `${entity.name}-1`;
    ids.set(entity.name, id);
    const parentId = entity.parent ? ids.get(entity.parent.entity) : undefined;
    await syncedTable(db, name(entity)).add({
      id,
      workspaceId: WS,
      [entity.label]: `A ${entity.word}`,
      ...(entity.parent && parentId ? { [entity.parent.key]: parentId } : {}),
      _v: 1,
      _pending: 0,
      _deleted: false,
      _base: {},
    });
  }
  return ids;
}

function below(entity: AnySyncedEntity): AnySyncedEntity[] {
  return childrenOf(entity.name).flatMap((child) => [child, ...below(child)]);
}

const roots = allEntities().filter((entity) => !entity.parent && below(entity).length > 0);

describe('cascade deletes of any declared entity', () => {
  it.each(roots.map((root) => [root.name, root] as const))(
    'a %s delete hides every descendant, and the outcome settles all of them',
    async (_, root) => {
      for (const outcome of ['applied', 'rejected'] as const) {
        const db = createAppDatabase('u1', { name: `test-${crypto.randomUUID()}` });
        const ids = await seedTree(db);
        const tree = below(root);
        await writeDelete(db, {
          userId: 'u1',
          mutationId: 'm1',
          now: 1_000,
          resource: root.endpoints.delete.resource,
          operation: root.endpoints.delete.operation,
          entity: name(root),
          id: ids.get(root.name)!,
          cascade: true,
        });
        const [entry] = await db.outbox.toArray();
        expect([...(entry?.cascadeIds ?? [])].sort()).toEqual(
          tree.map((entity) => ids.get(entity.name)).sort(),
        );
        for (const entity of tree) {
          expect(await syncedTable(db, name(entity)).get(ids.get(entity.name)!)).toMatchObject({
            _deleted: true,
            _pending: 1,
            _cascadeOf: ['m1'],
          });
        }

        await db.transaction('rw', settlementScope(db), () => removeEntry(db, entry!, outcome));
        for (const entity of [root, ...tree]) {
          const row = await syncedTable(db, name(entity)).get(ids.get(entity.name)!);
          if (outcome === 'applied') expect(row).toBeUndefined();
          else {
            expect(row).toMatchObject({ _deleted: false, _pending: 0 });
            expect(row).not.toHaveProperty('_cascadeOf');
          }
        }
        db.close();
      }
    },
  );
});

describe('deleting outbox entries', () => {
  it('deletes exactly the given seqs, in runs or scattered, leaving the ones between', async () => {
    const db = createAppDatabase('u1', { name: `test-${crypto.randomUUID()}` });
    const entry = (index: number): Omit<OutboxEntry, 'seq'> => ({
      mutationId: `m${index}`,
      clientId: 'c',
      clientSeq: index + 1,
      userId: 'u1',
      workspaceId: WS,
      resource: 'client',
      operation: 'create-client',
      query: {},
      entity: 'client',
      entityId: `id-${index}`,
      op: 'create',
      args: {},
      dependsOn: [],
      label: '',
      schemaVersion: 1,
      createdAt: 0,
      status: 'acked',
      attempts: 0,
      nextAttemptAt: 0,
    });
    await db.outbox.bulkAdd(Array.from({ length: 20 }, (_, index) => entry(index)));
    const seqs = (await db.outbox.toCollection().primaryKeys()).sort((a, b) => a - b);
    expect(seqs).toHaveLength(20);
    // Two runs (0-5, 10-16) and two lone seqs (8, 18); the ones between stay.
    const gone = [...seqs.slice(0, 6), seqs[8]!, ...seqs.slice(10, 17), seqs[18]!];
    await db.transaction('rw', db.outbox, () =>
      deleteEntries(
        db,
        gone.map((seq) => ({ seq })),
      ),
    );
    expect((await db.outbox.toCollection().primaryKeys()).sort((a, b) => a - b)).toEqual(
      seqs.filter((seq) => !gone.includes(seq)),
    );
    db.close();
  });
});
