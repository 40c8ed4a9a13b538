import { describe, expect, it } from 'vitest';
import { parseTags } from './parse-tags.ts';

describe('parseTags', () => {
  it('trims, drops empties and repeats (case-insensitive)', () => {
    expect(parseTags('design, Retainer ,design,, DESIGN')).toEqual(['design', 'Retainer']);
  });

  it('strips leading "#" so the list, which adds its own, never shows "##design"', () => {
    expect(parseTags('#design, ##Retainer, # urgent')).toEqual(['design', 'Retainer', 'urgent']);
  });

  it('treats "#design" and "design" as the same tag and drops a bare "#"', () => {
    expect(parseTags('design, #design, #, ##')).toEqual(['design']);
  });

  it('keeps a "#" that is not leading', () => {
    expect(parseTags('c#, a#b')).toEqual(['c#', 'a#b']);
  });
});
