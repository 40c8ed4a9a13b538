/**
 * Three-way merge of a text two writers edited from the same base (a note changed on two devices
 * offline). Line-based (node-diff3): edits of different lines both stay; lines both writers
 * changed differently keep both versions, one after the other between visible markers, so nothing
 * is ever silently lost and a person can pick. Pure: same inputs, same output.
 */
import { diff3Merge } from 'node-diff3';

export const CONFLICT_START = '⚠ Edited in two places at once; both versions are kept below.';
export const CONFLICT_EARLIER = '--- saved first ---';
export const CONFLICT_LATER = '--- saved later ---';
export const CONFLICT_END = '--- end of both versions ---';

export function mergeText(
  base: string,
  saved: string,
  incoming: string,
): { text: string; conflicts: number } {
  if (saved === base || saved === incoming) return { text: incoming, conflicts: 0 };
  if (incoming === base) return { text: saved, conflicts: 0 };
  const regions = diff3Merge(incoming.split('\n'), base.split('\n'), saved.split('\n'), {
    excludeFalseConflicts: true,
  }) as ({ ok: string[] } | { conflict: { a: string[]; o: string[]; b: string[] } })[];
  const lines: string[] = [];
  let conflicts = 0;
  for (const region of regions) {
    if ('ok' in region) {
      lines.push(...region.ok);
      continue;
    }
    conflicts += 1;
    lines.push(
      CONFLICT_START,
      CONFLICT_EARLIER,
      ...region.conflict.b,
      CONFLICT_LATER,
      ...region.conflict.a,
      CONFLICT_END,
    );
  }
  return { text: lines.join('\n'), conflicts };
}
