/**
 * Starts sync for the signed-in user and stops it on sign-out or a user switch (each user has
 * their own local database; the previous user's outbox stays in theirs). After registration
 * (which creates the first workspace) and after a token refresh it asks the engine to sync again.
 */
import { useEffect, useState, type ReactNode } from 'react';
import type { AuthState } from '../auth/auth-controller.ts';
import { SyncProvider } from '../features/workspace/sync-context.tsx';
import type { SyncHandle } from '../sync/sync-client.ts';
import { useToast } from '../ui/use-toast.ts';
import { RealtimeSession, type RealtimeServices } from './realtime-session.tsx';

export interface SyncSessionServices {
  /** Creates the user's sync handle (startSync in the app; a fake in tests). */
  openSync: (userId: string) => Promise<SyncHandle>;
  /** Resolves once the user has a profile and a workspace on the server. */
  ensureRegistered?: () => Promise<unknown>;
  /** Local storage survives eviction when the browser grants it (Chromium does for installed apps). */
  requestPersistentStorage?: () => void;
  /** Live updates (notification hub, invalidations); absent: none (route tests). */
  realtime?: RealtimeServices;
}

export interface SyncSessionProps {
  auth: AuthState;
  services: SyncSessionServices | null;
  children: ReactNode;
}

export function SyncSession({ auth, services, children }: SyncSessionProps) {
  const userId = auth.status === 'authenticated' ? auth.user.id : null;
  const [handle, setHandle] = useState<{ userId: string; handle: SyncHandle } | null>(null);
  const toaster = useToast();

  useEffect(() => {
    if (!userId || !services) return;
    let active = true;
    let opened: SyncHandle | null = null;
    services.openSync(userId).then(
      (next) => {
        if (!active) {
          void next.stop();
          return;
        }
        opened = next;
        setHandle({ userId, handle: next });
        services.requestPersistentStorage?.();
        services
          .ensureRegistered?.()
          .then(() => {
            if (active) next.reconnect();
          })
          .catch(() => undefined);
      },
      () =>
        toaster.show({
          tone: 'error',
          message: "This browser couldn't open Satchel's local data. Reload to try again.",
          action: { label: 'Reload', onAction: () => window.location.reload() },
        }),
    );
    return () => {
      active = false;
      const closing = opened;
      setHandle((current) => (current?.handle === closing ? null : current));
      if (closing) void closing.stop();
    };
  }, [userId, services, toaster]);

  // A new access token (refresh, or a new sign-in of the same user) lifts a 401 pause.
  useEffect(() => {
    if (auth.status === 'authenticated') handle?.handle.resumeAfterAuth();
  }, [auth, handle]);

  // Always the same element, so the router below never remounts when sync starts or stops.
  const current = handle && handle.userId === userId ? handle : null;
  return (
    <SyncProvider handle={current?.handle ?? null} userId={current?.userId ?? null}>
      <RealtimeSession
        userId={userId}
        handle={current?.handle ?? null}
        services={services?.realtime ?? null}
      >
        {children}
      </RealtimeSession>
    </SyncProvider>
  );
}
