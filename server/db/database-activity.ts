/**
 * What /healthz needs to tell "busy" from "dead" without queuing behind the work: a Database
 * wrapper that counts operations in flight and notes when the database last answered. Any answer
 * counts, an SQL error included (a unique violation is the server answering); only errors that mean
 * no answer (closed, connection lost, server shutting down or out of resources) mark a failure.
 */
import type { Database, QueryResult, Queryable } from './database.ts';

export interface DatabaseActivity {
  /** Queries and transactions started through the wrapper and not settled yet. */
  inFlight: number;
  /** performance.now() of the last answer, or null. */
  lastAnswerAt: number | null;
  /** performance.now() of the last failure that was not an answer, or null. */
  lastFailureAt: number | null;
  /** The schema version the last successful health probe read. */
  schemaVersion?: number | null;
}

const activities = new WeakMap<Database, DatabaseActivity>();

/** The activity of a tracked database; undefined for one that is not wrapped. */
export function databaseActivity(db: Database): DatabaseActivity | undefined {
  return activities.get(db);
}

// SQLSTATE classes that mean the database did not really answer: 08 connection exception,
// 53 insufficient resources, 57 operator intervention (shutdown), 58 system error, XX internal.
const NO_ANSWER_CLASSES = new Set(['08', '53', '57', '58', 'XX']);
// Node's errno codes (EPIPE, ECONNRESET) are not SQLSTATEs; no SQLSTATE class starts with E.
const SQLSTATE = /^[0-9A-DF-Z][0-9A-Z]{4}$/;

function isAnswer(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return (
    typeof code === 'string' && SQLSTATE.test(code) && !NO_ANSWER_CLASSES.has(code.slice(0, 2))
  );
}

/** Wraps `db` once (a tracked database is returned as is); the wrapper shares its close. */
export function trackDatabase(db: Database): Database {
  if (activities.has(db)) return db;
  const activity: DatabaseActivity = { inFlight: 0, lastAnswerAt: null, lastFailureAt: null };

  async function observe<T>(work: () => Promise<T>): Promise<T> {
    activity.inFlight += 1;
    try {
      const result = await work();
      activity.lastAnswerAt = performance.now();
      return result;
    } catch (error) {
      if (isAnswer(error)) activity.lastAnswerAt = performance.now();
      else activity.lastFailureAt = performance.now();
      throw error;
    } finally {
      activity.inFlight -= 1;
    }
  }

  /** Statements inside a transaction count as answers but not as operations in flight. */
  async function note<T>(work: () => Promise<T>): Promise<T> {
    try {
      const result = await work();
      activity.lastAnswerAt = performance.now();
      return result;
    } catch (error) {
      if (isAnswer(error)) activity.lastAnswerAt = performance.now();
      throw error;
    }
  }

  const tracked: Database = {
    kind: db.kind,
    query<R = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<QueryResult<R>> {
      return observe(() => db.query<R>(sql, params));
    },
    transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
      return observe(() =>
        db.transaction((tx) =>
          fn({
            query: <R = Record<string, unknown>>(sql: string, params?: unknown[]) =>
              note(() => tx.query<R>(sql, params)),
          }),
        ),
      );
    },
    close: () => db.close(),
  };
  activities.set(tracked, activity);
  return tracked;
}
