import { describe, expect, it } from 'vitest';
import { AppError } from './app-error.ts';
import { createRateLimiter } from './rate-limiter.ts';

describe('createRateLimiter', () => {
  const rule = { name: 'test', max: 3, windowMs: 60_000 };

  it('allows max hits per window per key, then refuses with the time left', () => {
    let now = 1_000_000;
    const limiter = createRateLimiter({ now: () => now });
    expect([1, 2, 3].map(() => limiter.hit(rule, 'a').allowed)).toEqual([true, true, true]);
    now += 20_000;
    const refused = limiter.hit(rule, 'a');
    expect(refused).toEqual({ allowed: false, remaining: 0, retryAfterSeconds: 40 });
    expect(limiter.hit(rule, 'b').allowed).toBe(true);
    now += 40_000;
    expect(limiter.hit(rule, 'a').allowed).toBe(true);
  });

  it('throws a 429 AppError with Retry-After and a human message', () => {
    const limiter = createRateLimiter({ now: () => 0 });
    for (let i = 0; i < 3; i += 1) limiter.consume(rule, 'ip');
    try {
      limiter.consume(rule, 'ip');
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(AppError);
      const appError = error as AppError;
      expect(appError.status).toBe(429);
      expect(appError.headers['Retry-After']).toBe('60');
      expect(appError.message).toBe('Too many attempts. Try again in 1 minute.');
    }
  });

  it('peek tells whether one more hit would pass, without counting one', () => {
    let now = 0;
    const limiter = createRateLimiter({ now: () => now });
    expect(limiter.peek(rule, 'k').allowed).toBe(true);
    for (let i = 0; i < 2; i += 1) limiter.hit(rule, 'k');
    for (let i = 0; i < 5; i += 1) expect(limiter.peek(rule, 'k').allowed).toBe(true);
    limiter.hit(rule, 'k');
    now += 15_000;
    expect(limiter.peek(rule, 'k')).toEqual({
      allowed: false,
      remaining: 0,
      retryAfterSeconds: 45,
    });
    now += 45_000;
    expect(limiter.peek(rule, 'k').allowed).toBe(true);
  });
});
