/**
 * supabase-js turns a 429 into an error without its headers, so "try again in 40 s" would be a
 * guess. This wraps the fetch given to supabase-js (`global.fetch`) and remembers the last
 * Retry-After (seconds or an HTTP date) the auth service sent.
 */
export interface RetryAfterTracker {
  fetch: typeof fetch;
  /** Whole seconds still to wait after the last 429, or null when there is nothing to wait for. */
  secondsLeft: () => number | null;
}

export function parseRetryAfter(value: string | null, now: number): number | null {
  if (!value) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return null;
  return Math.max(0, Math.ceil((date - now) / 1000));
}

export function createRetryAfterTracker(
  baseFetch: typeof fetch,
  now: () => number = Date.now,
): RetryAfterTracker {
  let until: number | null = null;
  const trackedFetch: typeof fetch = async (input, init) => {
    const response = await baseFetch(input, init);
    if (response.status === 429) {
      const seconds = parseRetryAfter(response.headers.get('Retry-After'), now());
      until = seconds === null ? null : now() + seconds * 1000;
    }
    return response;
  };
  return {
    fetch: trackedFetch,
    secondsLeft: () => {
      if (until === null) return null;
      const left = Math.ceil((until - now()) / 1000);
      return left > 0 ? left : null;
    },
  };
}
