/**
 * Errors of the auth service, in the shape auth-js parses (protocols.md A2): the body carries the
 * code twice (`code` for API version 2024-01-01 clients, `error_code` for older ones) and the
 * message twice (`message`, `msg`), so either client path reads it. Only this service's onError
 * turns them into responses; the /api error shape never appears under /auth/v1.
 */
import type { Context } from 'hono';
import type { AppEnv } from '../http/app-env.ts';

/** The API version auth-js sends and we answer with (it gates reading `code` from the body). */
export const API_VERSION = '2024-01-01';

export class AuthError extends Error {
  readonly status: number;
  readonly code: string;
  readonly headers: Record<string, string>;
  /** Extra body fields, e.g. `weak_password: {reasons}`. */
  readonly extra: Record<string, unknown>;

  constructor(
    status: number,
    code: string,
    message: string,
    options: { headers?: Record<string, string>; extra?: Record<string, unknown> } = {},
  ) {
    super(message);
    this.name = 'AuthError';
    this.status = status;
    this.code = code;
    this.headers = options.headers ?? {};
    this.extra = options.extra ?? {};
  }
}

export function isAuthError(error: unknown): error is AuthError {
  return error instanceof AuthError;
}

export const badRequest = (code: string, message: string) => new AuthError(400, code, message);
export const unauthorized = (code: string, message: string) => new AuthError(401, code, message);
export const forbidden = (code: string, message: string) => new AuthError(403, code, message);
export const notFound = (code: string, message: string) => new AuthError(404, code, message);
export const unprocessable = (code: string, message: string) => new AuthError(422, code, message);

export const validationFailed = (message: string) => badRequest('validation_failed', message);

export function tooManyRequests(
  code: 'over_request_rate_limit' | 'over_email_send_rate_limit' | 'over_sms_send_rate_limit',
  message: string,
  retryAfterSeconds: number,
): AuthError {
  return new AuthError(429, code, message, {
    headers: { 'Retry-After': String(retryAfterSeconds) },
  });
}

export function authErrorBody(error: AuthError): Record<string, unknown> {
  return {
    code: error.code,
    error_code: error.code,
    message: error.message,
    msg: error.message,
    ...error.extra,
  };
}

/** The sub-app's onError: AuthError as itself, anything else a logged 500 with no details. */
export function authErrorResponse(error: unknown, c: Context<AppEnv>): Response {
  let authError: AuthError;
  if (isAuthError(error)) {
    authError = error;
  } else if (['40001', '40P01'].includes(String((error as { code?: unknown }).code))) {
    // Serialization failure or deadlock under PostgreSQL: nothing was written, so the client may
    // simply retry (auth-js does on 503).
    authError = new AuthError(503, 'conflict', 'The server was busy; try again.', {
      headers: { 'Retry-After': '1' },
    });
  } else {
    // Security: never the stack, SQL or driver message; the request id ties it to the log line.
    c.get('logger').error({ err: error }, 'auth service error');
    authError = new AuthError(500, 'unexpected_failure', 'Unexpected failure, please try again.', {
      extra: { error_id: c.get('requestId') },
    });
  }
  for (const [name, value] of Object.entries(authError.headers)) c.header(name, value);
  c.header('X-Supabase-Api-Version', API_VERSION);
  c.header('Cache-Control', 'no-store');
  return c.json(authErrorBody(authError), authError.status as 400);
}
