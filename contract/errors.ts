import * as v from 'valibot';
import { text } from './text.ts';

/** Every error code the API can answer with; the HTTP status of each is fixed here. */
export const ErrorCode = {
  VALIDATION_FAILED: 'VALIDATION_FAILED',
  MALFORMED_JSON: 'MALFORMED_JSON',
  UNAUTHORIZED: 'UNAUTHORIZED',
  FORBIDDEN: 'FORBIDDEN',
  NOT_FOUND: 'NOT_FOUND',
  UNKNOWN_ENDPOINT: 'UNKNOWN_ENDPOINT',
  METHOD_NOT_ALLOWED: 'METHOD_NOT_ALLOWED',
  CONFLICT: 'CONFLICT',
  GONE: 'GONE',
  PAYLOAD_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  UNSUPPORTED_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  BUSINESS_RULE: 'BUSINESS_RULE',
  IDEMPOTENCY_KEY_REUSED: 'IDEMPOTENCY_KEY_REUSED',
  IDEMPOTENCY_KEY_INVALID: 'IDEMPOTENCY_KEY_INVALID',
  RATE_LIMITED: 'RATE_LIMITED',
  UNAVAILABLE: 'UNAVAILABLE',
  INTERNAL: 'INTERNAL',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

export const errorStatus: Record<ErrorCode, number> = {
  VALIDATION_FAILED: 400,
  MALFORMED_JSON: 400,
  IDEMPOTENCY_KEY_INVALID: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  UNKNOWN_ENDPOINT: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  GONE: 410,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  BUSINESS_RULE: 422,
  IDEMPOTENCY_KEY_REUSED: 422,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  UNAVAILABLE: 503,
};

/** One failing input path, as listed in `details` of a VALIDATION_FAILED error. */
export const validationIssueSchema = v.object({
  path: text(),
  message: text(),
});
export type ValidationIssue = v.InferOutput<typeof validationIssueSchema>;

/** The only error body the API ever sends. */
export const errorBodySchema = v.object({
  error: v.object({
    code: text(),
    message: text(),
    details: v.optional(v.unknown()),
    requestId: text(),
  }),
});
export type ErrorBody = v.InferOutput<typeof errorBodySchema>;

/** Text the client shows when a failed response has no usable error body (spec section 8). */
export const GENERIC_ERROR_MESSAGE = 'Something went wrong!';

/** The largest request body the API reads, in bytes. */
export const MAX_BODY_BYTES = 1024 * 1024;
