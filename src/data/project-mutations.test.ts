import { describe, expect, it } from 'vitest';
import { createAppDatabase } from '../db/app-database.ts';
import { LocalWriteError } from '../db/local-write.ts';
import { createClient } from './client-mutations.ts';
import {
  archiveProject,
  createProject,
  deleteProject,
  updateProject,
} from './project-mutations.ts';

const WS = '0190a000-0000-7000-8000-000000000001';

async function setup() {
  const ctx = {
    db: createAppDatabase('u1', { name: `test-${crypto.randomUUID()}` }),
    userId: 'u1',
  };
  const client = await createClient(ctx, { workspaceId: WS, name: 'Acme' });
  return { ctx, client };
}

describe('project mutations', () => {
  it("creates a project that waits for its client's create on the server", async () => {
    const { ctx, client } = await setup();
    const project = await createProject(ctx, {
      workspaceId: WS,
      clientId: client.id,
      name: 'Website',
      startDate: '2026-01-01',
      budget: '1500.50',
    });
    expect(await ctx.db.projects.get(project.id)).toMatchObject({
      status: 'planned',
      billingType: 'fixed',
      budget: '1500.50',
    });
    const [clientEntry, projectEntry] = await ctx.db.outbox.toArray();
    expect(projectEntry).toMatchObject({
      operation: 'create-project',
      dependsOn: [clientEntry?.mutationId],
    });
  });

  it('checks dates against the stored row and refuses an unknown client', async () => {
    const { ctx, client } = await setup();
    const project = await createProject(ctx, {
      workspaceId: WS,
      clientId: client.id,
      name: 'Website',
      startDate: '2026-01-01',
    });
    await expect(updateProject(ctx, project.id, { dueDate: '2025-12-31' })).rejects.toMatchObject({
      code: 'invalid',
    });
    await expect(
      updateProject(ctx, project.id, { clientId: '0190a000-0000-7000-8000-00000000ffff' }),
    ).rejects.toBeInstanceOf(LocalWriteError);
    expect(await updateProject(ctx, project.id, { status: 'active', dueDate: '2026-02-01' })).toBe(
      true,
    );
    expect(await archiveProject(ctx, project.id)).toBe(true);
    await deleteProject(ctx, project.id);
    const operations = (await ctx.db.outbox.toArray()).map((e) => [e.operation, e.args]);
    expect(operations.slice(2)).toEqual([
      ['update-project', { status: 'active', dueDate: '2026-02-01' }],
      ['update-project', { archived: true }],
      ['delete-project', {}],
    ]);
  });
});
