/**
 * Retry timing (sync spec b.10): min(1 s * 2^n, 60 s) plus up to 30 % jitter, never sooner than
 * the server's Retry-After. An entry is "stuck" (shown to the user, still retried) after 20
 * server-answered temporary failures or 24 h since the first one; offline time never counts.
 */
export const RETRY_BASE_MS = 1_000;
export const RETRY_CAP_MS = 60_000;
export const RETRY_JITTER = 0.3;
export const STUCK_AFTER_ATTEMPTS = 20;
export const STUCK_AFTER_MS = 24 * 60 * 60 * 1_000;

/**
 * Delay before retry number `failures` (0 for the first retry). `random` is in [0, 1).
 * Retry-After wins when longer: the server knows when it can take the load again.
 */
export function retryDelayMs(
  failures: number,
  random: () => number,
  retryAfterMs?: number,
): number {
  const exponential = Math.min(RETRY_BASE_MS * 2 ** Math.max(0, failures), RETRY_CAP_MS);
  const jittered = Math.round(exponential * (1 + random() * RETRY_JITTER));
  return Math.max(jittered, retryAfterMs ?? 0);
}

export function isStuck(entry: { attempts: number; firstFailedAt?: number }, now: number): boolean {
  return (
    entry.attempts >= STUCK_AFTER_ATTEMPTS ||
    (entry.firstFailedAt !== undefined && now - entry.firstFailedAt >= STUCK_AFTER_MS)
  );
}
