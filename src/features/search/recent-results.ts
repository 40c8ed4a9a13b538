/**
 * The last few results opened from the palette, per workspace, shown when the query is empty.
 * Kept in localStorage (ids only: the titles come from the index, so a renamed item shows its new
 * name and a deleted one simply drops out). Storage may be off or full: then there is no list.
 */
const MAX_RECENT = 6;
const keyOf = (workspaceId: string) => `satchel:search-recent:${workspaceId}`;

export function readRecentResults(workspaceId: string): string[] {
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(keyOf(workspaceId)) ?? '[]');
    return Array.isArray(stored)
      ? stored.filter((id): id is string => typeof id === 'string').slice(0, MAX_RECENT)
      : [];
  } catch {
    return [];
  }
}

export function rememberRecentResult(workspaceId: string, docId: string): void {
  const next = [docId, ...readRecentResults(workspaceId).filter((id) => id !== docId)];
  try {
    localStorage.setItem(keyOf(workspaceId), JSON.stringify(next.slice(0, MAX_RECENT)));
  } catch {
    // Private mode or a full quota: the palette works without its recent list.
  }
}
