import { Link } from '@tanstack/react-router';
import { Bell } from 'lucide-react';
import { useNotifications } from './notifications-context.tsx';
import { useNotificationToasts } from './use-notification-toasts.ts';

/** "99+" keeps the badge inside the bell's corner. */
export function formatBadgeCount(count: number): string {
  return count > 99 ? '99+' : String(count);
}

/**
 * The header's bell: a link to /notifications with the unread count. It also raises the toasts
 * for arriving notifications, since it is on every signed-in page exactly once.
 */
export function NotificationBell() {
  const { unreadCount } = useNotifications();
  useNotificationToasts();
  const label =
    unreadCount > 0 ? `Notifications, ${unreadCount} unread` : 'Notifications, none unread';
  return (
    <Link
      to="/notifications"
      aria-label={label}
      className="relative grid size-11 shrink-0 place-items-center rounded-full text-fg-muted hover:bg-surface-muted hover:text-fg aria-[current=page]:text-brand sm:size-10"
    >
      <Bell aria-hidden="true" size={20} />
      {unreadCount > 0 ? (
        <span
          aria-hidden="true"
          data-testid="notification-badge"
          className="absolute top-0.5 right-0.5 grid h-5 min-w-5 place-items-center rounded-full bg-brand px-1 text-[11px] leading-none font-bold text-on-brand ring-2 ring-canvas"
        >
          {formatBadgeCount(unreadCount)}
        </span>
      ) : null}
    </Link>
  );
}
