/**
 * The workspace a user last chose to open on this device (accepting an invitation chooses it).
 * A user owns one workspace and may be a member of others; without a choice the screens show the
 * owned one (src/features/workspace/use-workspace.ts). Kept per user in localStorage: a choice is
 * this device's, like the data it holds.
 */
const keyFor = (userId: string) => `satchel:open-workspace:${userId}`;

export function readPreferredWorkspace(userId: string): string | null {
  try {
    return globalThis.localStorage?.getItem(keyFor(userId)) ?? null;
  } catch {
    // Storage refused (private mode): the owned workspace opens, as before any choice.
    return null;
  }
}

export function choosePreferredWorkspace(userId: string, workspaceId: string): void {
  try {
    globalThis.localStorage?.setItem(keyFor(userId), workspaceId);
  } catch {
    // As above: nothing to keep, nothing lost but the choice.
  }
}
