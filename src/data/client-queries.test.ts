import { renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createAppDatabase } from '../db/app-database.ts';
import { createClient, deleteClient, updateClient } from './client-mutations.ts';
import {
  getClient,
  listClientTags,
  listClients,
  listRecentClients,
  useClients,
} from './client-queries.ts';

const WS = '0190a000-0000-7000-8000-000000000001';

async function setup() {
  let now = Date.UTC(2026, 0, 1);
  const ctx = {
    db: createAppDatabase('u1', { name: `test-${crypto.randomUUID()}` }),
    userId: 'u1',
    now: () => (now += 1_000),
  };
  const zed = await createClient(ctx, { workspaceId: WS, name: 'zed', tags: ['vip'] });
  const acme = await createClient(ctx, { workspaceId: WS, name: 'Acme', status: 'lead' });
  const gone = await createClient(ctx, { workspaceId: WS, name: 'Gone' });
  const old = await createClient(ctx, { workspaceId: WS, name: 'Old', email: 'old@acme.test' });
  await deleteClient(ctx, gone.id);
  await updateClient(ctx, old.id, { archived: true });
  return { ctx, zed, acme, gone, old };
}

describe('client queries', () => {
  it('lists by name, filters status, tag, archived and search, never pending deletes', async () => {
    const { ctx, zed, acme, gone, old } = await setup();
    const names = async (options = {}) =>
      (await listClients(ctx.db, WS, options)).map((c) => c.name);
    expect(await names()).toEqual(['Acme', 'zed']);
    expect(await names({ includeArchived: true })).toEqual(['Acme', 'Old', 'zed']);
    expect(await names({ status: 'lead' })).toEqual(['Acme']);
    expect(await names({ tag: 'vip' })).toEqual(['zed']);
    expect(await names({ search: 'ACME', includeArchived: true })).toEqual(['Acme', 'Old']);
    expect(await getClient(ctx.db, gone.id)).toBeUndefined();
    expect((await listRecentClients(ctx.db, WS, 2)).map((c) => c.id)).toEqual([acme.id, zed.id]);
    expect(await listClientTags(ctx.db, WS)).toEqual(['vip']);
    expect(old.id).toBeDefined();
  });

  it('updates a mounted list live after a local write', async () => {
    const { ctx } = await setup();
    const { result } = renderHook(() => useClients(ctx.db, WS));
    await waitFor(() => expect(result.current?.map((c) => c.name)).toEqual(['Acme', 'zed']));
    await createClient(ctx, { workspaceId: WS, name: 'Beta' });
    await waitFor(() =>
      expect(result.current?.map((c) => c.name)).toEqual(['Acme', 'Beta', 'zed']),
    );
  });
});
