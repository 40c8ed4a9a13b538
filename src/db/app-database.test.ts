import { describe, expect, it } from 'vitest';
import { allEntities, type SyncedEntityName } from '#contract/synced-entities.ts';
import {
  CURRENT_SCHEMA_VERSION,
  SCHEMA_VERSIONS,
  createAppDatabase,
  databaseNameFor,
  entityStores,
  syncedTable,
  type SchemaVersion,
} from './app-database.ts';

const freshName = () => `test-${crypto.randomUUID()}`;

describe('app database', () => {
  it('names one database per user and refuses ids that are not plain', () => {
    expect(databaseNameFor('0190-abc')).toBe('satchel-0190-abc');
    expect(databaseNameFor('a')).not.toBe(databaseNameFor('b'));
    expect(() => databaseNameFor('../x')).toThrow();
    expect(() => databaseNameFor('')).toThrow();
  });

  it('declares versions in increasing order, the latest being current', () => {
    const versions = SCHEMA_VERSIONS.map((step) => step.version);
    expect(versions).toEqual([...versions].sort((a, b) => a - b));
    expect(new Set(versions).size).toBe(versions.length);
    expect(CURRENT_SCHEMA_VERSION).toBe(versions.at(-1));
  });

  it("declares every entity's table with its contract indexes in the latest version naming it", () => {
    // Forgetting a schema version for a new entity, or for an index added to a declaration,
    // fails here instead of as a missing table or an unindexed query on a device.
    const parts = (stores: string) => stores.split(',').map((part) => part.trim());
    for (const entity of allEntities()) {
      const latest = SCHEMA_VERSIONS.filter((step) => entity.table in step.stores).at(-1);
      expect(latest, `no schema version declares ${entity.table}`).toBeDefined();
      const declared = latest?.stores[entity.table];
      expect(declared, `${entity.table} is dropped in version ${latest?.version}`).toBeTypeOf(
        'string',
      );
      expect(parts(declared ?? '')).toEqual(parts(entityStores([entity.table])[entity.table]!));
    }
    expect(() => entityStores(['nothing'])).toThrow();
  });

  it("finds an entity's table by the entity's name", () => {
    const db = createAppDatabase('u1', { name: freshName() });
    for (const entity of allEntities()) {
      expect(syncedTable(db, entity.name as SyncedEntityName).name).toBe(entity.table);
    }
    db.close();
  });

  it('opens with every table and the indexes the screens query', async () => {
    const db = createAppDatabase('u1', { name: freshName() });
    await db.open();
    expect(db.tables.map((table) => table.name).sort()).toEqual([
      'calendarEvents',
      'changeRequests',
      'chatMessages',
      'chatReactions',
      'chatReads',
      'clientNotes',
      'clients',
      'fileCopies',
      'files',
      'invoicePayments',
      'invoices',
      'kanbanColumns',
      'keptProjects',
      'members',
      'milestones',
      'notes',
      'outbox',
      'projects',
      'syncIssues',
      'syncState',
      'tasks',
      'uploads',
      'workspaces',
    ]);
    const indexes = db.projects.schema.indexes.map((index) => index.name);
    expect(indexes).toEqual(
      expect.arrayContaining([
        '[workspaceId+status]',
        '[workspaceId+clientId]',
        '[workspaceId+dueDate]',
        '[workspaceId+name]',
      ]),
    );
    expect(db.outbox.schema.primKey.auto).toBe(true);
    expect(db.outbox.schema.indexes.map((index) => index.name)).toEqual(
      expect.arrayContaining(['mutationId', '[entity+entityId]', 'status', 'nextAttemptAt']),
    );
    db.close();
  });

  it('upgrades to a later version keeping the outbox and migrating rows', async () => {
    const name = freshName();
    const v1 = createAppDatabase('u1', { name, versions: SCHEMA_VERSIONS });
    await v1.outbox.add({ mutationId: 'm1', entity: 'client', entityId: 'c1' } as never);
    await v1.clients.add({ id: 'c1', workspaceId: 'w', name: 'Acme', tags: [] } as never);
    v1.close();

    const next: SchemaVersion = {
      version: CURRENT_SCHEMA_VERSION + 1,
      stores: { tasks: 'id, workspaceId' },
      upgrade: (tx) =>
        tx
          .table('clients')
          .toCollection()
          .modify((row: Record<string, unknown>) => {
            row.tags = ['migrated'];
          }),
    };
    const v2 = createAppDatabase('u1', { name, versions: [...SCHEMA_VERSIONS, next] });
    expect(await v2.outbox.toArray()).toEqual([expect.objectContaining({ mutationId: 'm1' })]);
    expect((await v2.clients.get('c1'))?.tags).toEqual(['migrated']);
    expect(v2.tables.map((table) => table.name)).toContain('tasks');
    v2.close();
  });

  it('closes itself and tells the app when another tab opens a newer schema', async () => {
    const name = freshName();
    let told = 0;
    const old = createAppDatabase('u1', { name, onVersionChange: () => (told += 1) });
    await old.open();
    const newer = createAppDatabase('u1', {
      name,
      versions: [...SCHEMA_VERSIONS, { version: CURRENT_SCHEMA_VERSION + 1, stores: { x: 'id' } }],
    });
    await newer.open();
    expect(told).toBe(1);
    expect(old.isOpen()).toBe(false);
    newer.close();
  });
});
