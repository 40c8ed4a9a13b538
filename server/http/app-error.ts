import { ErrorCode, errorStatus } from '#contract/errors.ts';

/**
 * An expected failure with a code from the contract's closed set. Handlers throw it; the one error
 * mapper in create-http-app.ts turns it into the wire error body. Anything else thrown is a 500.
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: unknown;
  readonly headers: Record<string, string>;

  constructor(
    code: ErrorCode,
    message: string,
    options: { details?: unknown; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.status = errorStatus[code];
    this.details = options.details;
    this.headers = options.headers ?? {};
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}

export { ErrorCode };
