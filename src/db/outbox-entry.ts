/**
 * The outbox record (sync spec b.2), written in the same transaction as the local change; it
 * leaves only when a pull reaches its ack seq, or moves to syncIssues (refused, lost access).
 * Statuses: pending (never sent; may be coalesced) -> inflight -> acked | retry / stuck (sent,
 * outcome temporary or unknown: never coalesced). Queue-wide pauses are engine states.
 */
import * as v from 'valibot';
import { allEntities, type SyncedEntityName } from '#contract/synced-entities.ts';

/** Every declared entity (contract/synced-entities.ts): an entry of any of them is valid. */
export const entityNames = allEntities().map((entity) => entity.name) as SyncedEntityName[];
export type EntityName = SyncedEntityName;

export const mutationOps = ['create', 'patch', 'delete'] as const;
export type MutationOp = (typeof mutationOps)[number];

export const mutationStatuses = ['pending', 'inflight', 'retry', 'stuck', 'acked'] as const;
export type MutationStatus = (typeof mutationStatuses)[number];

/** Version of the mutation format below; an upgrade in app-database.ts rewrites older entries. */
export const MUTATION_SCHEMA_VERSION = 1;

const jsonRecord = v.record(v.string(), v.unknown());

export const outboxEntrySchema = v.object({
  /** Dexie ++ key: FIFO order on this device. */
  seq: v.number(),
  /** Idempotency key (uuid v7). */
  mutationId: v.string(),
  clientId: v.string(),
  clientSeq: v.number(),
  /** Owner: never replayed under another user. */
  userId: v.string(),
  workspaceId: v.string(),
  /** The operation exactly as its direct endpoint call: `/api/<resource>?endpoint=<operation>`. */
  resource: v.string(),
  operation: v.string(),
  query: v.record(v.string(), v.string()),
  entity: v.picklist(entityNames),
  entityId: v.string(),
  op: v.picklist(mutationOps),
  /** The request body; for a patch only the changed fields. */
  args: jsonRecord,
  /** Row `_v` when the user edited it. */
  baseVersion: v.exactOptional(v.number()),
  /** Values the changed fields had before (titles, conflict UI). */
  baseValues: v.exactOptional(jsonRecord),
  /** Mutations that must be applied first (a project's client created offline). */
  dependsOn: v.array(v.string()),
  /** Child rows a cascade delete hides (a client's projects). */
  cascadeIds: v.exactOptional(v.array(v.string())),
  /** The entity's name when queued: the human title of a failure needs it after a rollback. */
  label: v.string(),
  schemaVersion: v.number(),
  /** Client wall clock, informational only. */
  createdAt: v.number(),
  status: v.picklist(mutationStatuses),
  /** Temporary failures the server answered; offline time never counts (stuck rule). */
  attempts: v.number(),
  nextAttemptAt: v.number(),
  firstFailedAt: v.exactOptional(v.number()),
  /** Change-log seq of the applied effect; the entry leaves when a pull reaches it. */
  ackSeq: v.exactOptional(v.number()),
  lastError: v.exactOptional(
    v.object({
      httpStatus: v.number(),
      code: v.string(),
      message: v.string(),
      at: v.number(),
    }),
  ),
});
export type OutboxEntry = v.InferOutput<typeof outboxEntrySchema>;

/**
 * An entry as read back from IndexedDB, checked: the engine sends what this returns, so a row
 * written by an older build or damaged storage is caught here rather than on the server.
 */
export function restoreOutboxEntry(
  raw: unknown,
): { ok: true; entry: OutboxEntry } | { ok: false; message: string } {
  const result = v.safeParse(outboxEntrySchema, raw);
  return result.success
    ? { ok: true, entry: result.output }
    : { ok: false, message: result.issues.map((issue) => issue.message).join('; ') };
}

/** Statuses of entries the server has not applied yet ("N changes waiting"). */
export const WAITING_STATUSES: readonly MutationStatus[] = ['pending', 'inflight', 'retry'];
