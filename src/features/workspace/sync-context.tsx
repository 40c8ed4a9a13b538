/**
 * The signed-in user's sync handle for the screens: their local database, the sync status, and
 * the write context every mutation takes. The composition root (src/app/sync-session.tsx) creates
 * the handle per user; screens only read it from here, so tests can provide a handle of their own.
 */
import {
  createContext,
  useCallback,
  useContext,
  useMemo,
  useSyncExternalStore,
  type ReactNode,
} from 'react';
import type { LocalWriteContext } from '../../db/local-write.ts';
import type { ClientSyncStatus, SyncHandle } from '../../sync/sync-client.ts';

interface SyncContextValue {
  handle: SyncHandle;
  userId: string;
}

const SyncContext = createContext<SyncContextValue | null>(null);

export interface SyncProviderProps {
  /** Null while nobody is signed in (or sync is still starting): screens show a loading state. */
  handle: SyncHandle | null;
  userId: string | null;
  children: ReactNode;
}

export function SyncProvider({ handle, userId, children }: SyncProviderProps) {
  const value = useMemo(() => (handle && userId ? { handle, userId } : null), [handle, userId]);
  return <SyncContext.Provider value={value}>{children}</SyncContext.Provider>;
}

export function useSync(): SyncContextValue {
  const value = useContext(SyncContext);
  if (!value) throw new Error('useSync needs a SyncProvider (a signed-in page).');
  return value;
}

/** The sync handle when there is one (signed-in pages), or null. */
export function useOptionalSync(): SyncContextValue | null {
  return useContext(SyncContext);
}

export function useSyncStatus(): ClientSyncStatus {
  const { handle } = useSync();
  const subscribe = useCallback(
    (listener: () => void) => handle.subscribe(() => listener()),
    [handle],
  );
  const read = useCallback(() => handle.getStatus(), [handle]);
  return useSyncExternalStore(subscribe, read, read);
}

/** What mutations take: the user's database, their id, and the nudge that wakes sync. */
export function useWriteContext(): LocalWriteContext {
  const { handle, userId } = useSync();
  return useMemo(
    () => ({ db: handle.db, userId, onQueued: () => handle.notifyOutboxChanged() }),
    [handle, userId],
  );
}
