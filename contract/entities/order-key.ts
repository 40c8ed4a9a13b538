/**
 * Order keys of ordered rows (milestones in a project, tasks in a column, board columns):
 * fractional keys (jittered-fractional-indexing over rocicorp's fractional-indexing), so a move is
 * a one-field patch and two offline devices inserting into the same gap get different keys (30
 * random bits). Keys compare as plain byte strings: the SQL column is `COLLATE "C"` and screens
 * sort with `<`, never `localeCompare` (which orders them wrongly). Ties sort by id.
 */
import * as v from 'valibot';
import { generateKeyBetween } from 'jittered-fractional-indexing';
import { text } from '../text.ts';

/** A key the library itself accepts (it throws on an invalid one), at most 64 characters. */
export function isOrderKey(key: string): boolean {
  if (!/^[0-9A-Za-z]{2,64}$/.test(key)) return false;
  try {
    generateKeyBetween(key, null, { jitterBits: 0 });
    return true;
  } catch {
    return false;
  }
}

export const orderKeySchema = v.pipe(
  text('An order key must be text'),
  v.check(isOrderKey, 'Not a valid order key'),
);

/** A key between two neighbours (null: the start or the end of the list). */
export function orderKeyBetween(before: string | null, after: string | null): string {
  return generateKeyBetween(before, after);
}

/** Compares rows by order key, then id: the one order every screen and query uses. */
export function byOrderKey(
  a: { position: string; id: string },
  b: { position: string; id: string },
): number {
  if (a.position !== b.position) return a.position < b.position ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
