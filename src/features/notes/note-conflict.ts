/**
 * The marker lines the server writes into a note body when two devices changed the same lines
 * offline (server/endpoints/merge-text.ts: copied, since src never imports server code). Between
 * them both versions are kept; the person removes the one they don't want.
 */
export const CONFLICT_START = '⚠ Edited in two places at once; both versions are kept below.';
export const CONFLICT_EARLIER = '--- saved first ---';
export const CONFLICT_LATER = '--- saved later ---';
export const CONFLICT_END = '--- end of both versions ---';

/** True when the body still holds a merge with both versions kept. */
export function hasConflict(body: string): boolean {
  return body.split('\n').some((line) => line.trim() === CONFLICT_START);
}
