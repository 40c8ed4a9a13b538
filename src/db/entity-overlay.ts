/**
 * Pure rules for a row that has local changes on top of server data (sync spec b.4 "re-apply
 * pending patches"). Invariant: for every field a pending patch overlays, the row shows the last
 * pending value and `_base` holds the latest server value known. So a pull only refreshes `_base`
 * for those fields, and removing the last patch of a field (ack or rejection) restores `_base`.
 */
import type { LocalFields } from './app-database.ts';

type Row = LocalFields & Record<string, unknown>;

/** Equality of JSON values (strings, numbers, booleans, null, arrays, plain objects). */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The fields of `patch` whose value differs from the row, and their values before. */
export function diffPatch(
  row: object,
  patch: Record<string, unknown>,
): { changed: Record<string, unknown>; before: Record<string, unknown> } {
  const changed: Record<string, unknown> = {};
  const before: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(patch)) {
    const current = (row as Record<string, unknown>)[field];
    if (value === undefined || sameValue(current, value)) continue;
    changed[field] = value;
    before[field] = current ?? null;
  }
  return { changed, before };
}

/** A local patch shown at once; the first overlay of a field remembers its server value. */
export function overlayPatch<R extends Row>(row: R, changed: Record<string, unknown>): R {
  const base = { ...row._base };
  for (const field of Object.keys(changed)) {
    if (!(field in base)) base[field] = row[field] ?? null;
  }
  return { ...row, ...changed, _base: base, _pending: row._pending + 1 };
}

/**
 * A server row arriving from a pull, merged with the local row: server data everywhere except the
 * overlaid fields, whose server values go to `_base`. Local bookkeeping fields are kept.
 */
export function rebaseServerRow<R extends Row>(
  server: Record<string, unknown>,
  local: R | undefined,
  version: number,
): R {
  if (!local || (local._pending === 0 && Object.keys(local._base).length === 0)) {
    return { ...server, _v: version, _pending: 0, _deleted: false, _base: {} } as unknown as R;
  }
  const base: Record<string, unknown> = {};
  const overlay: Record<string, unknown> = {};
  for (const field of Object.keys(local._base)) {
    base[field] = server[field] ?? null;
    overlay[field] = local[field];
  }
  return { ...local, ...server, ...overlay, _v: version, _base: base };
}

/**
 * The row after one outbox entry left (acked and pulled, or rejected): each of its fields that no
 * remaining patch overlays goes back to the latest known server value.
 */
export function releaseFields<R extends Row>(
  row: R,
  fields: readonly string[],
  stillOverlaid: ReadonlySet<string>,
): R {
  const base = { ...row._base };
  const restored: Record<string, unknown> = {};
  for (const field of fields) {
    if (stillOverlaid.has(field) || !(field in base)) continue;
    restored[field] = base[field];
    delete base[field];
  }
  return { ...row, ...restored, _base: base, _pending: Math.max(0, row._pending - 1) };
}
