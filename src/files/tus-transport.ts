/**
 * What the upload runner needs around tus-js-client: a reader for the Blobs the queue keeps in
 * IndexedDB (tus-js-client's Node build, which tests load, reads only Buffers and streams; the
 * browser build would slice the same way), and the rule for what a failed request means: try
 * again (no network, the server busy or restarting, a wrong offset or a locked upload, which tus
 * settles with a HEAD) or stop and tell the user why (any other 4xx, in the server's words).
 */
import type { DetailedError, HttpStack } from 'tus-js-client';
import { errorBodySchema, type ErrorBody } from '#contract/errors.ts';
import { planLimitRefusalOf, type PlanLimitRefusal } from '#contract/entities/plan.ts';
import * as v from 'valibot';

interface SliceResult {
  value: Blob;
  done: boolean;
}

/** tus-js-client's FileReader for a Blob: slices are Blobs, read lazily by the HTTP stack. */
export const blobFileReader = {
  openFile(input: unknown) {
    if (!(input instanceof Blob)) return Promise.reject(new Error('An upload needs a Blob.'));
    const blob = input;
    return Promise.resolve({
      size: blob.size,
      slice: (start: number, end: number): Promise<SliceResult> =>
        Promise.resolve({ value: blob.slice(start, end), done: end >= blob.size }),
      close: () => undefined,
    });
  },
};

/** The HTTP transport for tus (the browser's XHR by default; tests pass a tiny tus server). */
export interface TusTransport {
  httpStack?: HttpStack;
}

/** The HTTP status of a failed tus request, 0 when no answer arrived. */
export function statusOf(error: unknown): number {
  const response = (error as Partial<DetailedError> | null)?.originalResponse;
  return response ? response.getStatus() : 0;
}

/** Worth another try later: the request may well succeed then. */
export function isRetryableStatus(status: number): boolean {
  return status === 0 || status >= 500 || [408, 409, 423, 429].includes(status);
}

/** The refusal's body when it is the contract's error shape. */
function errorBodyOf(error: unknown): ErrorBody | null {
  const response = (error as Partial<DetailedError> | null)?.originalResponse;
  let body: unknown;
  try {
    body = JSON.parse(response?.getBody() ?? '');
  } catch {
    body = undefined;
  }
  const parsed = v.safeParse(errorBodySchema, body);
  return parsed.success ? parsed.output : null;
}

/** The plan limit a refusal names (the workspace's storage is full), else null. */
export function refusalPlanLimit(error: unknown): PlanLimitRefusal | null {
  return planLimitRefusalOf(errorBodyOf(error)?.error.details);
}

/** The server's message for a refusal, or a sentence of our own for what it did not explain. */
export function refusalMessage(error: unknown): string {
  const status = statusOf(error);
  const body = errorBodyOf(error);
  if (body) return body.error.message;
  if (status === 401) return 'Your session has ended. Sign in again, then retry.';
  if (status === 404 || status === 410)
    return 'The server no longer has this upload. Retry to start it again.';
  if (status === 413) return 'This file is larger than the server accepts.';
  if (status === 0) return "Can't reach the server.";
  return `The server refused the upload (${status}).`;
}
