import { describe, expect, it } from 'vitest';
import { groupDigits } from './group-digits.ts';

describe('groupDigits', () => {
  it('writes counts as en-US does', () => {
    for (const count of [0, 7, 999, 1000, 5000, 20_000, 100_000, 999_999, 1_000_000, 1234567890]) {
      expect(groupDigits(count)).toBe(count.toLocaleString('en-US'));
    }
  });

  it('groups a negative count and leaves a fraction alone', () => {
    expect(groupDigits(-1_234_567)).toBe('-1,234,567');
    expect(groupDigits(12345.5)).toBe('12,345.5');
  });
});
