/**
 * In-app reminders of calendar events (issue 15): an event with a reminder ("15 minutes before")
 * tells the open app when that moment comes, from the device's own data, so it works offline too.
 * Subscribed calendars (the ICS feed) carry the same reminder as an alarm.
 *
 * Invariant: each reminder is shown once per device, keyed by the event, its start and its
 * reminder (moving an event or changing its reminder reminds again); a reminder whose moment
 * passed while the app was closed is still shown until the event starts, never after.
 */
import type { CalendarEvent } from '#contract/entities/calendar-event.ts';
import { zonedInstant } from './calendar-dates.ts';

export interface DueReminder {
  /** Once-per-device key: event, start and reminder. */
  key: string;
  eventId: string;
  title: string;
  /** When to remind (ms since the epoch). */
  remindAt: number;
  /** When the event starts (ms); an all-day event at midnight in the workspace's time zone. */
  startsAt: number;
}

type ReminderEvent = Pick<CalendarEvent, 'id' | 'title' | 'start' | 'reminderMinutes'>;

/** When an event starts: its instant, or midnight of its day where the workspace is. */
export function eventStartMs(start: string, timeZone: string): number {
  return Date.parse(
    /^\d{4}-\d{2}-\d{2}$/.test(start) ? zonedInstant(start, '00:00', timeZone) : start,
  );
}

/**
 * The reminders to show now or later, soonest first: events with a reminder that have not started
 * and whose moment is before `now + horizonMs`.
 */
export function upcomingReminders(
  events: readonly ReminderEvent[],
  timeZone: string,
  now: number,
  horizonMs: number,
): DueReminder[] {
  const due: DueReminder[] = [];
  for (const event of events) {
    if (event.reminderMinutes === null) continue;
    const startsAt = eventStartMs(event.start, timeZone);
    if (Number.isNaN(startsAt) || startsAt <= now) continue;
    const remindAt = startsAt - event.reminderMinutes * 60_000;
    if (remindAt > now + horizonMs) continue;
    due.push({
      key: `${event.id}@${event.start}-${event.reminderMinutes}`,
      eventId: event.id,
      title: event.title,
      remindAt,
      startsAt,
    });
  }
  return due.sort((a, b) => a.remindAt - b.remindAt);
}

/** "“Kick-off” starts in 15 minutes." */
export function reminderWords(reminder: DueReminder, now: number): string {
  const minutes = Math.max(0, Math.round((reminder.startsAt - now) / 60_000));
  const when =
    minutes === 0
      ? 'now'
      : minutes < 60
        ? `in ${minutes} minute${minutes === 1 ? '' : 's'}`
        : minutes < 48 * 60 && minutes % 60 === 0
          ? `in ${minutes / 60} hour${minutes === 60 ? '' : 's'}`
          : `at ${new Date(reminder.startsAt).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })}`;
  return `“${reminder.title}” starts ${when}.`;
}

const STORAGE_KEY = 'satchel:reminded';
/** Keys are kept this long after their event started, then forgotten. */
const KEEP_MS = 2 * 24 * 3_600_000;

/** The reminders this device has shown: key to the event's start (for pruning). */
export function readShownReminders(
  storage: Pick<Storage, 'getItem'> | undefined,
): Map<string, number> {
  try {
    const raw = storage?.getItem(STORAGE_KEY);
    const parsed: unknown = raw ? JSON.parse(raw) : {};
    if (parsed === null || typeof parsed !== 'object') return new Map();
    return new Map(
      Object.entries(parsed).filter(
        (entry): entry is [string, number] => typeof entry[1] === 'number',
      ),
    );
  } catch {
    return new Map();
  }
}

/** Records a reminder as shown, and forgets the ones long past. */
export function markReminderShown(
  storage: Pick<Storage, 'getItem' | 'setItem'> | undefined,
  reminder: DueReminder,
  now: number,
): void {
  const shown = readShownReminders(storage);
  shown.set(reminder.key, reminder.startsAt);
  for (const [key, startsAt] of shown) if (startsAt < now - KEEP_MS) shown.delete(key);
  try {
    storage?.setItem(STORAGE_KEY, JSON.stringify(Object.fromEntries(shown)));
  } catch {
    // Storage refused: the reminder may show again after a reload, which is the lesser harm.
  }
}
