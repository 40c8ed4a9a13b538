import * as v from 'valibot';
import { GENERIC_ERROR_MESSAGE } from '#contract/errors.ts';

/** First message per top-level field, keyed by field name. */
export type FieldErrors<K extends string> = Partial<Record<K, string>>;

export type ValidationResult<T, K extends string> =
  { ok: true; output: T } | { ok: false; errors: FieldErrors<K> };

/**
 * Validates form values with the same contract schema the server applies, so a visitor sees the
 * server's own rules (and words) before anything is sent.
 */
export function validateForm<S extends v.GenericSchema, K extends string>(
  schema: S,
  values: unknown,
): ValidationResult<v.InferOutput<S>, K> {
  const result = v.safeParse(schema, values);
  if (result.success) return { ok: true, output: result.output };
  const errors: FieldErrors<K> = {};
  for (const issue of result.issues) {
    const key = issue.path?.[0]?.key;
    if (typeof key !== 'string') continue;
    const field = key as K;
    errors[field] ??= issue.message;
  }
  return { ok: false, errors };
}

/** What a failed submission means for the form. */
export interface SubmitFailure<K extends string> {
  /** Shown above the submit button. */
  message: string;
  /** Server-side field errors (`body.<field>` paths), when it rejected the input. */
  fieldErrors: FieldErrors<K>;
  isRateLimited: boolean;
}

interface ErrorLike {
  status?: unknown;
  body?: { error?: { code?: unknown; message?: unknown; details?: unknown } } | null;
}

/** No answer at all: the device is offline, or the server cannot be reached. Said for every form. */
export const OFFLINE_MESSAGE =
  'The server could not be reached, so nothing was sent. What you entered is still here: try again once you are connected.';

/**
 * Reads a rejection of `callEndpoint` (an ApiError: `status`, `body.error`). Features may not
 * import the api-client, so the shape is read structurally.
 */
export function readSubmitFailure<K extends string>(error: unknown): SubmitFailure<K> {
  const failure = (typeof error === 'object' && error !== null ? error : {}) as ErrorLike;
  const status = typeof failure.status === 'number' ? failure.status : -1;
  const body = failure.body?.error;
  const serverMessage = typeof body?.message === 'string' ? body.message : null;
  if (status === 0) return { message: OFFLINE_MESSAGE, fieldErrors: {}, isRateLimited: false };
  if (status === 429) {
    return {
      message: serverMessage ?? 'Too many attempts. Try again in a few minutes.',
      fieldErrors: {},
      isRateLimited: true,
    };
  }
  const fieldErrors: FieldErrors<K> = {};
  if (body?.code === 'VALIDATION_FAILED' && Array.isArray(body.details)) {
    for (const detail of body.details as unknown[]) {
      if (typeof detail !== 'object' || detail === null) continue;
      const { path, message } = detail as { path?: unknown; message?: unknown };
      if (typeof path !== 'string' || typeof message !== 'string') continue;
      const field = path.replace(/^body\./, '').split('.')[0] as K;
      fieldErrors[field] ??= message;
    }
    return {
      message: 'Some fields need another look; see the messages next to them.',
      fieldErrors,
      isRateLimited: false,
    };
  }
  return {
    message:
      serverMessage && status >= 400 && status < 500
        ? serverMessage
        : `${serverMessage ?? GENERIC_ERROR_MESSAGE} Nothing was lost: try again in a moment.`,
    fieldErrors,
    isRateLimited: false,
  };
}
