import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { optionalSearch, searchBoolean, searchNumber } from './search-values.ts';

const schema = v.object({
  flag: optionalSearch(searchBoolean),
  page: optionalSearch(searchNumber),
});

describe('search values', () => {
  it('reads booleans and numbers from their URL text and from typed values', () => {
    expect(v.parse(schema, { flag: 'true', page: '3' })).toEqual({ flag: true, page: 3 });
    expect(v.parse(schema, { flag: 'false', page: '-1.5' })).toEqual({ flag: false, page: -1.5 });
    expect(v.parse(schema, { flag: true, page: 7 })).toEqual({ flag: true, page: 7 });
  });

  it('reads anything else as not set', () => {
    for (const bad of [
      { flag: 'yes', page: 'x' },
      { flag: ['true', 'true'], page: '1e999' },
    ]) {
      expect(v.parse(schema, bad)).toEqual({ flag: undefined, page: undefined });
    }
    expect(v.parse(schema, { page: String(Number.MAX_VALUE) + '0' })).toEqual({
      flag: undefined,
      page: undefined,
    });
  });
});
