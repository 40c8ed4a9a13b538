/**
 * The one data-access interface every endpoint uses. Two implementations share it and one
 * conformance suite (database.contract.ts): embedded PGlite under DATA_DIR (default) and a
 * PostgreSQL server through a pool (DATABASE_URL). Only Postgres SQL is ever written.
 *
 * Guarantees:
 * - `query` runs one statement (extended protocol, `$1..$n` parameters) outside any transaction
 *   (autocommit). Several statements in one `query` are rejected on both adapters.
 * - `transaction(fn)` runs fn on one connection inside BEGIN/COMMIT; if fn throws, the transaction
 *   is rolled back and the error rethrown unchanged. If fn swallowed a failed statement, COMMIT
 *   would silently roll back, so `transaction` rejects with an error whose `code` is '25P02'.
 *   Nested calls on the `tx` are not supported; calling `db.query/transaction` from inside
 *   fn throws (on PGlite's single connection it would deadlock). `tx` is unusable after fn settles.
 * - A `query` issued outside while a transaction runs waits for it (PGlite) or is isolated from
 *   it (PostgreSQL); it never runs inside it.
 * - Errors from the server keep Postgres' SQLSTATE in `code` (e.g. '23505' unique violation).
 * - Both adapters return the same JS values: int2/int4/float → number, int8 and numeric → string
 *   (exact), timestamptz → Date, timestamp (no zone) → Date read as UTC, date → 'YYYY-MM-DD',
 *   json/jsonb → parsed, bool → boolean, uuid → string, bytea → Buffer, arrays element-wise.
 *   Pass json/jsonb parameters as `JSON.stringify(value)` strings and int8 as string or number.
 * - `close()` rejects new work, waits for running queries and transactions, then releases the
 *   files or the pool.
 */
export interface QueryResult<R> {
  rows: R[];
  /** Rows written by INSERT/UPDATE/DELETE (RETURNING or not), rows returned by SELECT, else 0. */
  rowCount: number;
}

export interface Queryable {
  query<R = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<QueryResult<R>>;
}

export interface Database extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** Structured logger the database layer accepts (pino's signature, so a pino child fits). */
export interface DatabaseLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}
