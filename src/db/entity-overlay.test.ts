import { describe, expect, it } from 'vitest';
import { diffPatch, overlayPatch, rebaseServerRow, releaseFields } from './entity-overlay.ts';

const row = (fields: Record<string, unknown> = {}) => ({
  id: 'c1',
  name: 'Acme',
  phone: null,
  tags: ['a'],
  version: 4,
  _v: 4,
  _pending: 0,
  _deleted: false,
  _base: {},
  ...fields,
});

describe('entity overlay', () => {
  it('diffs only fields whose value really changes, arrays by value', () => {
    expect(diffPatch(row(), { name: 'Acme', tags: ['a'], phone: '1' })).toEqual({
      changed: { phone: '1' },
      before: { phone: null },
    });
  });

  it('remembers the server value on the first overlay of a field only', () => {
    const once = overlayPatch(row(), { name: 'Acme Ltd' });
    const twice = overlayPatch(once, { name: 'Acme Inc' });
    expect(twice).toMatchObject({ name: 'Acme Inc', _base: { name: 'Acme' }, _pending: 2 });
  });

  it('rebases a pulled row under pending fields and refreshes their server values', () => {
    const local = overlayPatch(row(), { name: 'Mine' });
    const server = { id: 'c1', name: 'Theirs', phone: '2', tags: ['b'], version: 9 };
    expect(rebaseServerRow(server, local, 9)).toMatchObject({
      name: 'Mine',
      phone: '2',
      tags: ['b'],
      _v: 9,
      _pending: 1,
      _base: { name: 'Theirs' },
    });
    expect(rebaseServerRow(server, row(), 9)).toMatchObject({ name: 'Theirs', _base: {} });
  });

  it('restores released fields from the server value unless another patch overlays them', () => {
    const local = overlayPatch(overlayPatch(row(), { name: 'A2', phone: '1' }), { name: 'A3' });
    const released = releaseFields(local, ['name', 'phone'], new Set(['name']));
    expect(released).toMatchObject({ name: 'A3', phone: null, _base: { name: 'Acme' } });
    expect(released._pending).toBe(1);
  });
});
