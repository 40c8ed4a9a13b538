import type { Toaster } from '../ui/toaster.ts';

/** The part of workbox-window's `Workbox` used here, so tests can drive it with a fake. */
export interface ServiceWorkerHost {
  addEventListener(type: 'waiting' | 'controlling', listener: () => void): void;
  register(): Promise<unknown>;
  update(): Promise<unknown>;
  messageSkipWaiting(): void;
}

export interface RegisterServiceWorkerDeps {
  workbox: ServiceWorkerHost;
  toaster: Pick<Toaster, 'show'>;
  reload: () => void;
  /** Where `visibilitychange` is observed; `document` in the app. */
  visibility: Pick<Document, 'addEventListener' | 'removeEventListener' | 'visibilityState'>;
  updateIntervalMs?: number;
}

export const serviceWorkerUpdateIntervalMs = 60 * 60 * 1000;

/**
 * Update flow (registerType 'prompt', design 8):
 * a new worker installs and waits -> toast "New version available" with Reload -> on Reload the
 * waiting worker is told SKIP_WAITING -> it takes control -> the page reloads once.
 * Never reloads on its own: a user mid-edit decides when. Checks for a new version every hour
 * and whenever the tab becomes visible. Returns a function that stops the checks.
 */
export function registerServiceWorker(deps: RegisterServiceWorkerDeps): () => void {
  const { workbox, toaster, reload, visibility } = deps;
  let isReloadRequested = false;

  workbox.addEventListener('waiting', () => {
    toaster.show({
      message: 'New version available',
      action: {
        label: 'Reload',
        onAction: () => {
          isReloadRequested = true;
          workbox.messageSkipWaiting();
        },
      },
    });
  });

  // `controlling` also fires when another tab accepted the update; only the tab whose user
  // pressed Reload reloads, the others keep their state until the user reloads them.
  workbox.addEventListener('controlling', () => {
    if (isReloadRequested) reload();
  });

  const check = () => {
    workbox.update().catch(() => undefined);
  };
  const onVisibilityChange = () => {
    if (visibility.visibilityState === 'visible') check();
  };

  workbox.register().catch(() => undefined);
  const interval = setInterval(check, deps.updateIntervalMs ?? serviceWorkerUpdateIntervalMs);
  visibility.addEventListener('visibilitychange', onVisibilityChange);

  return () => {
    clearInterval(interval);
    visibility.removeEventListener('visibilitychange', onVisibilityChange);
  };
}
