/**
 * Sync issues (sync spec b.9): changes the server refused, lost access to, or that are stuck.
 * Invariant: a rejected change leaves the outbox and lands here in the same transaction, with its
 * full payload, so nothing the user typed is dropped without an explicit Discard. A `stuck` issue
 * points at an entry that is still in the outbox and still retried; it goes away if that succeeds.
 */
import * as v from 'valibot';
import { entityNames, mutationOps } from './outbox-entry.ts';

export const syncIssueReasons = [
  'validation',
  'forbidden',
  'not_found',
  'conflict',
  'access_revoked',
  'stuck',
  'update_required',
  'server_error',
] as const;
export type SyncIssueReason = (typeof syncIssueReasons)[number];

export const syncIssueSchema = v.object({
  /** The mutation id, or `stuck:<mutationId>` for a stuck entry still queued. */
  id: v.string(),
  mutationId: v.string(),
  workspaceId: v.string(),
  entity: v.picklist(entityNames),
  entityId: v.string(),
  /** In words: "Rename client 'Acme' to 'Acme Ltd'". */
  title: v.string(),
  reason: v.picklist(syncIssueReasons),
  serverMessage: v.string(),
  httpStatus: v.exactOptional(v.number()),
  createdAt: v.number(),
  attempts: v.number(),
  /** What the change was, enough to retry it as a new mutation or to edit and retry. */
  payload: v.object({
    resource: v.string(),
    operation: v.string(),
    query: v.record(v.string(), v.string()),
    op: v.picklist(mutationOps),
    args: v.record(v.string(), v.unknown()),
    label: v.string(),
  }),
  baseValues: v.exactOptional(v.record(v.string(), v.unknown())),
  resolved: v.boolean(),
  /**
   * A notice, not a failure: the change was applied but replaced someone else's edit of the same
   * fields (sync spec b.8.2). Not counted as "couldn't be saved"; offers a revert to theirs.
   */
  overwrote: v.exactOptional(
    v.object({
      fields: v.array(v.string()),
      theirs: v.record(v.string(), v.unknown()),
      by: v.nullable(v.string()),
    }),
  ),
});
export type SyncIssue = v.InferOutput<typeof syncIssueSchema>;

export const stuckIssueId = (mutationId: string) => `stuck:${mutationId}`;
export const overwroteIssueId = (mutationId: string) => `overwrote:${mutationId}`;
