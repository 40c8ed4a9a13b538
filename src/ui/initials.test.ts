import { describe, expect, it } from 'vitest';
import { initials } from './initials.ts';

describe('initials', () => {
  it('takes the first character of the first two words', () => {
    expect(initials('ada lovelace king')).toBe('AL');
    expect(initials('  Ada  ')).toBe('A');
    expect(initials('')).toBe('?');
  });

  it('never splits a character: emoji, combined letters, right-to-left names', () => {
    expect(initials('😀 Smile')).toBe('😀S');
    expect(initials('אנה 😀')).toBe('א😀');
    expect(initials('e\u0301lodie Zoë')).toBe('E\u0301Z');
    expect(initials('👩‍💻 Dev')).toBe('👩‍💻D');
  });
});
