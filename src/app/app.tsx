import { RouterProvider } from '@tanstack/react-router';
import { StrictMode, useEffect } from 'react';
import type { AuthController } from '../auth/auth-controller.ts';
import { AuthProvider, useAuth } from '../auth/auth-provider.tsx';
import type { ThemeController } from '../ui/theme.ts';
import { ThemeProvider } from '../ui/theme-provider.tsx';
import { ToastProvider } from '../ui/toast-provider.tsx';
import type { Toaster } from '../ui/toaster.ts';
import type { AppRouter } from './create-app-router.tsx';
import { SyncSession, type SyncSessionServices } from './sync-session.tsx';

export interface AppProps {
  router: AppRouter;
  authController: AuthController;
  themeController: ThemeController;
  toaster: Toaster;
  /** Local-first data for signed-in users; null where there is none (route tests, no auth). */
  sync?: SyncSessionServices | null;
}

/** Providers around the router. Everything is created by the caller (see mount-app.tsx). */
export function App({ router, authController, themeController, toaster, sync = null }: AppProps) {
  return (
    <StrictMode>
      <ThemeProvider controller={themeController}>
        <ToastProvider toaster={toaster}>
          <AuthProvider controller={authController}>
            <AuthenticatedRouter router={router} sync={sync} />
          </AuthProvider>
        </ToastProvider>
      </ThemeProvider>
    </StrictMode>
  );
}

function AuthenticatedRouter({
  router,
  sync,
}: {
  router: AppRouter;
  sync: SyncSessionServices | null;
}) {
  const auth = useAuth();
  // Guards read `context.auth` in beforeLoad; when the state changes (loading -> known, sign in,
  // sign out) they must run again for the page on screen.
  useEffect(() => {
    void router.invalidate();
  }, [auth, router]);
  return (
    <SyncSession auth={auth} services={sync}>
      <RouterProvider router={router} context={{ auth }} />
    </SyncSession>
  );
}
