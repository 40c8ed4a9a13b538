import { describe, expect, it } from 'vitest';
import { createRetryAfterTracker, parseRetryAfter } from './retry-after-tracker.ts';

describe('parseRetryAfter', () => {
  it('reads seconds and HTTP dates', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('40', now)).toBe(40);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:01:00 GMT', now)).toBe(60);
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter(null, now)).toBeNull();
  });
});

describe('createRetryAfterTracker', () => {
  it('remembers the wait of the last 429 and counts it down', async () => {
    let now = 1_000_000;
    const responses = [
      new Response('{}', { status: 429, headers: { 'Retry-After': '40' } }),
      new Response('{}', { status: 200 }),
    ];
    const tracker = createRetryAfterTracker(
      () => Promise.resolve(responses.shift()!),
      () => now,
    );
    expect(tracker.secondsLeft()).toBeNull();
    const first = await tracker.fetch('https://auth.example/token');
    expect(first.status).toBe(429);
    expect(tracker.secondsLeft()).toBe(40);
    now += 15_500;
    expect(tracker.secondsLeft()).toBe(25);
    await tracker.fetch('https://auth.example/token');
    expect(tracker.secondsLeft()).toBe(25);
    now += 30_000;
    expect(tracker.secondsLeft()).toBeNull();
  });
});
