// Milestones, board columns, tasks, notes and the activity log through the API and through push:
// the derived CRUD, each entity's own rules, cascades, note merging and the history they leave.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderKeyBetween } from '../../contract/entities/order-key.ts';
import { CONFLICT_EARLIER, CONFLICT_LATER } from '../../server/endpoints/merge-text.ts';
import type { TestApp } from '../fixtures/create-test-app.ts';
import { createRegisteredUserApp, type RegisteredUserApp } from '../fixtures/registered-user.ts';

type Json = Record<string, any>;

describe('project work', () => {
  let t: TestApp;
  let workspaceId: string;
  let call: RegisteredUserApp['call'];
  let other: RegisteredUserApp;
  let clientId: string;
  let projectId: string;
  let columnIds: string[];

  const create = async (resource: string, operation: string, body: Json) => {
    const result = await call('POST', `/api/${resource}?endpoint=${operation}`, {
      id: randomUUID(),
      workspaceId,
      ...body,
    });
    return result;
  };
  const push = (device: string, mutations: Json[]) =>
    call('POST', '/api/sync?endpoint=push', { clientId: device, mutations });

  beforeAll(async () => {
    ({ t, workspaceId, call } = await createRegisteredUserApp());
    other = await createRegisteredUserApp();
    clientId = (await create('client', 'create-client', { name: 'Acme' })).body.client.id;
    projectId = (await create('project', 'create-project', { clientId, name: 'Site' })).body.project
      .id;
    columnIds = [];
    let position: string | null = null;
    for (const name of ['To do', 'Doing', 'Done']) {
      position = orderKeyBetween(position, null);
      const column = await create('kanban', 'create-kanban-column', {
        projectId,
        name,
        position,
        isDone: name === 'Done',
      });
      expect(column.status).toBe(200);
      columnIds.push(column.body.kanbanColumn.id);
    }
  });
  afterAll(async () => {
    await other.t.cleanup();
    await t.cleanup();
  });

  it('creates, lists in order, moves and deletes tasks, milestones and columns', async () => {
    const first = orderKeyBetween(null, null);
    const last = orderKeyBetween(first, null);
    const b = await create('task', 'create-task', {
      projectId,
      columnId: columnIds[0],
      title: 'B',
      position: last,
      labels: ['design'],
      checklist: [{ id: 'c1', text: 'Sketch', done: false }],
      estimateMinutes: 90,
    });
    const a = await create('task', 'create-task', {
      projectId,
      columnId: columnIds[0],
      title: 'A',
      position: first,
    });
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(b.body.task).toMatchObject({
      labels: ['design'],
      checklist: [{ id: 'c1', text: 'Sketch', done: false }],
      estimateMinutes: 90,
      priority: 'none',
      assigneeId: null,
      version: expect.any(Number),
    });
    const listed = await call('GET', `/api/task?endpoint=get-tasks&projectId=${projectId}`);
    expect(listed.body.tasks.map((task: Json) => task.title)).toEqual(['A', 'B']);

    // A move across columns is a patch of the column and the order key.
    const moved = await call('PATCH', `/api/task?endpoint=update-task&id=${a.body.task.id}`, {
      columnId: columnIds[1],
      position: orderKeyBetween(null, null),
    });
    expect(moved.status).toBe(200);
    expect(moved.body.task.columnId).toBe(columnIds[1]);

    const milestone = await create('milestone', 'create-milestone', {
      projectId,
      title: 'Design',
      position: first,
      amount: 150_000,
      currency: 'EUR',
      dueDate: '2026-12-01',
    });
    expect(milestone.status).toBe(200);
    expect(milestone.body.milestone).toMatchObject({
      amount: 150_000,
      dueDate: '2026-12-01',
      status: 'planned',
      signOff: null,
    });
    // A milestone's sign-off is the portal's: update-milestone does not accept it.
    const signOff = await call(
      'PATCH',
      `/api/milestone?endpoint=update-milestone&id=${milestone.body.milestone.id}`,
      { signOff: { decision: 'approved', by: 'x', at: 'now', comment: null } },
    );
    expect(signOff.status).toBe(400);

    // A column with tasks stays; a deleted milestone unlinks its tasks.
    const linked = await call('PATCH', `/api/task?endpoint=update-task&id=${b.body.task.id}`, {
      milestoneId: milestone.body.milestone.id,
    });
    expect(linked.status).toBe(200);
    const columnDelete = await call(
      'DELETE',
      `/api/kanban?endpoint=delete-kanban-column&id=${columnIds[0]}`,
    );
    expect(columnDelete.status).toBe(409);
    expect(columnDelete.body.error.details).toEqual({ taskCount: 1 });
    const milestoneDelete = await call(
      'DELETE',
      `/api/milestone?endpoint=delete-milestone&id=${milestone.body.milestone.id}`,
    );
    expect(milestoneDelete.status).toBe(200);
    const after = await call('GET', `/api/task?endpoint=get-task&id=${b.body.task.id}`);
    expect(after.body.task.milestoneId).toBeNull();
  });

  it('refuses links outside the project or workspace, and bad order keys, with field details', async () => {
    const elsewhere = (await create('project', 'create-project', { clientId, name: 'Other' })).body
      .project.id;
    const foreignColumn = await create('kanban', 'create-kanban-column', {
      projectId: elsewhere,
      name: 'Theirs',
      position: 'a0',
    });
    const wrongColumn = await create('task', 'create-task', {
      projectId,
      columnId: foreignColumn.body.kanbanColumn.id,
      title: 'Lost',
      position: 'a0',
    });
    expect(wrongColumn.status).toBe(422);
    expect(wrongColumn.body.error.details).toEqual([
      { path: 'body.columnId', message: 'Unknown column in this project' },
    ]);

    const notMember = await create('task', 'create-task', {
      projectId,
      columnId: columnIds[0],
      title: 'Lost',
      position: 'a0',
      assigneeId: other.user.id,
    });
    expect(notMember.status).toBe(422);
    expect(notMember.body.error.details[0].path).toBe('body.assigneeId');

    const badKey = await create('task', 'create-task', {
      projectId,
      columnId: columnIds[0],
      title: 'Lost',
      position: 'not a key!',
    });
    expect(badKey.status).toBe(400);
    expect(badKey.body.error.details[0]).toMatchObject({ path: 'body.position' });

    // Another workspace's project: refused as unknown, whoever's id it is.
    const theirs = await other.call('POST', '/api/client?endpoint=create-client', {
      id: randomUUID(),
      workspaceId: other.workspaceId,
      name: 'Theirs',
    });
    const theirProject = await other.call('POST', '/api/project?endpoint=create-project', {
      id: randomUUID(),
      workspaceId: other.workspaceId,
      clientId: theirs.body.client.id,
      name: 'Secret',
    });
    const intrude = await create('milestone', 'create-milestone', {
      projectId: theirProject.body.project.id,
      title: 'Sneak',
      position: 'a0',
    });
    expect(intrude.status).toBe(422);
    const peek = await call(
      'GET',
      `/api/milestone?endpoint=get-milestones&projectId=${theirProject.body.project.id}`,
    );
    expect(peek.status).toBe(404);
    const negative = await create('milestone', 'create-milestone', {
      projectId,
      title: 'Refund',
      position: 'a0',
      amount: -5,
    });
    expect(negative.status).toBe(400);
    expect(negative.body.error.details[0]).toMatchObject({ path: 'body.amount' });
    const titles = (
      await t.db.query<{ title: string }>('SELECT title FROM task WHERE workspace_id = $1', [
        workspaceId,
      ])
    ).rows.map((row) => row.title);
    expect(titles).not.toContain('Lost');
  });

  it('merges a note edited on two devices; overlapping edits keep both versions', async () => {
    const base = 'Agenda\nIntro\nBudget\nNext steps';
    const note = await create('notes', 'create-note', { projectId, title: 'Kick-off', body: base });
    expect(note.status).toBe(200);
    const id = note.body.note.id as string;
    const patch = (device: string, body: string, seen: string) =>
      push(device, [
        {
          mutationId: randomUUID(),
          clientSeq: 1,
          resource: 'notes',
          operation: 'update-note',
          query: { id },
          body: { body },
          baseValues: { body: seen },
        },
      ]);
    const one = await patch(
      `laptop-${randomUUID()}`,
      base.replace('Intro', 'Intro (10 min)'),
      base,
    );
    expect(one.body.results[0].status).toBe(200);
    const two = await patch(
      `phone-${randomUUID()}`,
      base.replace('Next steps', 'Next: contract'),
      base,
    );
    expect(two.body.results[0].status).toBe(200);
    // Merged, so no "yours replaced theirs" notice.
    expect(two.body.results[0].conflict).toBeUndefined();
    const merged = await call('GET', `/api/notes?endpoint=get-note&id=${id}`);
    expect(merged.body.note.body).toBe('Agenda\nIntro (10 min)\nBudget\nNext: contract');

    const seen = merged.body.note.body as string;
    await patch(`laptop-${randomUUID()}`, seen.replace('Budget', 'Budget: 5k'), seen);
    await patch(`phone-${randomUUID()}`, seen.replace('Budget', 'Budget: 8k'), seen);
    const both = (await call('GET', `/api/notes?endpoint=get-note&id=${id}`)).body.note.body;
    expect(both).toContain(CONFLICT_EARLIER);
    expect(both).toContain('Budget: 5k');
    expect(both).toContain(CONFLICT_LATER);
    expect(both).toContain('Budget: 8k');
    expect(both.indexOf('Budget: 5k')).toBeLessThan(both.indexOf('Budget: 8k'));
  });

  it('keeps who changed what in the project activity, paged and filterable', async () => {
    const task = await create('task', 'create-task', {
      projectId,
      columnId: columnIds[0],
      title: 'Logo',
      position: 'a0',
    });
    await call('PATCH', `/api/task?endpoint=update-task&id=${task.body.task.id}`, {
      title: 'Logo v2',
      priority: 'high',
    });
    const activity = await call(
      'GET',
      `/api/project-activity?endpoint=get-project-activity&projectId=${projectId}&kind=task`,
    );
    expect(activity.status).toBe(200);
    const [latest] = activity.body.activity as Json[];
    expect(latest).toMatchObject({
      kind: 'task',
      op: 'update',
      label: 'Logo v2',
      actorName: 'Ada',
      changes: { title: { from: 'Logo', to: 'Logo v2' }, priority: { from: 'none', to: 'high' } },
    });
    expect(activity.body.activity.every((entry: Json) => entry.kind === 'task')).toBe(true);
    const strangers = await other.call(
      'GET',
      `/api/project-activity?endpoint=get-project-activity&projectId=${projectId}`,
    );
    expect(strangers.status).toBe(404);
  });

  it('deletes a project with its milestones, columns, tasks and notes, each recorded for devices', async () => {
    const doomed = (
      await create('project', 'create-project', { clientId, name: 'Doomed', status: 'completed' })
    ).body.project.id as string;
    const column = await create('kanban', 'create-kanban-column', {
      projectId: doomed,
      name: 'Only',
      position: 'a0',
    });
    const task = await create('task', 'create-task', {
      projectId: doomed,
      columnId: column.body.kanbanColumn.id,
      title: 'Gone',
      position: 'a0',
    });
    const note = await create('notes', 'create-note', { projectId: doomed, title: 'Gone too' });
    const milestone = await create('milestone', 'create-milestone', {
      projectId: doomed,
      title: 'Gone as well',
      position: 'a0',
    });
    const removed = await call('DELETE', `/api/project?endpoint=delete-project&id=${doomed}`);
    expect(removed.status).toBe(200);
    const ids = [
      column.body.kanbanColumn.id,
      task.body.task.id,
      note.body.note.id,
      milestone.body.milestone.id,
    ];
    const { rows } = await t.db.query<{ entity_id: string; op: string; table_name: string }>(
      "SELECT entity_id, op, table_name FROM change_log WHERE workspace_id = $1 AND op = 'delete' AND entity_id = ANY($2::uuid[])",
      [workspaceId, ids],
    );
    expect(rows.map((row) => row.table_name).sort()).toEqual([
      'kanbanColumns',
      'milestones',
      'notes',
      'tasks',
    ]);
    const left = await t.db.query('SELECT 1 FROM task WHERE project_id = $1', [doomed]);
    expect(left.rowCount).toBe(0);
  });
});
