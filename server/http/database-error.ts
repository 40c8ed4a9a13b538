/**
 * What a database error means to a caller, decided in one place for direct calls (the error
 * mapper in create-http-app.ts) and for sync push (push-mutations.ts):
 * - the request's own data is wrong (SQLSTATE class 22 "data exception", class 23 integrity):
 *   a 4xx that names the problem; sending it again gives the same answer;
 * - the database could not work right now (serialization, deadlock, connection, shutdown,
 *   resources, lock timeout, or a driver error with no SQLSTATE such as ECONNRESET): temporary,
 *   a 503 with Retry-After; the same request may succeed later.
 * Everything else is neither: a bug, answered as a 500 and logged by the caller.
 */
import { AppError, ErrorCode } from './app-error.ts';

interface DatabaseErrorLike {
  code?: unknown;
  message?: unknown;
  column?: unknown;
}

const TEMPORARY_CODES = new Set(['40001', '40P01', '55P03', '57P01', '57P02', '57P03', '57014']);
const TEMPORARY_CLASSES = new Set(['08', '53', '58']);
const NODE_NETWORK_CODE = /^E[A-Z]+$/;
const TEMPORARY_MESSAGES = [
  'Connection terminated',
  'Database is closed',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error',
];

function sqlState(error: unknown): string | null {
  const code = (error as DatabaseErrorLike | null)?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : null;
}

/** True when the same work may succeed if tried again later (nothing about the input is wrong). */
export function isTemporaryDatabaseFailure(error: unknown): boolean {
  if (error === null || typeof error !== 'object') return false;
  const state = sqlState(error);
  if (state) return TEMPORARY_CODES.has(state) || TEMPORARY_CLASSES.has(state.slice(0, 2));
  const { code, message } = error as DatabaseErrorLike;
  if (typeof code === 'string' && NODE_NETWORK_CODE.test(code)) return true;
  return typeof message === 'string' && TEMPORARY_MESSAGES.some((m) => message.includes(m));
}

/** The contract error for a database error a caller can act on, or null (a bug: a 500). */
export function databaseErrorToAppError(error: unknown): AppError | null {
  if (isTemporaryDatabaseFailure(error)) {
    return new AppError(ErrorCode.UNAVAILABLE, 'The server was busy; try again.', {
      headers: { 'Retry-After': '1' },
    });
  }
  const state = sqlState(error);
  if (!state) return null;
  if (state === '23505')
    return new AppError(ErrorCode.CONFLICT, 'A record with this id already exists.');
  if (state === '23503')
    return new AppError(ErrorCode.CONFLICT, 'A related record does not exist or is still in use.');
  if (state.startsWith('22') || state.startsWith('23')) {
    // Postgres' own sentence says which value (it never holds SQL); the column when it names one.
    const { message, column } = error as DatabaseErrorLike;
    const reason = typeof message === 'string' ? message : 'A value was refused by the database.';
    return new AppError(ErrorCode.VALIDATION_FAILED, `A value was refused: ${reason}`, {
      details: [
        {
          path: 'body',
          message: reason,
          sqlState: state,
          ...(typeof column === 'string' ? { column } : {}),
        },
      ],
    });
  }
  return null;
}
