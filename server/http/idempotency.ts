/**
 * Idempotency-Key for direct mutations. The stored response is written in the same transaction
 * as the mutation, so a key is recorded if and only if its effect committed. Failed requests
 * store nothing: retrying with the same key after an error runs the operation again.
 * Keys are scoped to the caller (user id, else client IP) so one caller cannot replay another's.
 */
import { createHash } from 'node:crypto';
import * as v from 'valibot';
import type { Queryable } from '../db/database.ts';
import { AppError, ErrorCode } from './app-error.ts';
import { stableStringify } from './stable-json.ts';

const uuidSchema = v.pipe(v.string(), v.uuid());

export interface StoredResponse {
  status: number;
  body: unknown;
}

export function parseIdempotencyKey(header: string | undefined): string | null {
  if (header === undefined) return null;
  const parsed = v.safeParse(uuidSchema, header.trim());
  if (!parsed.success) {
    throw new AppError(ErrorCode.IDEMPOTENCY_KEY_INVALID, 'Idempotency-Key must be a UUID.');
  }
  return parsed.output.toLowerCase();
}

export function requestHash(parts: {
  method: string;
  resource: string;
  operation: string;
  query: unknown;
  body: unknown;
}): string {
  return createHash('sha256').update(stableStringify(parts)).digest('hex');
}

/** The stored response for this key, or null; a different payload under the key is a 422. */
export async function findStoredResponse(
  db: Queryable,
  scope: string,
  key: string,
  hash: string,
): Promise<StoredResponse | null> {
  const { rows } = await db.query<{ request_hash: string; status: number; response_body: unknown }>(
    'SELECT request_hash, status, response_body FROM idempotency_key WHERE scope = $1 AND key = $2',
    [scope, key],
  );
  const row = rows[0];
  if (!row) return null;
  if (row.request_hash !== hash) {
    throw new AppError(
      ErrorCode.IDEMPOTENCY_KEY_REUSED,
      'This Idempotency-Key was already used for a different request.',
    );
  }
  return { status: row.status, body: row.response_body };
}

export async function storeResponse(
  tx: Queryable,
  record: { scope: string; key: string; hash: string; status: number; body: unknown },
): Promise<void> {
  await tx.query(
    `INSERT INTO idempotency_key (scope, key, request_hash, status, response_body)
     VALUES ($1, $2, $3, $4, $5::jsonb)`,
    [record.scope, record.key, record.hash, record.status, JSON.stringify(record.body ?? null)],
  );
}
