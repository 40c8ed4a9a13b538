/**
 * The workspace a user last chose to open on this device (accepting an invitation chooses it, and
 * so does the header's workspace switcher). A user owns one workspace and may be a member of
 * others; without a choice the screens show the owned one (src/features/workspace/use-workspace.ts).
 * Kept per user in localStorage: a choice is this device's, like the data it holds. Reactive: a
 * choice made here re-renders the screens at once, and one made in another tab reaches this one
 * through the storage event, so every tab shows the same workspace.
 */
import { useCallback, useSyncExternalStore } from 'react';

const keyFor = (userId: string) => `satchel:open-workspace:${userId}`;

const listeners = new Set<() => void>();

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
  // The storage event reaches other tabs only; this one hears it from here.
  for (const listener of [...listeners]) listener();
}

/** Hears every choice: this tab's directly, other tabs' through the storage event. */
export function subscribePreferredWorkspace(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key.startsWith('satchel:open-workspace:')) listener();
  };
  globalThis.addEventListener?.('storage', onStorage);
  return () => {
    listeners.delete(listener);
    globalThis.removeEventListener?.('storage', onStorage);
  };
}

/** The user's choice on this device, re-rendering when it changes (here or in another tab). */
export function usePreferredWorkspace(userId: string): string | null {
  const read = useCallback(() => readPreferredWorkspace(userId), [userId]);
  return useSyncExternalStore(subscribePreferredWorkspace, read, read);
}
