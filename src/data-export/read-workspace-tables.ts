/**
 * Every synced entity's rows of one workspace, read from this device's tables (Dexie), in the
 * registry's order (a parent before its children). Rows waiting for their delete to reach the
 * server are left out (the user deleted them); rows not yet synced are in (they are the user's
 * newest work). No entity is named here: a new declaration is exported by itself.
 */
import { allEntities } from '#contract/synced-entities.ts';
import type { AppDatabase, SyncedRow } from '../db/app-database.ts';
import type { ExportTable } from './export-archive.ts';
import { exportRow } from './export-columns.ts';

export async function readWorkspaceTables(
  db: AppDatabase,
  workspaceId: string,
  onTable?: (done: number, total: number) => void,
): Promise<ExportTable[]> {
  const entities = allEntities();
  const tables: ExportTable[] = [];
  for (const entity of entities) {
    const rows = await db
      .table<SyncedRow, string>(entity.table)
      .where('workspaceId')
      .equals(workspaceId)
      .toArray();
    tables.push({ entity, rows: rows.filter((row) => !row._deleted).map(exportRow) });
    onTable?.(tables.length, entities.length);
  }
  return tables;
}
