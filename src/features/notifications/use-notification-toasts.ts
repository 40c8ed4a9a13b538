import { useNavigate } from '@tanstack/react-router';
import { useEffect } from 'react';
import { useToast } from '../../ui/use-toast.ts';
import { useNotificationStore } from './notifications-context.tsx';

/** Long enough to read a title and reach "View"; the toast also pauses while hovered or focused. */
const NOTIFICATION_TOAST_MS = 8_000;

/**
 * A toast for each notification that arrives while the app is open (the toaster shows one at a
 * time: a newer one replaces it). Mounted once, by the bell in the app header.
 */
export function useNotificationToasts(): void {
  const store = useNotificationStore();
  const toaster = useToast();
  const navigate = useNavigate();
  useEffect(() => {
    if (!store) return;
    return store.onArrival((notification) => {
      const link = notification.link;
      toaster.show({
        message: notification.title,
        durationMs: NOTIFICATION_TOAST_MS,
        ...(link
          ? {
              action: {
                label: 'View',
                onAction: () => {
                  void store.markRead(notification.id);
                  void navigate({ href: link });
                },
              },
            }
          : {}),
      });
    });
  }, [store, toaster, navigate]);
}
