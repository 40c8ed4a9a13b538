import { Check, Trash2 } from 'lucide-react';
import { Link as AriaLink } from 'react-aria-components';
import type { Notification } from '#contract/entities/notification.ts';
import { Button } from '../../ui/button.tsx';

export interface NotificationItemProps {
  notification: Notification;
  onMarkRead: (id: string) => void;
  onDelete: (id: string) => void;
}

const timeFormat = new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit' });

function actorName(notification: Notification): string | null {
  const actor = notification.actor;
  if (!actor) return null;
  return `${actor.firstName} ${actor.lastName}`.trim() || null;
}

/**
 * One notification: unread ones stand out (tint, dot, bold title, and "Unread" for screen
 * readers). The title links to what it is about and marks it read on the way.
 */
/** Its Delete button, always there: where focus goes when an action takes the focused one away. */
export const notificationDeleteId = (id: string) => `notification-${id}-delete`;

export function NotificationItem({ notification, onMarkRead, onDelete }: NotificationItemProps) {
  const { id, title, body, link, isRead } = notification;
  const created = new Date(notification.createdAt);
  const actor = actorName(notification);
  const titleClass = `text-base text-fg ${isRead ? 'font-medium' : 'font-semibold'}`;
  return (
    <li
      data-unread={isRead ? undefined : 'true'}
      className={`flex gap-3 rounded-xl border p-3 sm:p-4 ${
        isRead ? 'border-border bg-surface' : 'border-brand/30 bg-brand-soft/60'
      }`}
    >
      <span
        aria-hidden="true"
        className={`mt-2 size-2.5 shrink-0 rounded-full ${isRead ? 'bg-transparent' : 'bg-brand'}`}
      />
      <div className="min-w-0 flex-1 py-0.5">
        <p className="break-words">
          {isRead ? null : <span className="sr-only">Unread: </span>}
          {link ? (
            <AriaLink
              href={link}
              onPress={() => {
                if (!isRead) onMarkRead(id);
              }}
              className={`${titleClass} cursor-pointer underline-offset-2 hover:underline`}
            >
              {title}
            </AriaLink>
          ) : (
            <span className={titleClass}>{title}</span>
          )}
        </p>
        {body ? <p className="mt-0.5 text-sm break-words text-fg-muted">{body}</p> : null}
        <p className="mt-1 text-xs text-fg-muted">
          <time dateTime={notification.createdAt}>{timeFormat.format(created)}</time>
          {actor ? <> · {actor}</> : null}
        </p>
      </div>
      <div className="-my-1 flex shrink-0 items-start gap-1">
        {isRead ? null : (
          <Button
            variant="ghost"
            size="icon"
            aria-label={`Mark “${title}” as read`}
            onPress={() => onMarkRead(id)}
          >
            <Check aria-hidden="true" size={18} />
          </Button>
        )}
        <Button
          id={notificationDeleteId(id)}
          variant="ghost"
          size="icon"
          aria-label={`Delete “${title}”`}
          onPress={() => onDelete(id)}
        >
          <Trash2 aria-hidden="true" size={18} />
        </Button>
      </div>
    </li>
  );
}
