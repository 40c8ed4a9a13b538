/**
 * The sync protocol's envelopes (ARCHITECTURE.md section 4): push replays queued mutations, each
 * exactly the operation its direct endpoint call would be; pull returns changes after a cursor.
 */
import * as v from 'valibot';
import { text } from './text.ts';
import { idSchema } from './entities/ids.ts';
import { syncedEntities, type SyncedEntityTable } from './synced-entities.ts';

export const MAX_PUSH_MUTATIONS = 100;
export const DEFAULT_PULL_LIMIT = 1000;
export const MAX_PULL_LIMIT = 1000;

/** Names of synced tables as the app's database names them: the workspace, then each entity's. */
export const syncedTables: readonly SyncedTable[] = [
  'workspaces',
  ...syncedEntities.map((entity) => entity.table),
];
export type SyncedTable = 'workspaces' | SyncedEntityTable;

export const clientIdSchema = v.pipe(
  text('clientId must be text'),
  v.regex(/^[\w-]{8,64}$/, 'clientId must be 8-64 letters, digits, - or _'),
);

export const pushMutationSchema = v.object({
  mutationId: idSchema,
  clientSeq: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(Number.MAX_SAFE_INTEGER)),
  resource: v.pipe(text(), v.maxLength(64)),
  operation: v.pipe(text(), v.maxLength(64)),
  query: v.optional(v.record(text(), v.union([text(), v.array(text())])), {}),
  body: v.optional(v.unknown()),
  baseVersion: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
  /**
   * A patch's fields as the device last saw them. A field whose server value differs from this
   * was changed by someone else meanwhile: the patch still wins (per-field last writer wins), and
   * the result says so in `conflict`.
   */
  baseValues: v.optional(v.record(text(), v.unknown())),
});
export type PushMutation = v.InferOutput<typeof pushMutationSchema>;

export const pushInputSchema = v.object({
  clientId: clientIdSchema,
  mutations: v.pipe(
    v.array(pushMutationSchema),
    v.minLength(1, 'Send at least one mutation'),
    v.maxLength(MAX_PUSH_MUTATIONS, `Send at most ${MAX_PUSH_MUTATIONS} mutations per push`),
  ),
});
export type PushInput = v.InferOutput<typeof pushInputSchema>;

export const pushConflictSchema = v.object({
  fields: v.array(text()),
  /** Their values, replaced by this patch (what a one-click revert puts back). */
  theirs: v.record(text(), v.unknown()),
  /** Who made the replaced change (a user id), when known. */
  by: v.nullable(text()),
});
export type PushConflict = v.InferOutput<typeof pushConflictSchema>;

export const pushResultSchema = v.object({
  mutationId: text(),
  /** The HTTP status the direct call would have had; 4xx outcomes are final and stored. */
  status: v.number(),
  /** The direct call's response body (its result or its error body). */
  body: v.unknown(),
  /** Change-log sequence of the effect; the mutation is reflected once a pull reaches it. */
  seq: v.nullable(v.number()),
  /** Applied, but it replaced another writer's change of these fields (sync spec b.8.2). */
  conflict: v.optional(pushConflictSchema),
});
export type PushResult = v.InferOutput<typeof pushResultSchema>;

export const pushOutputSchema = v.object({
  results: v.array(pushResultSchema),
  /**
   * Set when the batch stopped early on a temporary failure: mutations after the last result were
   * not attempted and must be sent again later.
   */
  retryAfterSeconds: v.optional(v.number()),
});
export type PushOutput = v.InferOutput<typeof pushOutputSchema>;

export const syncChangeSchema = v.object({
  table: v.picklist(syncedTables),
  id: text(),
  op: v.picklist(['upsert', 'delete', 'scope_remove']),
  row: v.optional(v.record(text(), v.unknown())),
  seq: v.number(),
});
export type SyncChange = v.InferOutput<typeof syncChangeSchema>;

export const pullOutputSchema = v.union([
  v.object({
    changes: v.array(syncChangeSchema),
    /** Opaque: the client stores it and sends it back. */
    cursor: text(),
    hasMore: v.boolean(),
  }),
  v.object({ reset: v.literal(true) }),
]);
export type PullOutput = v.InferOutput<typeof pullOutputSchema>;
