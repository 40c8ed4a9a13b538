/**
 * Fills an empty demo database with the sample workspace: its row, its owner, the sync state of a
 * workspace the device already holds, and every entity's rows (one loop over the registry) as a
 * pull would store them. A database that already has a workspace is left as it is: the
 * visitor's edits stick until Reset demo.
 */
import { allEntities } from '#contract/synced-entities.ts';
import { entityTables, type AppDatabase, type SyncedRow } from '../db/app-database.ts';
import { workspaceStateKey } from '../db/sync-state.ts';
import type { DemoSeed } from './demo-seed.ts';

export async function seedDemoDatabase(db: AppDatabase, seed: DemoSeed): Promise<boolean> {
  return db.transaction(
    'rw',
    [db.workspaces, db.members, db.syncState, ...entityTables(db)],
    async () => {
      if ((await db.workspaces.count()) > 0) return false;
      const now = Date.now();
      await db.workspaces.put({ ...seed.workspace, _v: 1 });
      await db.members.put({ ...seed.member, workspaceId: seed.workspace.id });
      await db.syncState.put({
        key: workspaceStateKey(seed.workspace.id),
        kind: 'workspace',
        workspaceId: seed.workspace.id,
        highestSeq: 0,
        needsSweep: false,
        lastPullAt: now,
        lastFullSyncAt: now,
      });
      const rowsByTable = seed.rows as Record<string, Record<string, unknown>[] | undefined>;
      for (const entity of allEntities()) {
        const rows = rowsByTable[entity.table] ?? [];
        if (rows.length === 0) continue;
        await db.table<SyncedRow, string>(entity.table).bulkPut(
          rows.map(
            (row) =>
              ({
                ...row,
                _v: typeof row.version === 'number' ? row.version : 1,
                _pending: 0,
                _deleted: false,
                _base: {},
              }) as SyncedRow,
          ),
        );
      }
      return true;
    },
  );
}
