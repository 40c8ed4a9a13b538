import { createContext, use, useCallback, useSyncExternalStore, type ReactNode } from 'react';
import type { AuthController, AuthState } from './auth-controller.ts';

const AuthControllerContext = createContext<AuthController | null>(null);

export interface AuthProviderProps {
  controller: AuthController;
  children: ReactNode;
}

export function AuthProvider({ controller, children }: AuthProviderProps) {
  return <AuthControllerContext value={controller}>{children}</AuthControllerContext>;
}

function useAuthController(): AuthController {
  const controller = use(AuthControllerContext);
  if (!controller) throw new Error('useAuth must be used inside <AuthProvider>');
  return controller;
}

/** The current auth state; re-renders on every change. */
export function useAuth(): AuthState {
  const controller = useAuthController();
  // Wrapped so a class-based controller keeps its `this`.
  const subscribe = useCallback(
    (listener: () => void) => controller.subscribe(listener),
    [controller],
  );
  const getState = useCallback(() => controller.getState(), [controller]);
  return useSyncExternalStore(subscribe, getState);
}

/** Signs out through whichever controller the app was started with. */
export function useSignOut(): () => Promise<void> {
  const controller = useAuthController();
  return useCallback(() => controller.signOut(), [controller]);
}
