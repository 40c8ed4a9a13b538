/**
 * What a failed sync call means (sync spec b.10): retry (no answer, 5xx, 408, 429; the change is
 * kept), auth (401: the queue pauses until resumeAfterAuth), update (426: pushes pause), rejected
 * (400/403/404/405/409/410/413/415/422: rolled back into a sync issue). Anything unknown is a
 * retry: keeping a change is always safer than dropping it.
 */
import { ApiError } from '../api-client/call-endpoint.ts';
import type { SyncIssueReason } from '../db/sync-issue.ts';

export type FailureClass =
  | { kind: 'retry'; offline: boolean; status: number; retryAfterMs?: number; message: string }
  | { kind: 'auth'; status: number; message: string }
  | { kind: 'update'; status: number; message: string }
  | { kind: 'rejected'; status: number; reason: SyncIssueReason; code: string; message: string };

const REJECTION_REASONS: Record<number, SyncIssueReason> = {
  400: 'validation',
  403: 'forbidden',
  404: 'not_found',
  405: 'validation',
  409: 'conflict',
  410: 'not_found',
  413: 'validation',
  415: 'validation',
  422: 'validation',
};

/** A permanent HTTP outcome of one pushed mutation, as a sync issue reason; null if not final. */
export function rejectionReason(status: number): SyncIssueReason | null {
  return REJECTION_REASONS[status] ?? null;
}

export function classifyFailure(error: unknown): FailureClass {
  if (!(error instanceof ApiError)) {
    const message = error instanceof Error ? error.message : String(error);
    return { kind: 'retry', offline: false, status: 0, message };
  }
  const status = error.status;
  const message = error.message;
  if (status === 0) return { kind: 'retry', offline: true, status, message };
  if (status === 401) return { kind: 'auth', status, message };
  if (status === 426) return { kind: 'update', status, message };
  const reason = rejectionReason(status);
  if (reason) return { kind: 'rejected', status, reason, code: error.code ?? 'ERROR', message };
  const retryAfterMs = retryAfterFromBody(error);
  return {
    kind: 'retry',
    offline: false,
    status,
    message,
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  };
}

/**
 * ApiError does not carry response headers, so Retry-After is read from the error body where the
 * server repeats it (`details.retryAfterSeconds`, as the rate limiter sends it).
 */
function retryAfterFromBody(error: ApiError): number | undefined {
  const details = error.body?.error.details as { retryAfterSeconds?: unknown } | undefined;
  const seconds = details?.retryAfterSeconds;
  return typeof seconds === 'number' && Number.isFinite(seconds) && seconds > 0
    ? seconds * 1_000
    : undefined;
}
