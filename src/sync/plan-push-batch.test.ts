import { describe, expect, it } from 'vitest';
import type { OutboxEntry } from '../db/outbox-entry.ts';
import { coalescePatches, selectBatch } from './plan-push-batch.ts';

let seq = 0;
function entry(fields: Partial<OutboxEntry> & { entityId: string }): OutboxEntry {
  seq += 1;
  return {
    seq,
    mutationId: `m${seq}`,
    clientId: 'device-1',
    clientSeq: seq,
    userId: 'u1',
    workspaceId: 'w1',
    resource: 'client',
    operation: 'update-client',
    query: { id: fields.entityId },
    entity: 'client',
    op: 'patch',
    args: {},
    dependsOn: [],
    label: 'Acme',
    schemaVersion: 1,
    createdAt: 0,
    status: 'pending',
    attempts: 0,
    nextAttemptAt: 0,
    ...fields,
  };
}

describe('coalescing', () => {
  it('merges consecutive unsent patches of one entity: last value wins, first baseValues kept', () => {
    const a1 = entry({ entityId: 'a', args: { name: 'A2' }, baseValues: { name: 'A' } });
    const b1 = entry({ entityId: 'b', args: { name: 'B2' } });
    const a2 = entry({
      entityId: 'a',
      args: { name: 'A3', phone: '1' },
      baseValues: { name: 'A2', phone: null },
    });
    const { entries, merges } = coalescePatches([a1, b1, a2]);
    expect(entries.map((e) => e.mutationId)).toEqual([a1.mutationId, b1.mutationId]);
    expect(entries[0]).toMatchObject({
      args: { name: 'A3', phone: '1' },
      baseValues: { name: 'A', phone: null },
    });
    expect(merges).toHaveLength(1);
    expect(merges[0]?.removed).toEqual([a2]);
  });

  it('never merges across a create or delete, or into an entry that was sent', () => {
    const sent = entry({ entityId: 'a', status: 'retry', attempts: 1, args: { name: 'x' } });
    const after = entry({ entityId: 'a', args: { name: 'y' } });
    const del = entry({ entityId: 'a', op: 'delete' });
    const afterDelete = entry({ entityId: 'a', args: { name: 'z' } });
    expect(coalescePatches([sent, after, del, afterDelete]).merges).toEqual([]);
  });
});

describe('batch selection', () => {
  it('keeps order per entity: a waiting entry holds back only its own entity', () => {
    const now = 1_000;
    const waiting = entry({ entityId: 'a', status: 'retry', nextAttemptAt: now + 5 });
    const later = entry({ entityId: 'a' });
    const other = entry({ entityId: 'b' });
    const batch = selectBatch([waiting, later, other], { now, unapplied: new Set() });
    expect(batch.map((e) => e.entityId)).toEqual(['b']);
  });

  it('sends a dependent only after, or in the same batch as, what it depends on', () => {
    const client = entry({ entityId: 'c', op: 'create', status: 'retry', nextAttemptAt: 99 });
    const project = entry({
      entityId: 'p',
      entity: 'project',
      op: 'create',
      dependsOn: [client.mutationId],
    });
    const unapplied = new Set([client.mutationId, project.mutationId]);
    expect(selectBatch([client, project], { now: 0, unapplied })).toEqual([]);
    expect(selectBatch([client, project], { now: 100, unapplied }).map((e) => e.seq)).toEqual([
      client.seq,
      project.seq,
    ]);
    expect(selectBatch([project], { now: 0, unapplied: new Set([project.mutationId]) })).toEqual([
      project,
    ]);
  });

  it('caps a batch at 100 mutations and about 900 KB, in seq order', () => {
    const many = Array.from({ length: 150 }, (_, i) => entry({ entityId: `e${i}` }));
    const batch = selectBatch(many, { now: 0, unapplied: new Set() });
    expect(batch).toHaveLength(100);
    expect(batch.map((e) => e.seq)).toEqual(many.slice(0, 100).map((e) => e.seq));
    const big = Array.from({ length: 3 }, (_, i) =>
      entry({ entityId: `big${i}`, args: { description: 'x'.repeat(400_000) } }),
    );
    expect(selectBatch(big, { now: 0, unapplied: new Set() })).toHaveLength(2);
  });
});
