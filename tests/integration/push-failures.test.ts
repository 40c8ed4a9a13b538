// What stops a push batch and what does not: a deterministic failure of one mutation (a database
// data error, a bug) is that mutation's recorded rejection and the rest apply; only a temporary
// failure (here a serialization failure) stops the batch, keeping what came before it.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSyncedEntityHandlers } from '../../server/endpoints/synced-entity-handlers.ts';
import type { TestApp } from '../fixtures/create-test-app.ts';
import { createRegisteredUserApp, type RegisteredUserApp } from '../fixtures/registered-user.ts';

type Json = Record<string, any>;

describe('push failures', () => {
  let t: TestApp;
  let workspaceId: string;
  let call: RegisteredUserApp['call'];
  let busy = true;
  const real = createSyncedEntityHandlers({
    mailer: { send: () => Promise.resolve() },
    publicUrl: null,
  })['client/create-client'];

  const create = (clientSeq: number, name: string) => ({
    mutationId: randomUUID(),
    clientSeq,
    resource: 'client',
    operation: 'create-client',
    body: { id: randomUUID(), workspaceId, name },
  });
  const push = (device: string, mutations: Json[]) =>
    call('POST', '/api/sync?endpoint=push', { clientId: device, mutations });
  const names = async () =>
    (
      await t.db.query<{ name: string }>('SELECT name FROM client WHERE workspace_id = $1', [
        workspaceId,
      ])
    ).rows
      .map((row) => row.name)
      .sort();

  beforeAll(async () => {
    ({ t, workspaceId, call } = await createRegisteredUserApp({
      handlers: {
        'client/create-client': async (ctx) => {
          const output = await real(ctx);
          // Each failure happens after the real write, so its rollback is part of the test.
          if (ctx.body.name === 'data error') await ctx.tx.query("SELECT 'not a number'::int");
          if (ctx.body.name === 'bug') throw new TypeError('undefined is not a function');
          if (ctx.body.name === 'busy' && busy) {
            throw Object.assign(new Error('could not serialize access'), { code: '40001' });
          }
          return output;
        },
      },
    }));
  });
  afterAll(async () => {
    await t.cleanup();
  });

  it('records a data error and a bug as rejections; the mutations behind them apply', async () => {
    const device = `device-${randomUUID()}`;
    const batch = [
      create(1, 'data error'),
      create(2, 'first'),
      create(3, 'bug'),
      create(4, 'last'),
    ];
    const first = await push(device, batch);
    expect(first.status).toBe(200);
    expect(first.body.retryAfterSeconds).toBeUndefined();
    expect(first.body.results.map((r: Json) => r.status)).toEqual([400, 200, 500, 200]);
    expect(first.body.results[0].body.error).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(first.body.results[2].body.error).toMatchObject({ code: 'INTERNAL' });
    expect(JSON.stringify(first.body.results[2].body)).not.toContain('undefined is not');
    expect(await names()).toEqual(['first', 'last']);

    // Recorded: sent again, the same answers, nothing applied twice, nothing retried.
    const again = await push(device, batch);
    expect(again.body.results).toEqual(first.body.results);
    expect(await names()).toEqual(['first', 'last']);
    expect(
      t.logLines.some((line) => line.msg === 'a pushed mutation failed; recorded as rejected'),
    ).toBe(true);
  });

  it('stops at a temporary failure, keeping what came before; a retry applies the rest once', async () => {
    const device = `device-${randomUUID()}`;
    const batch = [create(1, 'before'), create(2, 'busy'), create(3, 'after')];
    busy = true;
    const first = await push(device, batch);
    expect(first.status).toBe(200);
    expect(first.body.retryAfterSeconds).toBeGreaterThan(0);
    expect(first.body.results.map((r: Json) => r.status)).toEqual([200]);
    expect(await names()).toContain('before');
    expect(await names()).not.toContain('busy');
    expect(await names()).not.toContain('after');

    busy = false;
    const retry = await push(device, batch);
    expect(retry.body.retryAfterSeconds).toBeUndefined();
    expect(retry.body.results.map((r: Json) => r.status)).toEqual([200, 200, 200]);
    expect(retry.body.results[0]).toEqual(first.body.results[0]);
    const rows = await t.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM client WHERE workspace_id = $1 AND name IN ('before', 'busy', 'after')",
      [workspaceId],
    );
    expect(rows.rows).toEqual([{ n: 3 }]);
  });

  it('a batch leaves the change log without gaps, each entry the version of its row', async () => {
    const device = `device-${randomUUID()}`;
    const before = await t.db.query<{ seq: string }>(
      'SELECT seq FROM workspace_seq WHERE workspace_id = $1',
      [workspaceId],
    );
    const start = Number(before.rows[0]?.seq ?? 0);
    const batch = Array.from({ length: 7 }, (_, i) => create(i + 1, `gapless ${i}`));
    const r = await push(device, batch);
    expect(r.body.results.map((result: Json) => result.seq)).toEqual(
      batch.map((_, i) => start + i + 1),
    );
    const log = await t.db.query<{ seq: string; version: string }>(
      `SELECT l.seq, c.version FROM change_log l JOIN client c ON c.id = l.entity_id
       WHERE l.workspace_id = $1 AND l.seq > $2 ORDER BY l.seq`,
      [workspaceId, start],
    );
    expect(log.rows.map((row) => [Number(row.seq), Number(row.version)])).toEqual(
      batch.map((_, i) => [start + i + 1, start + i + 1]),
    );
    // The reserved block's tail was given back: the next write follows on directly.
    const next = await call('POST', '/api/client?endpoint=create-client', {
      id: randomUUID(),
      workspaceId,
      name: 'direct',
    });
    expect(next.body.client.version).toBe(start + batch.length + 1);
  });
});
