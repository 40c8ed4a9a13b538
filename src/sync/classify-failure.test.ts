import { describe, expect, it } from 'vitest';
import { ApiError } from '../api-client/call-endpoint.ts';
import { classifyFailure } from './classify-failure.ts';

const apiError = (status: number, details?: unknown) =>
  new ApiError(status, {
    error: {
      code: 'X',
      message: `status ${status}`,
      requestId: 'r',
      ...(details ? { details } : {}),
    },
  });

describe('failure classification', () => {
  it('retries when there was no answer, on 5xx, 408 and 429', () => {
    expect(classifyFailure(new ApiError(0, null))).toMatchObject({ kind: 'retry', offline: true });
    for (const status of [500, 502, 503, 408, 429]) {
      expect(classifyFailure(apiError(status))).toMatchObject({ kind: 'retry', offline: false });
    }
    expect(classifyFailure(new Error('boom'))).toMatchObject({ kind: 'retry' });
  });

  it('reads Retry-After from the error body', () => {
    expect(classifyFailure(apiError(429, { retryAfterSeconds: 40 }))).toMatchObject({
      retryAfterMs: 40_000,
    });
  });

  it('pauses on 401 and 426; rejects 403/404/409/410/422 with a reason', () => {
    expect(classifyFailure(apiError(401)).kind).toBe('auth');
    expect(classifyFailure(apiError(426)).kind).toBe('update');
    expect(
      [400, 403, 404, 409, 410, 422].map((status) => {
        const failure = classifyFailure(apiError(status));
        return failure.kind === 'rejected' ? failure.reason : failure.kind;
      }),
    ).toEqual(['validation', 'forbidden', 'not_found', 'conflict', 'not_found', 'validation']);
  });
});
