/**
 * Fixed-window rate limits kept in process memory, keyed by any string (an IP, an email, a
 * factor id). One process is the embedded default; behind a load balancer each process counts
 * alone, so limits become per-process (the real-time issue's Redis backplane is the place to share
 * them). Windows are swept lazily so memory stays bounded by active keys.
 */
import { AppError, ErrorCode } from './app-error.ts';

export interface RateLimitRule {
  /** Name used in messages and keys, e.g. 'contact'. */
  name: string;
  max: number;
  windowMs: number;
}

export interface RateLimitResult {
  allowed: boolean;
  remaining: number;
  /** Whole seconds until the window resets (at least 1 when refused). */
  retryAfterSeconds: number;
}

export interface RateLimiter {
  hit(rule: RateLimitRule, key: string): RateLimitResult;
  /** Whether one more hit would be allowed, without counting one. */
  peek(rule: RateLimitRule, key: string): RateLimitResult;
  /** Throws AppError RATE_LIMITED (429 with Retry-After) when the key is over its limit. */
  consume(rule: RateLimitRule, key: string): void;
  reset(): void;
}

export function createRateLimiter(options: { now?: () => number } = {}): RateLimiter {
  const now = options.now ?? Date.now;
  const windows = new Map<string, { startedAt: number; count: number; windowMs: number }>();
  let lastSweep = now();

  function sweep(at: number): void {
    if (at - lastSweep < 60_000) return;
    lastSweep = at;
    for (const [key, window] of windows)
      if (at - window.startedAt >= window.windowMs) windows.delete(key);
  }

  function hit(rule: RateLimitRule, key: string): RateLimitResult {
    const at = now();
    sweep(at);
    const id = `${rule.name}:${key}`;
    let window = windows.get(id);
    if (!window || at - window.startedAt >= rule.windowMs) {
      window = { startedAt: at, count: 0, windowMs: rule.windowMs };
      windows.set(id, window);
    }
    window.count += 1;
    const retryAfterSeconds = Math.max(
      1,
      Math.ceil((window.startedAt + rule.windowMs - at) / 1000),
    );
    return {
      allowed: window.count <= rule.max,
      remaining: Math.max(0, rule.max - window.count),
      retryAfterSeconds,
    };
  }

  function peek(rule: RateLimitRule, key: string): RateLimitResult {
    const at = now();
    const window = windows.get(`${rule.name}:${key}`);
    if (!window || at - window.startedAt >= rule.windowMs) {
      return { allowed: true, remaining: rule.max, retryAfterSeconds: 1 };
    }
    return {
      allowed: window.count < rule.max,
      remaining: Math.max(0, rule.max - window.count),
      retryAfterSeconds: Math.max(1, Math.ceil((window.startedAt + rule.windowMs - at) / 1000)),
    };
  }

  return {
    hit,
    peek,
    consume(rule, key) {
      const result = hit(rule, key);
      if (!result.allowed) {
        throw new AppError(
          ErrorCode.RATE_LIMITED,
          `Too many attempts. Try again in ${formatWait(result.retryAfterSeconds)}.`,
          {
            headers: { 'Retry-After': String(result.retryAfterSeconds) },
            details: { retryAfterSeconds: result.retryAfterSeconds },
          },
        );
      }
    },
    reset() {
      windows.clear();
    },
  };
}

function formatWait(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.ceil(seconds / 60);
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
}
