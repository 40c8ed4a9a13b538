/**
 * The demo's services, chosen at the composition root (mount-app.tsx) when this tab runs the
 * demo: a fixed signed-in visitor, an API client that never calls the server, and sync on the
 * demo's own database (`satchel-<DEMO_USER_ID>`) with no transport. Loaded by dynamic import, so none of
 * this (the sample data included) is in the app's first bundle or the precache.
 */
import type { SyncSessionServices } from '../app/sync-session.tsx';
import { safeStorage } from '../app/safe-storage.ts';
import type { AuthController } from '../auth/auth-controller.ts';
import { createAppDatabase, type AppDatabase } from '../db/app-database.ts';
import { welcomeDismissedKey } from '../features/dashboard/welcome-modal.tsx';
import { startSync } from '../sync/sync-client.ts';
import { createDemoApiClient } from './demo-api.ts';
import { createDemoAuthController } from './demo-auth-controller.ts';
import { DEMO_ENTRY_PATH, DEMO_RESET_KEY, DEMO_USER_ID, readFlag } from './demo-mode.ts';
import { leaveDemo } from './demo-navigation.ts';
import { buildDemoSeed } from './demo-seed.ts';
import { seedDemoDatabase } from './seed-demo-database.ts';

export interface DemoServices {
  authController: AuthController;
  api: ReturnType<typeof createDemoApiClient>;
  sync: SyncSessionServices;
}

/**
 * Prepares the demo database: dropped first when Reset demo asked for it, seeded when empty. The
 * same connection then serves sync (start-demo opens it once: Dexie's schema set-up and the
 * IndexedDB open are a long task on a phone).
 */
async function prepareDemoDatabase(db: AppDatabase, storage: Storage | undefined): Promise<void> {
  const reset = readFlag(storage, DEMO_RESET_KEY);
  if (reset) {
    await db.delete();
    await db.open();
  }
  await seedDemoDatabase(db, buildDemoSeed());
  // Cleared only once the new seed is in: a failed reset is tried again on the next start.
  if (reset) {
    try {
      storage?.removeItem(DEMO_RESET_KEY);
    } catch {
      // Nothing kept: the next start resets once more, which is harmless.
    }
  }
}

/**
 * The demo's entry (/demo) is only a door: the router starts on the dashboard itself, so the public
 * layout and the entry's screen are neither loaded nor rendered on the way (a round trip and a
 * render less before the dashboard). Its prerendered copy stays on screen until the dashboard has
 * its data (hide-demo-entry.ts).
 */
function skipDemoEntry(): void {
  const { pathname, search, hash } = window.location;
  if (pathname !== DEMO_ENTRY_PATH && pathname !== `${DEMO_ENTRY_PATH}/`) return;
  window.history.replaceState(window.history.state, '', `/dashboard${search}${hash}`);
}

export function startDemo(): DemoServices {
  const storage = safeStorage('sessionStorage');
  skipDemoEntry();
  // Started now, while the router fetches the dashboard's chunks, rather than once the shell has
  // rendered and asks for sync; the bar's chunk too, so the shell shows with it.
  const db = createAppDatabase(DEMO_USER_ID);
  const prepared = prepareDemoDatabase(db, storage);
  prepared.catch(() => undefined);
  void import('./demo-bar.tsx').catch(() => undefined);
  // The first-run welcome is for a new account; the demo bar says what the demo is.
  try {
    safeStorage('localStorage')?.setItem(welcomeDismissedKey(DEMO_USER_ID), '1');
  } catch {
    // The welcome shows once more: harmless.
  }
  const api = createDemoApiClient();
  return {
    authController: createDemoAuthController({ onLeave: () => leaveDemo('/') }),
    api,
    sync: {
      // No hub in the demo: live updates stay off, and the notification list (empty, from the
      // demo's API) loads once, so the bell and Notifications show their usual empty state.
      realtime: {
        callEndpoint: api.callEndpoint,
        hubUrl: '',
        openHub: () => new Promise(() => undefined),
        log: { warn: () => undefined },
      },
      openSync: async (userId) => {
        await prepared;
        return startSync({
          userId,
          // Not closed by the handle's stop (it did not open it): it lives as long as the page.
          ...(userId === DEMO_USER_ID ? { db } : {}),
          getAccessToken: () => Promise.resolve(null),
          localOnly: true,
        });
      },
    },
  };
}
