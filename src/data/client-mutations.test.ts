import { describe, expect, it } from 'vitest';
import { createAppDatabase } from '../db/app-database.ts';
import { LocalWriteError, type LocalWriteContext } from '../db/local-write.ts';
import { cancelQueuedChange } from '../sync/sync-client.ts';
import { archiveClients, createClient, deleteClient, updateClient } from './client-mutations.ts';

const WS = '0190a000-0000-7000-8000-000000000001';

function context(): LocalWriteContext & { queued: number } {
  const ctx = {
    db: createAppDatabase('u1', { name: `test-${crypto.randomUUID()}` }),
    userId: 'u1',
    now: () => Date.UTC(2026, 2, 1),
    queued: 0,
    onQueued: () => {
      ctx.queued += 1;
    },
  };
  return ctx;
}

describe('client mutations', () => {
  it('creates with contract defaults, a uuid v7 id, and a create-client entry', async () => {
    const ctx = context();
    const client = await createClient(ctx, { workspaceId: WS, name: '  Acme  ' });
    expect(client.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7/);
    expect(await ctx.db.clients.get(client.id)).toMatchObject({
      name: 'Acme',
      status: 'active',
      currency: 'USD',
      tags: [],
      createdAt: '2026-03-01T00:00:00.000Z',
      _pending: 1,
    });
    const [entry] = await ctx.db.outbox.toArray();
    expect(entry).toMatchObject({
      resource: 'client',
      operation: 'create-client',
      op: 'create',
      args: { id: client.id, workspaceId: WS, name: 'Acme' },
    });
    expect(entry?.mutationId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7/);
    expect(ctx.queued).toBe(1);
  });

  it('cleans pasted control characters before the row and the outbox entry are written', async () => {
    const ctx = context();
    const client = await createClient(ctx, { workspaceId: WS, name: 'Ac\u0000me\uD800' });
    expect(await ctx.db.clients.get(client.id)).toMatchObject({ name: 'Acme\uFFFD' });
    const [entry] = await ctx.db.outbox.toArray();
    expect(entry?.args).toMatchObject({ name: 'Acme\uFFFD' });
  });

  it('refuses invalid input before anything is written', async () => {
    const ctx = context();
    const error = await createClient(ctx, { workspaceId: WS, name: '', email: 'nope' }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(LocalWriteError);
    expect((error as LocalWriteError).details.issues).toEqual(
      expect.arrayContaining([expect.objectContaining({ path: 'name' })]),
    );
    expect(await ctx.db.outbox.count()).toBe(0);
    expect(ctx.queued).toBe(0);
  });

  it('queues only changed fields, archives several, and deletes', async () => {
    const ctx = context();
    const a = await createClient(ctx, { workspaceId: WS, name: 'A' });
    const b = await createClient(ctx, { workspaceId: WS, name: 'B' });
    expect(await updateClient(ctx, a.id, { name: 'A', tags: ['vip'] })).toBe(true);
    expect(await updateClient(ctx, a.id, { tags: ['vip'] })).toBe(false);
    expect(await archiveClients(ctx, [a.id, b.id])).toBe(2);
    await deleteClient(ctx, b.id);
    const entries = await ctx.db.outbox.toArray();
    expect(entries.slice(2).map((e) => [e.operation, e.args, e.query])).toEqual([
      ['update-client', { tags: ['vip'] }, { id: a.id }],
      ['update-client', { archived: true }, { id: a.id }],
      ['update-client', { archived: true }, { id: b.id }],
      ['delete-client', {}, { id: b.id }],
    ]);
    expect(await ctx.db.clients.get(b.id)).toMatchObject({ _deleted: true, archived: true });
  });

  it('holds a delete for its undo window, and Undo within it restores the client', async () => {
    const ctx = context();
    const client = await createClient(ctx, { workspaceId: WS, name: 'Acme' });
    await ctx.db.outbox.clear();
    await ctx.db.clients.update(client.id, { _pending: 0, _v: 4 });

    const mutationId = await deleteClient(ctx, client.id, { undoWindowMs: 6000 });
    const [held] = await ctx.db.outbox.toArray();
    expect(held).toMatchObject({ mutationId, op: 'delete', nextAttemptAt: ctx.now!() + 6000 });
    expect(await ctx.db.clients.get(client.id)).toMatchObject({ _deleted: true });

    expect(await cancelQueuedChange(ctx.db, mutationId)).toBe(true);
    expect(await ctx.db.outbox.count()).toBe(0);
    expect(await ctx.db.clients.get(client.id)).toMatchObject({ _deleted: false, _pending: 0 });
  });

  it('cannot undo a delete that is already on its way', async () => {
    const ctx = context();
    const client = await createClient(ctx, { workspaceId: WS, name: 'Acme' });
    await ctx.db.outbox.clear();
    await ctx.db.clients.update(client.id, { _pending: 0, _v: 4 });
    const mutationId = await deleteClient(ctx, client.id);
    await ctx.db.outbox.where('mutationId').equals(mutationId).modify({ status: 'inflight' });
    expect(await cancelQueuedChange(ctx.db, mutationId)).toBe(false);
    expect(await ctx.db.outbox.count()).toBe(1);
  });
});
