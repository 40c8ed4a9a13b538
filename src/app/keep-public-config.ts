/**
 * The public config as the app keeps it for offline starts (load-public-config.ts reads and
 * validates it). Here without valibot or the contract, so the entry can use it: a prerendered
 * page may never start the app (boot-when-engaged.ts), yet its visit installs the service worker,
 * and the app opened offline afterwards needs a config to start at all.
 */

/** localStorage key of the last public config the server gave. */
export const publicConfigCacheKey = 'satchel.public-config';

/** GET /api/config?endpoint=get-public-config (contract/endpoints/config.ts), a public call. */
const publicConfigUrl = '/api/config?endpoint=get-public-config';

/**
 * Stores the server's public config once the browser is idle, unless one is kept already (the
 * app refreshes it on every start). Best effort: any failure leaves things as they were.
 */
export function keepPublicConfigWhenIdle(deps: {
  storage: Pick<Storage, 'getItem' | 'setItem'> | undefined;
  fetch: typeof globalThis.fetch;
  whenIdle: (work: () => void) => void;
}): void {
  const { storage } = deps;
  try {
    if (!storage || storage.getItem(publicConfigCacheKey)) return;
  } catch {
    return;
  }
  deps.whenIdle(() => {
    deps
      .fetch(publicConfigUrl, { headers: { Accept: 'application/json' } })
      .then(async (response) => {
        if (!response.ok) return;
        const text = await response.text();
        // Only a JSON object; its shape is checked by the app when it reads it.
        const parsed: unknown = JSON.parse(text);
        if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
          storage.setItem(publicConfigCacheKey, text);
        }
      })
      .catch(() => undefined);
  });
}
