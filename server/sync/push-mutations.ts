/**
 * Sync push: queued mutations from one device, applied in order in ONE transaction, each in its
 * own savepoint together with its `sync_mutation` record, so each is applied exactly once however
 * often it is sent (the batch commits with its records, or not at all). Outcomes per mutation:
 * - success: effect + record, kept at the batch's commit; the record holds the response and seq;
 * - deterministic failure (any 4xx, a database data error, a bug's 500): rolled back to its
 *   savepoint, the rejection recorded, and the batch goes on (one bad entry never jams the queue);
 * - temporary failure (database unavailable, serialization, deadlock, a 503/429): rolled back to
 *   its savepoint, the mutations before it commit, and the batch stops with `retryAfterSeconds`.
 * If the transaction itself fails (connection lost), nothing commits and the push is a 503.
 * The batch is first tried without savepoints, with one insert of all its records and its creates
 * written several rows a statement (batch-writes.ts); any failure, a create's id conflict among
 * them, rolls that attempt back whole and the batch runs again as above (same outcome, fewer
 * statements on the common path where every mutation applies).
 * A replay of a recorded mutation returns the record verbatim.
 */
import type { EndpointDefinition } from '#contract/define-endpoint.ts';
import type { ErrorBody } from '#contract/errors.ts';
import { endpointRegistry } from '#contract/endpoint-registry.ts';
import type { PushMutation, PushOutput, PushResult } from '#contract/sync.ts';
import type { Identity } from '../auth/identity.ts';
import type { Queryable } from '../db/database.ts';
import { AppError, ErrorCode, isAppError } from '../http/app-error.ts';
import { requestHash } from '../http/idempotency.ts';
import type { OperationBatch, OperationOutcome, OperationRunner } from '../http/run-operation.ts';
import { databaseErrorToAppError, isTemporaryDatabaseFailure } from '../http/database-error.ts';
import { cleanJson } from '#contract/text.ts';
import type { Logger } from '../logger.ts';

/** Operations whose handler runs its own transactions (see run-operation.ts). */
export const OWN_TRANSACTION_OPERATIONS: ReadonlySet<string> = new Set(['sync/push']);

const TEMPORARY_RETRY_SECONDS = 5;

interface StoredMutation {
  client_id: string;
  request_hash: string;
  status: number;
  response_body: unknown;
  change_seq: string | null;
}

export async function pushMutations(input: {
  clientId: string;
  mutations: PushMutation[];
  identity: Identity;
  runner: OperationRunner;
  requestId: string;
  clientIp: string;
  logger: Logger;
}): Promise<PushOutput> {
  try {
    // Fast path: the whole batch with no savepoints and one insert of its records. Any failure
    // (a rejection, a twin's record, a temporary one) loses that attempt, and the batch runs again
    // carefully, a savepoint per mutation. Failures are rare; savepoints cost two statements each.
    try {
      return await input.runner.batch((batch) => applyBatch(batch, input), { savepoints: false });
    } catch (error) {
      if (!(error instanceof StartCarefully)) throw error;
    }
    return await input.runner.batch((batch) => applyBatch(batch, input), { savepoints: true });
  } catch (error) {
    if (isTemporaryDatabaseFailure(error)) {
      // The batch's transaction itself failed (connection lost, shutdown): nothing committed,
      // the device sends the same mutations again later and exactly-once holds.
      input.logger.warn({ err: error }, 'push failed on a temporary database failure');
      throw new AppError(ErrorCode.UNAVAILABLE, 'The server could not take changes right now.', {
        headers: { 'Retry-After': String(TEMPORARY_RETRY_SECONDS) },
      });
    }
    throw error;
  }
}

async function applyBatch(
  batch: OperationBatch,
  input: {
    clientId: string;
    mutations: PushMutation[];
    identity: Identity;
    requestId: string;
    clientIp: string;
    logger: Logger;
  },
): Promise<PushOutput> {
  const { clientId, identity, logger, mutations } = input;
  const { tx } = batch;
  // The fast path notes the device's highest client sequence here: it applies every mutation or
  // is rolled back whole. The careful one may stop early, so it notes only what it got through.
  const { rows: owners } = await tx.query<{ user_id: string }>(
    `INSERT INTO sync_client (client_id, user_id, last_client_seq) VALUES ($1, $2, $3)
     ON CONFLICT (client_id) DO UPDATE SET last_seen_at = now(),
       last_client_seq = GREATEST(sync_client.last_client_seq, EXCLUDED.last_client_seq)
     RETURNING user_id`,
    [clientId, identity.userId, batch.savepoints ? 0 : highestClientSeq(mutations)],
  );
  if (owners[0]?.user_id !== identity.userId) {
    // Security: a device id is bound to the user who first used it; never replay under another.
    throw new AppError(
      ErrorCode.FORBIDDEN,
      'This device id belongs to another user; sign in again to get a new one.',
    );
  }

  // One read for the whole batch: a replay is rare, and a query per mutation halved throughput.
  const storedById = await findStoredMany(
    tx,
    mutations.map((mutation) => mutation.mutationId),
  );
  const results: PushResult[] = [];
  const deferred: RecordEntry[] = [];
  // Fast path: an outcome's output may be completed only by the batch's flush (batch-writes.ts).
  const completed: { result: PushResult; outcome: OperationOutcome }[] = [];
  for (const mutation of mutations) {
    const hash = requestHash({
      method: 'SYNC',
      resource: mutation.resource,
      operation: mutation.operation,
      query: mutation.query,
      body: mutation.body,
    });
    const stored = storedById.get(mutation.mutationId);
    if (stored) {
      results.push(replayOrRefuse(mutation.mutationId, stored, clientId, hash, input.requestId));
      continue;
    }

    try {
      const def = resolveMutation(mutation);
      const outcome = await batch.run(
        {
          def,
          rawQuery: mutation.query,
          rawBody: mutation.body,
          identity,
          requestId: input.requestId,
          clientIp: input.clientIp,
          logger,
          originClientId: clientId,
          baseValues: mutation.baseValues,
        },
        async (opTx, result) => {
          const entry = {
            clientId,
            mutation,
            userId: identity.userId,
            hash,
            status: def.status,
            body: result.output,
            seq: result.seq,
          };
          // Careful: the record joins the mutation's savepoint, so a twin's shows here at once.
          if (batch.savepoints) await record(opTx, entry);
          else deferred.push(entry);
        },
      );
      const result: PushResult = {
        mutationId: mutation.mutationId,
        status: def.status,
        body: outcome.output,
        seq: outcome.seq,
        ...(outcome.conflict ? { conflict: outcome.conflict } : {}),
      };
      results.push(result);
      if (!batch.savepoints) completed.push({ result, outcome });
    } catch (error) {
      if (!batch.savepoints) throw new StartCarefully();
      // The mutation's savepoint is rolled back; the batch's transaction is usable again.
      if (isTemporaryFailure(error)) {
        logger.warn(
          { err: error, mutationId: mutation.mutationId },
          'push stopped on a temporary failure',
        );
        const retryAfter = isAppError(error)
          ? Number(error.headers['Retry-After'] ?? TEMPORARY_RETRY_SECONDS)
          : TEMPORARY_RETRY_SECONDS;
        await noteClientSeq(tx, clientId, mutations.slice(0, results.length));
        return {
          results,
          retryAfterSeconds: Number.isFinite(retryAfter) ? retryAfter : TEMPORARY_RETRY_SECONDS,
        };
      }
      // A twin of this mutation (another tab's push) may have committed since the batch's
      // lookup, and this failure may only say so (a unique violation on its record, or "already
      // exists"): the twin's record wins.
      const twin = await findStored(tx, mutation.mutationId);
      if (twin) {
        results.push(replayOrRefuse(mutation.mutationId, twin, clientId, hash, input.requestId));
        continue;
      }
      // Anything else is deterministic: the same mutation would fail the same way for ever, so it
      // is this mutation's permanent rejection, recorded, and the mutations behind it still apply.
      const appError = toAppError(error);
      if (appError.status >= 500) {
        logger.error(
          { err: error, mutationId: mutation.mutationId },
          'a pushed mutation failed; recorded as rejected',
        );
      }
      const result = errorResult(mutation.mutationId, appError, input.requestId);
      await batch.inSavepoint(() =>
        record(tx, {
          clientId,
          mutation,
          userId: identity.userId,
          hash,
          status: result.status,
          body: result.body,
          seq: null,
        }),
      );
      results.push(result);
    }
  }
  if (!batch.savepoints) {
    try {
      // The queued writes (a create's id conflict shows here), then every outcome is complete.
      await batch.flush();
    } catch {
      throw new StartCarefully();
    }
    for (const { result, outcome } of completed) result.body = outcome.output;
  }
  if (deferred.length > 0) {
    try {
      await recordMany(tx, deferred);
    } catch {
      // A twin push recorded one of these meanwhile (PostgreSQL): start carefully, it replays.
      throw new StartCarefully();
    }
  }
  if (batch.savepoints) await noteClientSeq(tx, clientId, mutations);
  return { results };
}

/** The fast attempt met a failure: it is rolled back whole and the batch runs with savepoints. */
class StartCarefully extends Error {}

/**
 * The device's highest client sequence seen, once per push (bookkeeping for support and stale
 * device cleanup; exactly-once rests on the per-mutation records, not on this).
 */
async function noteClientSeq(
  tx: Queryable,
  clientId: string,
  mutations: PushMutation[],
): Promise<void> {
  if (mutations.length === 0) return;
  const highest = highestClientSeq(mutations);
  await tx.query(
    'UPDATE sync_client SET last_client_seq = GREATEST(last_client_seq, $2), last_seen_at = now() WHERE client_id = $1',
    [clientId, highest],
  );
}

function highestClientSeq(mutations: PushMutation[]): number {
  return mutations.reduce((highest, mutation) => Math.max(highest, mutation.clientSeq), 0);
}

/** The registered operation a mutation names, if it is one a device may queue. */
function resolveMutation(mutation: PushMutation): EndpointDefinition {
  const def = (endpointRegistry as readonly EndpointDefinition[]).find(
    (candidate) =>
      candidate.resource === mutation.resource && candidate.operation === mutation.operation,
  );
  if (!def) {
    throw new AppError(
      ErrorCode.UNKNOWN_ENDPOINT,
      `Unknown operation '${mutation.operation}' for resource '${mutation.resource}'.`,
    );
  }
  if (def.method === 'GET' || def.auth !== 'user' || def.resource === 'sync') {
    throw new AppError(
      ErrorCode.VALIDATION_FAILED,
      `${def.resource}?endpoint=${def.operation} cannot be queued for sync.`,
    );
  }
  return def;
}

async function findStoredMany(
  tx: Queryable,
  mutationIds: string[],
): Promise<Map<string, StoredMutation>> {
  const { rows } = await tx.query<StoredMutation & { mutation_id: string }>(
    'SELECT mutation_id, client_id, request_hash, status, response_body, change_seq FROM sync_mutation WHERE mutation_id = ANY($1::uuid[])',
    [mutationIds],
  );
  return new Map(rows.map((row) => [row.mutation_id, row]));
}

async function findStored(tx: Queryable, mutationId: string): Promise<StoredMutation | null> {
  const { rows } = await tx.query<StoredMutation>(
    'SELECT client_id, request_hash, status, response_body, change_seq FROM sync_mutation WHERE mutation_id = $1',
    [mutationId],
  );
  return rows[0] ?? null;
}

interface RecordEntry {
  clientId: string;
  mutation: PushMutation;
  userId: string;
  hash: string;
  status: number;
  body: unknown;
  seq: number | null;
}

const RECORD_COLUMNS =
  'INSERT INTO sync_mutation (mutation_id, client_id, client_seq, user_id, request_hash, status, response_body, change_seq)';

function recordValues(entry: RecordEntry): unknown[] {
  return [
    entry.mutation.mutationId,
    entry.clientId,
    entry.mutation.clientSeq,
    entry.userId,
    entry.hash,
    entry.status,
    // A rejection's body may echo the input; cleaned, jsonb can always hold it.
    JSON.stringify(entry.status < 300 ? (entry.body ?? null) : cleanJson(entry.body ?? null)),
    entry.seq,
  ];
}

async function record(tx: Queryable, entry: RecordEntry): Promise<void> {
  // A plain INSERT for successes: a racing twin makes it fail with 23505 and roll the effect back.
  // Rejections use ON CONFLICT DO NOTHING: a lost race there leaves the winner's record in place.
  const conflict = entry.status < 300 ? '' : ' ON CONFLICT DO NOTHING';
  await tx.query(
    `${RECORD_COLUMNS} VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8)${conflict}`,
    recordValues(entry),
  );
}

/** The fast path's records, one statement for the batch (a twin's record fails it whole). */
async function recordMany(tx: Queryable, entries: RecordEntry[]): Promise<void> {
  const rows = entries.map((_, index) => {
    const n = index * 8;
    return `($${n + 1}, $${n + 2}, $${n + 3}, $${n + 4}, $${n + 5}, $${n + 6}, $${n + 7}::jsonb, $${n + 8})`;
  });
  await tx.query(`${RECORD_COLUMNS} VALUES ${rows.join(', ')}`, entries.flatMap(recordValues));
}

/** A recorded mutation sent again: its stored result, unless the id now names another change. */
function replayOrRefuse(
  mutationId: string,
  stored: StoredMutation,
  clientId: string,
  hash: string,
  requestId: string,
): PushResult {
  return stored.client_id === clientId && stored.request_hash === hash
    ? storedResult(mutationId, stored)
    : errorResult(
        mutationId,
        new AppError(
          ErrorCode.IDEMPOTENCY_KEY_REUSED,
          'This mutation id was already used for a different change.',
        ),
        requestId,
      );
}

function storedResult(mutationId: string, stored: StoredMutation): PushResult {
  return {
    mutationId,
    status: stored.status,
    body: stored.response_body,
    seq: stored.change_seq === null ? null : Number(stored.change_seq),
  };
}

function errorResult(mutationId: string, error: AppError, requestId: string): PushResult {
  const body: ErrorBody = {
    error: {
      code: error.code,
      message: error.message,
      ...(error.details === undefined ? {} : { details: error.details }),
      requestId,
    },
  };
  return { mutationId, status: error.status, body, seq: null };
}

/** Only a database that could not work right now, or a server asking for a pause, may stop a batch. */
function isTemporaryFailure(error: unknown): boolean {
  if (isAppError(error)) return error.status === 503 || error.status === 429;
  return isTemporaryDatabaseFailure(error);
}

/** A deterministic failure in the contract's terms: expected ones keep their code, a bug is a 500. */
function toAppError(error: unknown): AppError {
  if (isAppError(error)) return error;
  return (
    databaseErrorToAppError(error) ??
    new AppError(
      ErrorCode.INTERNAL,
      'The server could not apply this change. It has been logged; nothing after it was held up.',
    )
  );
}
