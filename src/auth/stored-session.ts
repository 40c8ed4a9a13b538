/**
 * Where supabase-js keeps its session (localStorage), behind a storage of the app's own so a
 * sign-out can drop the session before the server is told. supabase-js on its own drops it only
 * after the server's answer, and never when the server cannot be reached: a sign-out made offline
 * would not hold.
 *
 * Dropping is not enough while supabase-js is busy: a token refresh or a user update already under
 * way saves the session again when it finishes. So `forget` also holds every write of the session
 * until its release, which the sign-out calls once supabase-js's own sign-out is through (that one
 * waits for the work under way, behind supabase-js's lock).
 */

type Store = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

export interface SessionStorage {
  /** The storage handed to supabase-js (`auth.storage`). */
  readonly storage: Store;
  /** Removes the stored session and holds its writes until the returned release is called. */
  forget(): () => void;
}

/**
 * supabase-js's own default key (`sb-<first label of the host>-auth-token`), named explicitly:
 * sessions stored before the app named it are still found.
 */
export function supabaseStorageKey(supabaseUrl: string): string {
  return `sb-${new URL(supabaseUrl).hostname.split('.')[0] ?? ''}-auth-token`;
}

/** The session, its PKCE verifier and its user copy, as supabase-js's sign-out removes them. */
const sessionKeys = (storageKey: string) =>
  ['', '-code-verifier', '-user'].map((suffix) => `${storageKey}${suffix}`);

export function createSessionStorage(
  backing: Store | undefined,
  storageKey: string,
): SessionStorage {
  // No localStorage (privacy settings): the session lives as long as the page, as supabase-js's
  // own fallback would keep it.
  const memory = new Map<string, string>();
  const store: Store = backing ?? {
    getItem: (key) => memory.get(key) ?? null,
    setItem: (key, value) => void memory.set(key, value),
    removeItem: (key) => void memory.delete(key),
  };
  const keys = new Set(sessionKeys(storageKey));
  let holds = 0;
  return {
    storage: {
      getItem: (key) => store.getItem(key),
      setItem(key, value) {
        if (holds > 0 && keys.has(key)) return;
        store.setItem(key, value);
      },
      removeItem: (key) => store.removeItem(key),
    },
    forget() {
      for (const key of keys) store.removeItem(key);
      holds += 1;
      let released = false;
      return () => {
        if (released) return;
        released = true;
        holds -= 1;
      };
    },
  };
}
