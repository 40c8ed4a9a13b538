// Project work through the real sync engine and Dexie against the in-process server: a board made
// offline reaches a second device in the same order, concurrent offline reorders of one column
// converge with no card lost, concurrent note edits merge, and a deleted project leaves no
// milestone, task or note behind on any device.
import 'fake-indexeddb/auto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/data/client-mutations.ts';
import { createProject, deleteProject } from '../../src/data/project-mutations.ts';
import {
  addDefaultColumns,
  addTask,
  listColumns,
  listMilestones,
  listNotes,
  listTasks,
  milestoneWrites,
  moveTask,
  noteWrites,
  type LocalTask,
} from '../../src/data/project-work.ts';
import { createSyncDevices, type SyncDevice, type SyncDevices } from '../fixtures/sync-devices.ts';
import { newTestUser } from '../fixtures/test-tokens.ts';

describe('project work through sync', () => {
  let devices: SyncDevices;

  beforeAll(async () => {
    devices = await createSyncDevices();
  });
  afterEach(() => devices.closeAll());
  afterAll(async () => {
    await devices.cleanup();
  });

  async function setUp() {
    const ada = newTestUser('ada');
    const ws = await devices.register(ada);
    const laptop = await devices.device(ada, [ws]);
    const phone = await devices.device(ada, [ws]);
    return { ws, laptop, phone };
  }

  async function newProject(d: SyncDevice, ws: string) {
    const client = await createClient(d.ctx, { workspaceId: ws, name: 'Acme' });
    const project = await createProject(d.ctx, {
      workspaceId: ws,
      clientId: client.id,
      name: 'Site',
    });
    const columns = await addDefaultColumns(d.ctx, project);
    return { project, columns };
  }

  const titles = (tasks: LocalTask[], columnId: string) =>
    tasks.filter((task) => task.columnId === columnId).map((task) => task.title);

  it('a board made offline arrives on the other device in the same order', async () => {
    const { ws, laptop, phone } = await setUp();
    laptop.network.online = false;
    const { project, columns } = await newProject(laptop, ws);
    const [firstColumn, doing] = columns;
    if (!firstColumn || !doing) throw new Error('no default columns');
    for (const title of ['Brief', 'Wireframes', 'Copy']) {
      await addTask(
        laptop.ctx,
        { workspaceId: ws, projectId: project.id, columnId: firstColumn.id, title },
        (await listTasks(laptop.db, ws, project.id)).filter(
          (task) => task.columnId === firstColumn.id,
        ),
      );
    }
    const wireframes = (await listTasks(laptop.db, ws, project.id)).find(
      (task) => task.title === 'Wireframes',
    );
    // Move "Wireframes" to the top of In progress, offline.
    await moveTask(laptop.ctx, wireframes!, { columnId: doing.id, before: null, after: null });
    await milestoneWrites.create(laptop.ctx, {
      workspaceId: ws,
      projectId: project.id,
      title: 'Design',
      position: 'a0',
      amount: 150_000,
    });
    await noteWrites.create(laptop.ctx, {
      workspaceId: ws,
      projectId: project.id,
      title: 'Kick-off',
      body: 'Agenda',
    });
    await laptop.engine.syncNow();
    expect(laptop.engine.getStatus().waiting).toBeGreaterThan(0);

    laptop.network.online = true;
    await laptop.engine.syncNow();
    expect(laptop.engine.getStatus()).toMatchObject({ waiting: 0, failed: 0 });
    await phone.engine.syncNow();
    const onPhone = await listTasks(phone.db, ws, project.id);
    expect(titles(onPhone, firstColumn.id)).toEqual(['Brief', 'Copy']);
    expect(titles(onPhone, doing.id)).toEqual(['Wireframes']);
    expect((await listColumns(phone.db, ws, project.id)).map((column) => column.name)).toEqual([
      'To do',
      'In progress',
      'Review',
      'Done',
    ]);
    expect((await listMilestones(phone.db, ws, project.id))[0]).toMatchObject({
      title: 'Design',
      amount: 150_000,
    });
    expect((await listNotes(phone.db, ws, project.id))[0]).toMatchObject({ body: 'Agenda' });
  });

  it('concurrent offline reorders of one column converge to one order with no card lost', async () => {
    const { ws, laptop, phone } = await setUp();
    const { project, columns } = await newProject(laptop, ws);
    const column = columns[0]!;
    for (const title of ['A', 'B', 'C', 'D']) {
      await addTask(
        laptop.ctx,
        { workspaceId: ws, projectId: project.id, columnId: column.id, title },
        await listTasks(laptop.db, ws, project.id),
      );
    }
    await laptop.engine.syncNow();
    await phone.engine.syncNow();
    laptop.network.online = false;
    phone.network.online = false;

    // Both devices put a card into the same gap (between A and B) and move others around.
    const gap = async (d: SyncDevice) => {
      const tasks = await listTasks(d.db, ws, project.id);
      return { tasks, before: tasks[0]!.position, after: tasks[1]!.position };
    };
    const onLaptop = await gap(laptop);
    await moveTask(laptop.ctx, onLaptop.tasks[3]!, { columnId: column.id, ...onLaptop });
    const onPhone = await gap(phone);
    await moveTask(phone.ctx, onPhone.tasks[2]!, { columnId: column.id, ...onPhone });
    await addTask(
      phone.ctx,
      { workspaceId: ws, projectId: project.id, columnId: column.id, title: 'E' },
      [],
      true,
    );

    laptop.network.online = true;
    phone.network.online = true;
    await laptop.engine.syncNow();
    await phone.engine.syncNow();
    await laptop.engine.syncNow();
    const a = (await listTasks(laptop.db, ws, project.id)).map((task) => task.title);
    const b = (await listTasks(phone.db, ws, project.id)).map((task) => task.title);
    expect(a).toEqual(b);
    expect([...a].sort()).toEqual(['A', 'B', 'C', 'D', 'E']);
    // Keys are unique even for inserts into the same gap (jitter), so the order is total.
    const keys = (await listTasks(laptop.db, ws, project.id)).map((task) => task.position);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('merges a note edited offline on two devices', async () => {
    const { ws, laptop, phone } = await setUp();
    const { project } = await newProject(laptop, ws);
    const note = await noteWrites.create(laptop.ctx, {
      workspaceId: ws,
      projectId: project.id,
      title: 'Plan',
      body: 'One\nTwo\nThree',
    });
    await laptop.engine.syncNow();
    await phone.engine.syncNow();
    laptop.network.online = false;
    phone.network.online = false;
    await noteWrites.update(laptop.ctx, note.id, { body: 'One (laptop)\nTwo\nThree' });
    await noteWrites.update(phone.ctx, note.id, { body: 'One\nTwo\nThree (phone)' });
    laptop.network.online = true;
    phone.network.online = true;
    await laptop.engine.syncNow();
    await phone.engine.syncNow();
    await laptop.engine.syncNow();
    for (const d of [laptop, phone]) {
      expect((await listNotes(d.db, ws, project.id))[0]?.body).toBe(
        'One (laptop)\nTwo\nThree (phone)',
      );
    }
  });

  it('deleting a project removes its milestones, tasks and notes on every device', async () => {
    const { ws, laptop, phone } = await setUp();
    const { project, columns } = await newProject(laptop, ws);
    await addTask(
      laptop.ctx,
      { workspaceId: ws, projectId: project.id, columnId: columns[0]!.id, title: 'Gone' },
      [],
    );
    await milestoneWrites.create(laptop.ctx, {
      workspaceId: ws,
      projectId: project.id,
      title: 'Gone',
      position: 'a0',
    });
    await noteWrites.create(laptop.ctx, { workspaceId: ws, projectId: project.id, title: 'Gone' });
    await laptop.engine.syncNow();
    await phone.engine.syncNow();
    expect(await listTasks(phone.db, ws, project.id)).toHaveLength(1);

    await deleteProject(phone.ctx, project.id);
    // Hidden at once on the deleting device, with everything below it.
    expect(await listTasks(phone.db, ws, project.id)).toHaveLength(0);
    await phone.engine.syncNow();
    await laptop.engine.syncNow();
    for (const d of [laptop, phone]) {
      expect(await d.db.tasks.where('workspaceId').equals(ws).count()).toBe(0);
      expect(await d.db.milestones.where('workspaceId').equals(ws).count()).toBe(0);
      expect(await d.db.notes.where('workspaceId').equals(ws).count()).toBe(0);
      expect(await d.db.kanbanColumns.where('workspaceId').equals(ws).count()).toBe(0);
    }
  });
});
