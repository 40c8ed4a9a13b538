/**
 * Whether the browser says it has a network (`navigator.onLine`, kept current by the `online` and
 * `offline` events). The portal's actions that need the server are disabled with a reason when it
 * says no, instead of failing after a press.
 */
import { useSyncExternalStore } from 'react';

function subscribe(listener: () => void): () => void {
  window.addEventListener('online', listener);
  window.addEventListener('offline', listener);
  return () => {
    window.removeEventListener('online', listener);
    window.removeEventListener('offline', listener);
  };
}

const read = () => globalThis.navigator?.onLine ?? true;

export function useBrowserOnline(): boolean {
  return useSyncExternalStore(subscribe, read, () => true);
}
