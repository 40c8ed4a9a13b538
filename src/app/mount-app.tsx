import type { SupabaseClient } from '@supabase/supabase-js';
import { createRoot } from 'react-dom/client';
import { NOTIFICATION_HUB_PATH } from '#contract/realtime.ts';
import { createApiClient } from '../api-client/call-endpoint.ts';
import type { AuthServices } from '../auth/auth-client.ts';
import type { AuthController } from '../auth/auth-controller.ts';
import { createAuthLog, type AuthLog } from '../auth/auth-log.ts';
import { AuthServicesProvider } from '../auth/auth-services.tsx';
import { resetPasswordPath } from '../auth/auth-guards.ts';
import { describeAuthError } from '../auth/describe-auth-error.ts';
import { createRegistrationCoordinator } from '../auth/registration.ts';
import { createRetryAfterTracker } from '../auth/retry-after-tracker.ts';
import { createSignedOutAuthController } from '../auth/signed-out-auth-controller.ts';
import { isClientPortalPath } from './client-portal-path.ts';
import { createServerSignOut } from '../auth/server-sign-out.ts';
import { createSessionStorage, supabaseStorageKey } from '../auth/stored-session.ts';
import { createSupabaseAuthController } from '../auth/supabase-auth-controller.ts';
import { LoadingView } from '../ui/loading-view.tsx';
import { createThemeController } from '../ui/theme.ts';
import type { Toaster } from '../ui/toaster.ts';
import { App } from './app.tsx';
import { BootErrorScreen } from './boot-error-screen.tsx';
import { createAppRouter, type AppRouter } from './create-app-router.tsx';
import { loadPublicConfig } from './load-public-config.ts';
import { safeStorage } from './safe-storage.ts';
import { clearDemoMark, demoModeAt, markDemo, runsDemo } from '../demo/demo-mode.ts';
import type { SyncSessionServices } from './sync-session.tsx';

/** Where the confirmation link lands (signup emailRedirectTo). */
const confirmRegistrationPath = '/auth/confirm-registration';

/**
 * supabase-js leaves `?error=...` of a failed email link or Google sign-in in the URL, and a `code`
 * it could not use (the link was opened in another browser, which has no PKCE verifier). Both are
 * removed before the router reads the URL; what they meant is told in a toast.
 */
function tidyAuthCallbackUrl(toaster: Toaster, initError: unknown): void {
  const url = new URL(window.location.href);
  let changed = false;
  for (const key of ['error', 'error_code', 'error_description', 'sb']) {
    if (url.searchParams.has(key)) {
      url.searchParams.delete(key);
      changed = true;
    }
  }
  if (/(^#|&)error/.test(url.hash)) {
    url.hash = '';
    changed = true;
  }
  if (initError) {
    toaster.show({ tone: 'error', message: describeAuthError(initError).message });
  } else if (url.searchParams.has('code')) {
    url.searchParams.delete('code');
    changed = true;
    if (url.pathname === confirmRegistrationPath) {
      toaster.show({ tone: 'success', message: 'Your email is confirmed. Sign in to continue.' });
    } else if (url.pathname === resetPasswordPath) {
      toaster.show({
        tone: 'error',
        message: 'Open the reset link in the browser where you asked for it, or ask for a new one.',
      });
    }
  }
  if (changed) window.history.replaceState(window.history.state, '', url.href);
}

/** The URL carries what an email link or the Google round trip hands back (PKCE code or error). */
function hasAuthCallback(url: URL): boolean {
  return (
    ['code', 'error', 'error_code', 'error_description'].some((key) => url.searchParams.has(key)) ||
    /(^#|&)(access_token|error|error_code)=/.test(url.hash)
  );
}

/** Resolves now when the browser says it is online, else at its next `online` event. */
function whenOnline(): Promise<void> {
  if (navigator.onLine !== false) return Promise.resolve();
  return new Promise((resolve) => {
    window.addEventListener('online', () => resolve(), { once: true });
  });
}

interface StartedApp {
  router: AppRouter;
  authController: AuthController;
  services: AuthServices | null;
  sync: SyncSessionServices | null;
}

/**
 * Boot: read the public config, create the supabase client from it (it picks up a session from
 * the URL or from storage), then the auth controller and the router. The API client's bearer
 * token is always the current session's: supabase-js refreshes it first when it is near expiry.
 */
async function startApp(toaster: Toaster, log: AuthLog): Promise<StartedApp> {
  let supabase: SupabaseClient | null = null;
  const getAccessToken = async () => {
    if (!supabase) return null;
    const { data } = await supabase.auth.getSession();
    return data.session?.access_token ?? null;
  };
  const api = createApiClient({ baseUrl: '', getAccessToken });
  if (isClientPortalPath(window.location.pathname)) {
    // The client portal has no sign-in (its calls ride on the portal cookie) and no link into the
    // app: it starts without the config round trip and supabase-js, which cost a phone on a slow
    // network its first paint. A member who opens a portal link gets the portal, as a client would.
    const authController = createSignedOutAuthController();
    return {
      router: createAppRouter({ auth: authController.getState(), api }),
      authController,
      services: null,
      sync: null,
    };
  }
  // The demo (/demo, then every app page of this tab): the real app on a database that lives only
  // in this browser. Chosen before the config round trip, so nothing at all is sent to the server.
  const session = safeStorage('sessionStorage');
  const demoMode = demoModeAt(window.location.pathname, session);
  if (demoMode === 'leave') clearDemoMark(session);
  if (runsDemo(demoMode)) {
    markDemo(session);
    const { startDemo } = await import('../demo/start-demo.ts');
    const demo = startDemo();
    return {
      router: createAppRouter({ auth: demo.authController.getState(), api: demo.api }),
      authController: demo.authController,
      services: null,
      sync: demo.sync,
    };
  }
  // Fetched alongside the config; supabase-js stays out of the first bundle.
  const supabaseModule = import('@supabase/supabase-js');
  supabaseModule.catch(() => undefined);

  const config = await loadPublicConfig({
    callEndpoint: api.callEndpoint,
    storage: safeStorage('localStorage'),
    onAuthChanged: () =>
      toaster.show({
        message: "Satchel's sign-in settings changed on the server. Reload to use them.",
        action: { label: 'Reload', onAction: () => window.location.reload() },
      }),
  });

  if (!config.supabaseAnonKey) {
    // The server has no sign-in configured: everyone is signed out and auth screens say so.
    const authController = createSignedOutAuthController();
    return {
      router: createAppRouter({ auth: authController.getState(), api }),
      authController,
      services: null,
      sync: null,
    };
  }

  const { createClient, isAuthRetryableFetchError } = await supabaseModule;
  const tracker = createRetryAfterTracker(globalThis.fetch.bind(globalThis));
  const landing = new URL(window.location.href);
  const localStore = safeStorage('localStorage');
  const storedSession = createSessionStorage(localStore, supabaseStorageKey(config.supabaseUrl));
  const client = createClient(config.supabaseUrl, config.supabaseAnonKey, {
    auth: {
      flowType: 'pkce',
      detectSessionInUrl: true,
      persistSession: true,
      autoRefreshToken: true,
      storageKey: supabaseStorageKey(config.supabaseUrl),
      storage: storedSession.storage,
    },
    global: { fetch: tracker.fetch },
  });
  supabase = client;
  const serverSignOut = createServerSignOut({
    storage: localStore,
    logout: async (token) => {
      const { error } = await client.auth.admin.signOut(token, 'local');
      return error && isAuthRetryableFetchError(error) ? 'unreachable' : 'answered';
    },
  });
  // Sign-outs made offline reach the server at the next start or when the network is back.
  void serverSignOut.retryWaiting();
  window.addEventListener('online', () => void serverSignOut.retryWaiting());
  // Subscribed before initialize() settles, so no event of the URL session is missed.
  const authController = createSupabaseAuthController({
    client: client.auth,
    log,
    recoveryLanding: landing.pathname === resetPasswordPath && landing.searchParams.has('code'),
    signOutSteps: {
      forgetStoredSession: () => storedSession.forget(),
      endOnServer: (token) => serverSignOut.end(token),
    },
  });
  // Back from an email link or Google: wait for supabase-js to take the session from the URL,
  // so the router starts on a clean URL. Otherwise render at once: restoring a stored session can
  // retry a token refresh for up to 30 s when offline, and public pages need no session.
  if (hasAuthCallback(landing)) {
    const { error: initError } = await client.auth.initialize();
    tidyAuthCallbackUrl(toaster, initError);
  }

  const registration = createRegistrationCoordinator({
    callEndpoint: api.callEndpoint,
    storage: safeStorage('sessionStorage'),
    log,
  });
  const ensureRegistered = () => {
    const user = authController.getSession()?.user;
    return user
      ? registration.ensureRegistered(user)
      : Promise.reject(new Error('Nobody is signed in'));
  };
  // Spec 4: every signed-in user is registered once per browser session (Google's first sign-in
  // included). A failure is logged and the user stays where they are; /auth/confirm-registration
  // shows it with a retry.
  const registerSignedInUser = () => {
    if (authController.getState().status !== 'authenticated') return;
    // On a later task: state changes come from supabase-js's auth callback, and the API call
    // asks supabase-js for the token, which waits for that callback to return.
    setTimeout(() => {
      ensureRegistered().catch(() => undefined);
    }, 0);
  };
  authController.subscribe(registerSignedInUser);

  const services: AuthServices = {
    client: client.auth,
    googleEnabled: config.googleEnabled,
    captchaSiteKey: config.captchaSiteKey,
    retryAfterSeconds: tracker.secondsLeft,
    redirectUrl: (pathAndQuery) => new URL(pathAndQuery, window.location.origin).href,
    ensureRegistered,
    log,
  };
  const sync: SyncSessionServices = {
    // Loaded on first sign-in: Dexie and the engine stay out of the public site's bundle.
    openSync: async (userId) =>
      (await import('../sync/sync-client.ts')).startSync({
        userId,
        getAccessToken,
        onVersionChange: () =>
          toaster.show({
            message: 'Satchel was updated in another tab. Reload to keep working.',
            action: { label: 'Reload', onAction: () => window.location.reload() },
          }),
      }),
    ensureRegistered,
    requestPersistentStorage: () => {
      // Best effort: a refusal only means the browser may evict data under storage pressure.
      navigator.storage?.persist?.().catch(() => undefined);
    },
    realtime: {
      callEndpoint: api.callEndpoint,
      hubUrl: new URL(NOTIFICATION_HUB_PATH, window.location.origin).href,
      // Loaded on first sign-in: SignalR stays out of the public site's bundle. It is not
      // precached (live updates need the network; vite.config.ts), so a device offline at sign-in
      // loads it once the network is back: a failed import() would stay failed in this document.
      openHub: async (options) => {
        await whenOnline();
        return (await import('../realtime/create-notification-hub.ts')).createNotificationHub(
          options,
        );
      },
      log,
      // Loaded when needed: it names the local database, whose module (Dexie) stays out of here.
      onAccountDeleted: (userId) =>
        void import('../features/settings/account-deleted.ts').then(({ leaveDeletedAccount }) =>
          leaveDeletedAccount(userId, () => authController.signOut()),
        ),
    },
  };
  return {
    router: createAppRouter({ auth: authController.getState(), api }),
    authController,
    services,
    sync,
  };
}

/**
 * Composition root: creates the app's services once and renders it into `container`. The toaster
 * comes from the entry, which registers the service worker before the app starts.
 */
export function mountApp(container: HTMLElement, toaster: Toaster): void {
  // The theme is applied before the first render, so the page never flashes the wrong colours.
  const themeController = createThemeController({
    document,
    storage: safeStorage('localStorage'),
    matchMedia:
      typeof window.matchMedia === 'function' ? (query) => window.matchMedia(query) : undefined,
  });
  const log = createAuthLog();
  const root = createRoot(container);

  const boot = () => {
    root.render(<LoadingView />);
    startApp(toaster, log).then(
      ({ router, authController, services, sync }) => {
        root.render(
          <AuthServicesProvider services={services}>
            <App
              router={router}
              authController={authController}
              themeController={themeController}
              toaster={toaster}
              sync={sync}
            />
          </AuthServicesProvider>,
        );
      },
      (error: unknown) => {
        log.error('Satchel could not start', error instanceof Error ? error.message : error);
        root.render(<BootErrorScreen onRetry={boot} />);
      },
    );
  };

  boot();
}
