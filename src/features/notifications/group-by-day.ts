/** Spec (issue 5): the notifications page lists them grouped by day, newest first. */
import type { Notification } from '#contract/entities/notification.ts';

export interface DayGroup {
  /** yyyy-mm-dd in the viewer's time zone. */
  key: string;
  /** "Today", "Yesterday", or the date written out. */
  label: string;
  notifications: Notification[];
}

function dayKey(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** Keeps the given order (newest first); days follow the viewer's local calendar. */
export function groupByDay(
  notifications: readonly Notification[],
  now: Date = new Date(),
  locale?: string,
): DayGroup[] {
  const today = dayKey(now);
  const yesterday = dayKey(new Date(now.getFullYear(), now.getMonth(), now.getDate() - 1));
  const sameYear = new Intl.DateTimeFormat(locale, {
    weekday: 'long',
    month: 'long',
    day: 'numeric',
  });
  const otherYear = new Intl.DateTimeFormat(locale, { dateStyle: 'long' });
  const groups: DayGroup[] = [];
  for (const notification of notifications) {
    const created = new Date(notification.createdAt);
    const key = dayKey(created);
    let group = groups.at(-1);
    if (group?.key !== key) {
      const label =
        key === today
          ? 'Today'
          : key === yesterday
            ? 'Yesterday'
            : (created.getFullYear() === now.getFullYear() ? sameYear : otherYear).format(created);
      group = { key, label, notifications: [] };
      groups.push(group);
    }
    group.notifications.push(notification);
  }
  return groups;
}
