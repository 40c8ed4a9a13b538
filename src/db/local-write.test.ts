import { describe, expect, it } from 'vitest';
import { createAppDatabase } from './app-database.ts';
import { LocalWriteError, writeCreate, writeDelete, writePatch } from './local-write.ts';

const db = () => createAppDatabase('u1', { name: `test-${crypto.randomUUID()}` });
const base = (mutationId: string) => ({
  userId: 'u1',
  mutationId,
  now: 1_000,
  resource: 'client',
  operation: 'x',
});
const clientRow = (id: string) => ({ id, workspaceId: 'w1', name: `Client ${id}`, phone: null });

describe('local writes', () => {
  it('writes the row and its outbox entry together, numbering the device sequence', async () => {
    const d = db();
    await writeCreate(d, {
      ...base('m1'),
      entity: 'client',
      row: clientRow('c1'),
      args: clientRow('c1'),
      label: 'Client c1',
    });
    await writePatch(d, { ...base('m2'), entity: 'client', id: 'c1', patch: { phone: '1' } });
    expect(await d.clients.get('c1')).toMatchObject({
      phone: '1',
      _pending: 2,
      _base: { phone: null },
    });
    const entries = await d.outbox.toArray();
    expect(entries.map((entry) => [entry.op, entry.clientSeq, entry.status])).toEqual([
      ['create', 1, 'pending'],
      ['patch', 2, 'pending'],
    ]);
    expect(entries[1]).toMatchObject({
      args: { phone: '1' },
      baseValues: { phone: null },
      baseVersion: 0,
      query: { id: 'c1' },
      label: 'Client c1',
    });
    expect(entries[0]?.clientId).toBe(entries[1]?.clientId);
  });

  it('leaves neither row nor entry when the write fails', async () => {
    const d = db();
    const create = (mutationId: string) =>
      writeCreate(d, {
        ...base(mutationId),
        entity: 'client',
        row: clientRow('c1'),
        args: {},
        label: 'x',
      });
    await create('m1');
    await expect(create('m2')).rejects.toThrow();
    expect(await d.outbox.count()).toBe(1);
  });

  it('queues nothing for a patch that changes nothing', async () => {
    const d = db();
    await d.clients.add({
      ...clientRow('c1'),
      _v: 3,
      _pending: 0,
      _deleted: false,
      _base: {},
    } as never);
    expect(
      await writePatch(d, { ...base('m1'), entity: 'client', id: 'c1', patch: { phone: null } }),
    ).toBeNull();
    expect(await d.outbox.count()).toBe(0);
  });

  it('asks before deleting a client with projects, and hides them with a cascade', async () => {
    const d = db();
    await d.clients.add({
      ...clientRow('c1'),
      _v: 1,
      _pending: 0,
      _deleted: false,
      _base: {},
    } as never);
    await d.projects.add({
      id: 'p1',
      workspaceId: 'w1',
      clientId: 'c1',
      name: 'P',
      _v: 1,
      _pending: 0,
      _deleted: false,
      _base: {},
    } as never);
    const refused = await writeDelete(d, { ...base('m1'), entity: 'client', id: 'c1' }).catch(
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(LocalWriteError);
    expect((refused as LocalWriteError).details).toEqual({ projectCount: 1 });
    await writeDelete(d, { ...base('m2'), entity: 'client', id: 'c1', cascade: true });
    expect(await d.projects.get('p1')).toMatchObject({
      _deleted: true,
      _pending: 1,
      _cascadeOf: ['m2'],
    });
    expect((await d.outbox.toArray())[0]).toMatchObject({
      op: 'delete',
      query: { id: 'c1', cascade: 'true' },
      cascadeIds: ['p1'],
    });
  });

  it("makes a project depend on its client's unapplied create", async () => {
    const d = db();
    await writeCreate(d, {
      ...base('m1'),
      entity: 'client',
      row: clientRow('c1'),
      args: {},
      label: 'x',
    });
    await writeCreate(d, {
      ...base('m2'),
      entity: 'project',
      row: { id: 'p1', workspaceId: 'w1', name: 'P', clientId: 'c1' },
      args: {},
      label: 'P',
      requires: [{ entity: 'client', id: 'c1' }],
    });
    expect((await d.outbox.toArray()).map((entry) => entry.dependsOn)).toEqual([[], ['m1']]);
    await expect(
      writeCreate(d, {
        ...base('m3'),
        entity: 'project',
        row: { id: 'p2', workspaceId: 'w1', name: 'P', clientId: 'nope' },
        args: {},
        label: 'P',
        requires: [{ entity: 'client', id: 'nope' }],
      }),
    ).rejects.toMatchObject({ code: 'not_found' });
  });
});
