import { BellOff, CheckCheck, CircleAlert, Trash2, WifiOff } from 'lucide-react';
import { useEffect, useId, useMemo, useState, type ReactNode } from 'react';
import { Dialog, DialogTrigger, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { Button } from '../../ui/button.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { usePageTitle } from '../../ui/use-page-title.ts';
import { groupByDay } from './group-by-day.ts';
import { focusWhenReady } from '../../ui/focus-when-ready.ts';
import { NotificationItem, notificationDeleteId } from './notification-item.tsx';
import type { LiveConnectionState } from './notification-store.ts';
import { useNotifications, useNotificationStore } from './notifications-context.tsx';

const panelClass =
  'flex flex-col items-center gap-3 rounded-2xl border border-border bg-surface px-6 py-12 text-center';

/**
 * /notifications: the user's notifications grouped by day, newest first, kept live by the hub.
 * Read once on every visit (the store keeps the list between visits; this refreshes it).
 */
export function NotificationsScreen() {
  usePageTitle('Notifications');
  const store = useNotificationStore();
  const { status, notifications, unreadCount, connection } = useNotifications();
  const groups = useMemo(() => groupByDay(notifications), [notifications]);

  useEffect(() => {
    void store?.load();
  }, [store]);

  const hasList = status === 'ready' || notifications.length > 0;
  /** The next notification's Delete, else the one before's, else the page's heading. */
  const focusAfterRemoving = (id: string) => {
    const order = groups.flatMap((group) => group.notifications);
    const index = order.findIndex((notification) => notification.id === id);
    const next = order[index + 1] ?? order[index - 1];
    if (next) focusWhenReady(`#${CSS.escape(notificationDeleteId(next.id))}`);
    else focusWhenReady('#notifications-heading');
  };
  return (
    <div className="mx-auto max-w-3xl">
      <div className="flex flex-wrap items-end justify-between gap-x-4 gap-y-3">
        <div>
          <h1
            id="notifications-heading"
            tabIndex={-1}
            className="text-3xl font-bold tracking-tight text-fg sm:text-4xl"
          >
            Notifications
          </h1>
          <p className="mt-1 text-fg-muted" aria-live="polite">
            {unreadCount === 0 ? 'No unread notifications' : `${unreadCount} unread`}
          </p>
        </div>
        {hasList ? (
          <div className="flex gap-2">
            <Button
              variant="secondary"
              isDisabled={unreadCount === 0}
              onPress={() => void store?.markAllRead()}
            >
              <CheckCheck aria-hidden="true" size={18} />
              Mark all as read
            </Button>
            <DeleteAllButton
              isDisabled={notifications.length === 0}
              onConfirm={() => {
                void store?.removeAll();
                focusWhenReady('#notifications-heading');
              }}
            />
          </div>
        ) : null}
      </div>

      <ConnectionNotice connection={connection} />

      <div className="mt-6">
        {!hasList && status === 'error' ? (
          <div role="alert" className={panelClass}>
            <CircleAlert aria-hidden="true" size={28} className="text-danger" />
            <p className="text-lg font-semibold text-fg">Your notifications could not be loaded.</p>
            <p className="text-fg-muted">Check your connection and try again.</p>
            <Button variant="secondary" onPress={() => void store?.load()}>
              Try again
            </Button>
          </div>
        ) : !hasList ? (
          <div className={panelClass} role="status">
            <Spinner size="medium" />
            <p className="text-fg-muted">Loading notifications…</p>
          </div>
        ) : notifications.length === 0 ? (
          <div className={panelClass}>
            <span className="grid size-12 place-items-center rounded-xl bg-brand-soft text-brand">
              <BellOff aria-hidden="true" size={24} />
            </span>
            <p className="text-lg font-semibold text-fg">You’re all caught up</p>
            <p className="max-w-md text-fg-muted">
              Assignments, mentions, change requests and payments show up here as they happen.
            </p>
          </div>
        ) : (
          <div className="flex flex-col gap-8">
            {groups.map((group) => (
              <DaySection key={group.key} label={group.label}>
                {group.notifications.map((notification) => (
                  <NotificationItem
                    key={notification.id}
                    notification={notification}
                    onMarkRead={(id) => {
                      void store?.markRead(id);
                      // Its check mark goes: focus stays on the notification, on its Delete.
                      focusWhenReady(`#${CSS.escape(notificationDeleteId(id))}`);
                    }}
                    onDelete={(id) => {
                      void store?.remove(id);
                      focusAfterRemoving(id);
                    }}
                  />
                ))}
              </DaySection>
            ))}
          </div>
        )}
      </div>
    </div>
  );
}

function DaySection({ label, children }: { label: string; children: ReactNode }) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId}>
      <h2
        id={headingId}
        className="mb-3 text-sm font-semibold tracking-wide text-fg-muted uppercase"
      >
        {label}
      </h2>
      <ul className="flex flex-col gap-2">{children}</ul>
    </section>
  );
}

/** Unobtrusive (issue 5): only said when new notifications cannot arrive live. */
function ConnectionNotice({ connection }: { connection: LiveConnectionState }) {
  if (connection === 'connected') return null;
  const text =
    connection === 'disconnected'
      ? 'Live updates are off.'
      : connection === 'connecting'
        ? 'Connecting for live updates…'
        : 'Reconnecting… new notifications will appear once the connection is back.';
  return (
    <p className="mt-3 flex items-center gap-2 text-sm text-fg-muted" role="status">
      <WifiOff aria-hidden="true" size={16} />
      {text}
    </p>
  );
}

function DeleteAllButton({
  isDisabled,
  onConfirm,
}: {
  isDisabled: boolean;
  onConfirm: () => void;
}) {
  const [isOpen, setOpen] = useState(false);
  return (
    <DialogTrigger isOpen={isOpen} onOpenChange={setOpen}>
      <Button variant="ghost" isDisabled={isDisabled}>
        <Trash2 aria-hidden="true" size={18} />
        Delete all
      </Button>
      <ModalOverlay
        isDismissable
        className="fixed inset-0 z-50 grid place-items-center bg-black/50 p-4"
      >
        <Modal className="w-full max-w-md rounded-2xl border border-border bg-surface p-6 text-fg shadow-xl">
          <Dialog role="alertdialog" className="outline-none">
            <Heading slot="title" className="text-lg font-semibold">
              Delete all notifications?
            </Heading>
            <p className="mt-2 text-fg-muted">This removes every notification, read or not.</p>
            <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
              <Button variant="secondary" onPress={() => setOpen(false)} autoFocus>
                Cancel
              </Button>
              <Button
                variant="danger"
                onPress={() => {
                  setOpen(false);
                  onConfirm();
                }}
              >
                Delete all
              </Button>
            </div>
          </Dialog>
        </Modal>
      </ModalOverlay>
    </DialogTrigger>
  );
}
