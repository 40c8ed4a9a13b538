// Migration 0006 gives projects made before boards existed the default columns, with change-log
// entries devices already in sync will pull.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadMigrations, runMigrations } from './migrate.ts';
import { createMemoryPgliteDatabase } from './pglite-database.ts';

describe('migration 0006 (project work)', () => {
  it('backfills four default columns per existing project, each in the change log', async () => {
    const db = await createMemoryPgliteDatabase();
    const all = await loadMigrations();
    await runMigrations(db, { migrations: all.filter((m) => m.version <= 5) });
    const userId = randomUUID();
    const workspaceId = randomUUID();
    const clientId = randomUUID();
    const projectId = randomUUID();
    await db.query("INSERT INTO user_profile (id, email) VALUES ($1, 'a@example.com')", [userId]);
    await db.query("INSERT INTO workspace (id, owner_id, name) VALUES ($1, $2, 'W')", [
      workspaceId,
      userId,
    ]);
    await db.query('INSERT INTO workspace_seq (workspace_id, seq) VALUES ($1, 7)', [workspaceId]);
    await db.query(
      "INSERT INTO client (id, workspace_id, name, status, currency, created_by, updated_by, version) VALUES ($1, $2, 'C', 'active', 'USD', $3, $3, 1)",
      [clientId, workspaceId, userId],
    );
    await db.query(
      "INSERT INTO project (id, workspace_id, client_id, name, status, currency, billing_type, created_by, updated_by, version) VALUES ($1, $2, $3, 'P', 'active', 'USD', 'fixed', $4, $4, 2)",
      [projectId, workspaceId, clientId, userId],
    );
    await runMigrations(db, { migrations: all });
    const columns = await db.query<{ name: string; position: string; version: string }>(
      'SELECT name, position, version FROM kanban_column WHERE project_id = $1 ORDER BY position',
      [projectId],
    );
    expect(columns.rows.map((row) => row.name)).toEqual(['To do', 'In progress', 'Review', 'Done']);
    expect(columns.rows.map((row) => Number(row.version))).toEqual([8, 9, 10, 11]);
    const log = await db.query<{ seq: string; table_name: string }>(
      'SELECT seq, table_name FROM change_log WHERE workspace_id = $1 ORDER BY seq',
      [workspaceId],
    );
    expect(log.rows.map((row) => [Number(row.seq), row.table_name])).toEqual([
      [8, 'kanbanColumns'],
      [9, 'kanbanColumns'],
      [10, 'kanbanColumns'],
      [11, 'kanbanColumns'],
    ]);
    await db.close();
  });
});
