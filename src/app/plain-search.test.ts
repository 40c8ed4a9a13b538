import { describe, expect, it } from 'vitest';
import { parsePlainSearch, stringifyPlainSearch } from './plain-search.ts';

describe('parsePlainSearch', () => {
  it('keeps every value a string', () => {
    expect(parsePlainSearch('?projectId=123&flag=true&returnTo=%2Fprojects%3Fa%3D1')).toEqual({
      projectId: '123',
      flag: 'true',
      returnTo: '/projects?a=1',
    });
  });

  it('turns repeated keys into arrays', () => {
    expect(parsePlainSearch('tag=a&tag=b&tag=c')).toEqual({ tag: ['a', 'b', 'c'] });
  });

  it('reads an empty search as an empty object', () => {
    expect(parsePlainSearch('')).toEqual({});
    expect(parsePlainSearch('?')).toEqual({});
  });
});

describe('stringifyPlainSearch', () => {
  it('writes plain strings without JSON quotes and skips undefined', () => {
    expect(
      stringifyPlainSearch({ returnTo: '/projects?a=1', projectId: '123', x: undefined }),
    ).toBe('?returnTo=%2Fprojects%3Fa%3D1&projectId=123');
  });

  it('writes arrays as repeated keys', () => {
    expect(stringifyPlainSearch({ tag: ['a', 'b'] })).toBe('?tag=a&tag=b');
  });

  it('writes nothing for an empty object', () => {
    expect(stringifyPlainSearch({})).toBe('');
  });

  it('round-trips', () => {
    const search = { returnTo: '/clients/1#notes', tag: ['x y', 'z'] };
    expect(parsePlainSearch(stringifyPlainSearch(search))).toEqual(search);
  });
});
