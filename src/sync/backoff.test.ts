import { describe, expect, it } from 'vitest';
import { RETRY_CAP_MS, STUCK_AFTER_MS, isStuck, retryDelayMs } from './backoff.ts';

describe('backoff', () => {
  it('doubles from 1 s up to 60 s, plus up to 30 % jitter', () => {
    const none = () => 0;
    expect([0, 1, 2, 5, 6, 10].map((n) => retryDelayMs(n, none))).toEqual([
      1_000, 2_000, 4_000, 32_000, 60_000, 60_000,
    ]);
    expect(retryDelayMs(0, () => 0.999)).toBe(1_300);
    expect(retryDelayMs(20, () => 0.999)).toBeLessThanOrEqual(RETRY_CAP_MS * 1.3);
  });

  it('never retries sooner than Retry-After', () => {
    expect(retryDelayMs(0, () => 0, 30_000)).toBe(30_000);
    expect(retryDelayMs(3, () => 0, 1_000)).toBe(8_000);
  });

  it('calls an entry stuck after 20 answered failures or 24 h since the first', () => {
    expect(isStuck({ attempts: 19 }, 0)).toBe(false);
    expect(isStuck({ attempts: 20 }, 0)).toBe(true);
    expect(isStuck({ attempts: 2, firstFailedAt: 0 }, STUCK_AFTER_MS - 1)).toBe(false);
    expect(isStuck({ attempts: 2, firstFailedAt: 0 }, STUCK_AFTER_MS)).toBe(true);
  });
});
