/**
 * Pull cursors are opaque to clients: base64url JSON the server issued. Two phases:
 * `snap` pages through current rows table by table, as of change-log sequence `at`;
 * `log` reads change-log entries after `seq`. A snapshot ends in `log` at `at`, so changes made
 * while the pages were fetched are read from the log afterwards.
 */
import * as v from 'valibot';
import { AppError, ErrorCode } from '../http/app-error.ts';

const cursorSchema = v.union([
  v.object({
    v: v.literal(1),
    p: v.literal('log'),
    seq: v.pipe(v.number(), v.integer(), v.minValue(0)),
  }),
  v.object({
    v: v.literal(1),
    p: v.literal('snap'),
    at: v.pipe(v.number(), v.integer(), v.minValue(0)),
    table: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(16)),
    after: v.nullable(v.pipe(v.string(), v.uuid())),
  }),
]);
export type SyncCursor = v.InferOutput<typeof cursorSchema>;

export function encodeCursor(cursor: SyncCursor): string {
  return Buffer.from(JSON.stringify(cursor), 'utf8').toString('base64url');
}

export function decodeCursor(text: string): SyncCursor {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    parsed = undefined;
  }
  const result = v.safeParse(cursorSchema, parsed);
  if (!result.success) {
    throw new AppError(
      ErrorCode.VALIDATION_FAILED,
      'The cursor is not one this server issued; pull again without a cursor.',
      {
        details: [{ path: 'query.cursor', message: 'Unknown cursor' }],
      },
    );
  }
  return result.output;
}
