import { describe, expect, it } from 'vitest';
import { createAppDatabase } from '../db/app-database.ts';
import { createClient, deleteClient } from './client-mutations.ts';
import { createProject } from './project-mutations.ts';
import {
  addDays,
  getProject,
  listFirstProjects,
  listProjectBoard,
  listProjects,
  listProjectsDueSoon,
} from './project-queries.ts';

const WS = '0190a000-0000-7000-8000-000000000001';

describe('project queries', () => {
  it('serves the list, board, client filter and due-soon dashboard from local data', async () => {
    const ctx = {
      db: createAppDatabase('u1', { name: `test-${crypto.randomUUID()}` }),
      userId: 'u1',
    };
    const acme = await createClient(ctx, { workspaceId: WS, name: 'Acme' });
    const globex = await createClient(ctx, { workspaceId: WS, name: 'Globex' });
    const make = (name: string, fields: Record<string, unknown> = {}) =>
      createProject(ctx, { workspaceId: WS, clientId: acme.id, name, ...fields });
    await make('Overdue', { status: 'active', dueDate: '2026-02-20' });
    await make('Soon', { status: 'on_hold', dueDate: '2026-03-10' });
    await make('Later', { status: 'active', dueDate: '2026-06-01' });
    await make('Done', { status: 'completed', dueDate: '2026-03-02' });
    await make('Undated');
    const other = await createProject(ctx, { workspaceId: WS, clientId: globex.id, name: 'Other' });

    const names = (rows: { name: string }[]) => rows.map((row) => row.name);
    expect(names(await listProjectsDueSoon(ctx.db, WS, '2026-03-01'))).toEqual(['Overdue', 'Soon']);
    expect(names(await listProjects(ctx.db, WS, { status: 'active' }))).toEqual([
      'Later',
      'Overdue',
    ]);
    expect(names(await listProjects(ctx.db, WS, { clientId: globex.id }))).toEqual(['Other']);
    const board = await listProjectBoard(ctx.db, WS);
    expect(names(board.planned)).toEqual(['Other', 'Undated']);
    expect(names(board.completed)).toEqual(['Done']);

    // Deleting a client with a cascade hides its projects at once.
    await deleteClient(ctx, globex.id, { cascade: true });
    expect(await getProject(ctx.db, other.id)).toBeUndefined();
    expect(addDays('2026-02-27', 3)).toBe('2026-03-02');
  });

  it('gives a cold open its first page by name from the index, without archived or deleted rows', async () => {
    const ctx = {
      db: createAppDatabase('u1', { name: `test-${crypto.randomUUID()}` }),
      userId: 'u1',
    };
    const acme = await createClient(ctx, { workspaceId: WS, name: 'Acme' });
    for (const name of ['Delta', 'Alpha', 'Echo', 'Bravo', 'Charlie']) {
      await createProject(ctx, { workspaceId: WS, clientId: acme.id, name });
    }
    const [bravo] = await listProjects(ctx.db, WS, { search: 'Bravo' });
    await ctx.db.projects.update(bravo!.id, { archived: true });
    const [charlie] = await listProjects(ctx.db, WS, { search: 'Charlie' });
    await ctx.db.projects.update(charlie!.id, { _deleted: true });

    const first = await listFirstProjects(ctx.db, WS, 2);
    expect(first.map((project) => project.name)).toEqual(['Alpha', 'Delta']);
  });
});
