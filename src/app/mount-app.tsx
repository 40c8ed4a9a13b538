import { Workbox } from 'workbox-window';
import { createRoot } from 'react-dom/client';
import { createApiClient } from '../api-client/call-endpoint.ts';
import { createSignedOutAuthController } from '../auth/signed-out-auth-controller.ts';
import '../ui/styles.css';
import { createThemeController } from '../ui/theme.ts';
import { createToaster } from '../ui/toaster.ts';
import { App } from './app.tsx';
import { createAppRouter } from './create-app-router.tsx';
import { registerServiceWorker } from './register-service-worker.ts';

function safeLocalStorage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}

/** Composition root: creates the app's services once and renders it into `container`. */
export function mountApp(container: HTMLElement): void {
  // The theme is applied before the first render, so the page never flashes the wrong colours.
  const themeController = createThemeController({
    document,
    storage: safeLocalStorage(),
    matchMedia:
      typeof window.matchMedia === 'function' ? (query) => window.matchMedia(query) : undefined,
  });
  const toaster = createToaster();
  // Placeholder until the accounts work provides the supabase-js controller.
  const authController = createSignedOutAuthController();
  const api = createApiClient({ baseUrl: '' });
  const router = createAppRouter({ auth: authController.getState(), api });

  // Only production builds have a service worker (devOptions are off), and dev must never be
  // served stale code from a cache.
  if (import.meta.env.PROD && 'serviceWorker' in navigator) {
    registerServiceWorker({
      workbox: new Workbox('/sw.js', { scope: '/' }),
      toaster,
      reload: () => window.location.reload(),
      visibility: document,
    });
  }

  createRoot(container).render(
    <App
      router={router}
      authController={authController}
      themeController={themeController}
      toaster={toaster}
    />,
  );
}
