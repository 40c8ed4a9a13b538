/**
 * Sync push: queued mutations from one device, applied in order, each in its own transaction
 * together with its `sync_mutation` record, so each is applied exactly once however often it is
 * sent. Outcomes:
 * - success: effect + record commit together; the record holds the response and change sequence;
 * - permanent rejection (400/403/404/409/410/422): the effect rolls back, the rejection is
 *   recorded, and the batch goes on (one bad entry never jams the queue);
 * - temporary failure (5xx, serialization): nothing is recorded and the batch stops there.
 * A replay of a recorded mutation returns the record verbatim.
 */
import type { EndpointDefinition } from '#contract/define-endpoint.ts';
import type { ErrorBody } from '#contract/errors.ts';
import { endpointRegistry } from '#contract/endpoint-registry.ts';
import type { PushConflict, PushMutation, PushOutput, PushResult } from '#contract/sync.ts';
import type { Identity } from '../auth/identity.ts';
import type { Queryable } from '../db/database.ts';
import { AppError, ErrorCode, isAppError } from '../http/app-error.ts';
import { requestHash } from '../http/idempotency.ts';
import type { OperationRunner } from '../http/run-operation.ts';
import type { Logger } from '../logger.ts';

/** Operations whose handler runs its own transactions (see run-operation.ts). */
export const OWN_TRANSACTION_OPERATIONS: ReadonlySet<string> = new Set(['sync/push']);

const PERMANENT_STATUSES = new Set([400, 403, 404, 405, 409, 410, 413, 415, 422]);
const UNIQUE_VIOLATION = '23505';
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
  const { clientId, identity, runner, logger } = input;
  const owner = await runner.transaction(async (tx) => {
    const { rows } = await tx.query<{ user_id: string }>(
      `INSERT INTO sync_client (client_id, user_id) VALUES ($1, $2)
       ON CONFLICT (client_id) DO UPDATE SET last_seen_at = now()
       RETURNING user_id`,
      [clientId, identity.userId],
    );
    return rows[0]?.user_id;
  });
  if (owner !== identity.userId) {
    // Security: a device id is bound to the user who first used it; never replay under another.
    throw new AppError(
      ErrorCode.FORBIDDEN,
      'This device id belongs to another user; sign in again to get a new one.',
    );
  }

  // One read for the whole batch: a replay is rare, and a query per mutation halved throughput.
  const storedById = await findStoredMany(
    runner,
    input.mutations.map((mutation) => mutation.mutationId),
  );
  const results: PushResult[] = [];
  for (const mutation of input.mutations) {
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
      const conflict = await detectConflict(runner, def, mutation, input);
      const outcome = await runner.run(
        {
          def,
          rawQuery: mutation.query,
          rawBody: mutation.body,
          identity,
          requestId: input.requestId,
          clientIp: input.clientIp,
          logger,
          originClientId: clientId,
        },
        (tx, result) =>
          record(tx, {
            clientId,
            mutation,
            userId: identity.userId,
            hash,
            status: def.status,
            body: result.output,
            seq: result.seq,
          }),
      );
      results.push({
        mutationId: mutation.mutationId,
        status: def.status,
        body: outcome.output,
        seq: outcome.seq,
        ...(conflict ? { conflict } : {}),
      });
    } catch (error) {
      if ((error as { code?: unknown }).code === UNIQUE_VIOLATION) {
        // The same mutation committed meanwhile through another request (two tabs): replay it.
        const winner = await findStored(runner, mutation.mutationId);
        if (winner) {
          results.push(
            replayOrRefuse(mutation.mutationId, winner, clientId, hash, input.requestId),
          );
          continue;
        }
      }
      const appError = toAppError(error);
      if (!appError || !PERMANENT_STATUSES.has(appError.status)) {
        logger.warn(
          { err: error, mutationId: mutation.mutationId },
          'push stopped on a temporary failure',
        );
        const retryAfter = Number(appError?.headers['Retry-After'] ?? TEMPORARY_RETRY_SECONDS);
        await noteClientSeq(runner, clientId, input.mutations.slice(0, results.length));
        return {
          results,
          retryAfterSeconds: Number.isFinite(retryAfter) ? retryAfter : TEMPORARY_RETRY_SECONDS,
        };
      }
      // A twin of this mutation (another tab's push) may have committed since the batch's
      // lookup, and this refusal may only say so ("already exists"): the twin's record wins.
      const twin = await findStored(runner, mutation.mutationId);
      if (twin) {
        results.push(replayOrRefuse(mutation.mutationId, twin, clientId, hash, input.requestId));
        continue;
      }
      const result = errorResult(mutation.mutationId, appError, input.requestId);
      await runner.transaction((tx) =>
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
  await noteClientSeq(runner, clientId, input.mutations);
  return { results };
}

/**
 * The device's highest client sequence seen, once per push (bookkeeping for support and stale
 * device cleanup; exactly-once rests on the per-mutation records, not on this).
 */
async function noteClientSeq(
  runner: OperationRunner,
  clientId: string,
  mutations: PushMutation[],
): Promise<void> {
  if (mutations.length === 0) return;
  const highest = Math.max(...mutations.map((mutation) => mutation.clientSeq));
  await runner.transaction((tx) =>
    tx.query(
      'UPDATE sync_client SET last_client_seq = GREATEST(last_client_seq, $2), last_seen_at = now() WHERE client_id = $1',
      [clientId, highest],
    ),
  );
}

/** JSON equality for field values (strings, numbers, null, arrays of tags). */
function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

/**
 * Sync spec b.8.2, detect, don't block: before an `update-x` patch, read the entity through its
 * `get-x` operation (with the caller's identity, so no access is widened) and compare each patched
 * field with the value the device saw. Informational: read in its own transaction, so a change
 * landing in between may go unreported, never wrongly blocked. Any failure reads as "no conflict";
 * the update itself then reports what is wrong.
 */
async function detectConflict(
  runner: OperationRunner,
  def: EndpointDefinition,
  mutation: PushMutation,
  context: { identity: Identity; requestId: string; clientIp: string; logger: Logger },
): Promise<PushConflict | null> {
  const base = mutation.baseValues;
  const body = mutation.body;
  if (!base || !def.operation.startsWith('update-') || typeof body !== 'object' || body === null) {
    return null;
  }
  const getDef = (endpointRegistry as readonly EndpointDefinition[]).find(
    (candidate) =>
      candidate.resource === def.resource &&
      candidate.operation === `get-${def.operation.slice('update-'.length)}`,
  );
  const id = mutation.query.id;
  if (!getDef || typeof id !== 'string') return null;
  try {
    const { output } = await runner.run({
      def: getDef,
      rawQuery: { id },
      rawBody: undefined,
      identity: context.identity,
      requestId: context.requestId,
      clientIp: context.clientIp,
      logger: context.logger,
    });
    const current = Object.values(output as Record<string, unknown>)[0] as
      Record<string, unknown> | undefined;
    if (!current) return null;
    const fields = Object.keys(body).filter(
      (field) => field in base && !sameValue(current[field], base[field]),
    );
    if (fields.length === 0) return null;
    return {
      fields,
      theirs: Object.fromEntries(fields.map((field) => [field, current[field] ?? null])),
      by: typeof current.updatedBy === 'string' ? current.updatedBy : null,
    };
  } catch {
    return null;
  }
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
  runner: OperationRunner,
  mutationIds: string[],
): Promise<Map<string, StoredMutation>> {
  const { rows } = await runner.transaction((tx) =>
    tx.query<StoredMutation & { mutation_id: string }>(
      'SELECT mutation_id, client_id, request_hash, status, response_body, change_seq FROM sync_mutation WHERE mutation_id = ANY($1::uuid[])',
      [mutationIds],
    ),
  );
  return new Map(rows.map((row) => [row.mutation_id, row]));
}

async function findStored(
  runner: OperationRunner,
  mutationId: string,
): Promise<StoredMutation | null> {
  const { rows } = await runner.transaction((tx) =>
    tx.query<StoredMutation>(
      'SELECT client_id, request_hash, status, response_body, change_seq FROM sync_mutation WHERE mutation_id = $1',
      [mutationId],
    ),
  );
  return rows[0] ?? null;
}

async function record(
  tx: Queryable,
  entry: {
    clientId: string;
    mutation: PushMutation;
    userId: string;
    hash: string;
    status: number;
    body: unknown;
    seq: number | null;
  },
): Promise<void> {
  // A plain INSERT for successes: a racing twin makes it fail with 23505 and roll the effect back.
  // Rejections use ON CONFLICT DO NOTHING: a lost race there leaves the winner's record in place.
  const conflict = entry.status < 300 ? '' : ' ON CONFLICT DO NOTHING';
  await tx.query(
    `INSERT INTO sync_mutation (mutation_id, client_id, client_seq, user_id, request_hash, status, response_body, change_seq)
     VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8)${conflict}`,
    [
      entry.mutation.mutationId,
      entry.clientId,
      entry.mutation.clientSeq,
      entry.userId,
      entry.hash,
      entry.status,
      JSON.stringify(entry.body ?? null),
      entry.seq,
    ],
  );
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

/** Expected failures as AppErrors; Postgres errors a client can cause are permanent too. */
function toAppError(error: unknown): AppError | null {
  if (isAppError(error)) return error;
  const code = (error as { code?: unknown }).code;
  if (code === UNIQUE_VIOLATION)
    return new AppError(ErrorCode.CONFLICT, 'A record with this id already exists.');
  if (code === '23503')
    return new AppError(ErrorCode.CONFLICT, 'A related record does not exist or is still in use.');
  return null;
}
