/**
 * Which queued entries the next push sends (sync spec b.2, b.10), as pure functions: consecutive
 * never-sent patches of one entity coalesce (last value wins, earliest baseValues kept); order is
 * per entity, so a waiting entry holds back only its own entity; at most 100 entries and about
 * 900 KB per request, in seq order.
 */
import { MAX_PUSH_MUTATIONS } from '#contract/sync.ts';
import type { OutboxEntry } from '../db/outbox-entry.ts';

/** The server reads at most 1 MiB per request; leave room for the envelope. */
export const MAX_PUSH_BYTES = 900_000;
const ENVELOPE_BYTES_PER_MUTATION = 200;

export interface PatchMerge {
  /** The surviving entry, updated. */
  into: OutboxEntry;
  /** Entries folded into it, to delete. */
  removed: OutboxEntry[];
}

const entityKey = (entry: OutboxEntry) => `${entry.entity}:${entry.entityId}`;
const canMerge = (entry: OutboxEntry) =>
  entry.op === 'patch' && entry.status === 'pending' && entry.attempts === 0;

export function coalescePatches(entries: readonly OutboxEntry[]): {
  entries: OutboxEntry[];
  merges: PatchMerge[];
} {
  // Nothing that could merge (a queue of creates, or patches already sent): the queue as it is.
  if (!entries.some(canMerge)) return { entries: [...entries], merges: [] };
  const open = new Map<string, PatchMerge>();
  const merges: PatchMerge[] = [];
  const kept: OutboxEntry[] = [];
  for (const entry of entries) {
    const key = entityKey(entry);
    const current = open.get(key);
    if (current && canMerge(entry)) {
      const into = current.into;
      current.into = {
        ...into,
        args: { ...into.args, ...entry.args },
        baseValues: { ...entry.baseValues, ...into.baseValues },
        dependsOn: [...new Set([...into.dependsOn, ...entry.dependsOn])],
      };
      current.removed.push(entry);
      continue;
    }
    if (canMerge(entry)) {
      const merge: PatchMerge = { into: entry, removed: [] };
      open.set(key, merge);
      merges.push(merge);
    } else {
      open.delete(key);
    }
    kept.push(entry);
  }
  const merged = merges.filter((merge) => merge.removed.length > 0);
  const bySeq = new Map(merged.map((merge) => [merge.into.seq, merge.into]));
  return {
    entries: kept.map((entry) => bySeq.get(entry.seq) ?? entry),
    merges: merged,
  };
}

export function pushPayloadBytes(entry: OutboxEntry): number {
  return JSON.stringify(entry.args).length + ENVELOPE_BYTES_PER_MUTATION;
}

/**
 * The next batch. `entries` are the unapplied entries in seq order; `unapplied` the mutation ids
 * not yet applied by the server (dependencies on them must wait, unless they travel earlier in
 * the same batch: the server applies a batch in order and stops at the first temporary failure).
 */
export function selectBatch(
  entries: readonly OutboxEntry[],
  options: { now: number; unapplied: ReadonlySet<string>; max?: number; maxBytes?: number },
): OutboxEntry[] {
  const max = options.max ?? MAX_PUSH_MUTATIONS;
  const maxBytes = options.maxBytes ?? MAX_PUSH_BYTES;
  const held = new Set<string>();
  const chosen = new Set<string>();
  const batch: OutboxEntry[] = [];
  let bytes = 0;
  for (const entry of entries) {
    if (batch.length >= max) break;
    const key = entityKey(entry);
    if (held.has(key) || entry.status === 'acked') continue;
    const ready =
      (entry.status === 'pending' || entry.status === 'retry' || entry.status === 'stuck') &&
      entry.nextAttemptAt <= options.now &&
      entry.dependsOn.every((id) => !options.unapplied.has(id) || chosen.has(id));
    const size = pushPayloadBytes(entry);
    if (!ready || (batch.length > 0 && bytes + size > maxBytes)) {
      held.add(key);
      continue;
    }
    batch.push(entry);
    chosen.add(entry.mutationId);
    bytes += size;
  }
  return batch;
}
