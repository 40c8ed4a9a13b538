/**
 * Live queries over the local database, the only reactive read path: Dexie re-runs a query when a
 * table it read changes, in this tab, another tab or the sync worker. React screens use
 * `useLiveQuery`; non-React code (the sync client's status) uses `observeQuery`.
 */
import { liveQuery } from 'dexie';

export { useLiveQuery } from 'dexie-react-hooks';

/** Calls `onValue` with each new result until the returned function is called. */
export function observeQuery<T>(
  querier: () => Promise<T>,
  onValue: (value: T) => void,
  onError: (error: unknown) => void = () => {},
): () => void {
  const subscription = liveQuery(querier).subscribe({ next: onValue, error: onError });
  return () => subscription.unsubscribe();
}
