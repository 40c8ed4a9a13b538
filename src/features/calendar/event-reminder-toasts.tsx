/**
 * Calendar event reminders while the app is open, as a toast with "Open calendar" (the rules are
 * in event-reminders.ts). It reads the device's events starting in the next four weeks (the
 * longest reminder) in every workspace on the device, so it needs no network, and sleeps until
 * the next reminder's moment (at most an hour, so a sleeping laptop catches up when it wakes).
 */
import { useEffect, useState } from 'react';
import { MAX_REMINDER_MINUTES } from '#contract/entities/calendar-event.ts';
import type { AppDatabase } from '../../db/app-database.ts';
import { useLiveQuery } from '../../db/live-query.ts';
import { useToast } from '../../ui/use-toast.ts';
import { useOptionalSync } from '../workspace/sync-context.tsx';
import { dayInZone, toDay } from './calendar-dates.ts';
import {
  markReminderShown,
  readShownReminders,
  reminderWords,
  upcomingReminders,
  type DueReminder,
} from './event-reminders.ts';

const DAY_MS = 24 * 3_600_000;
const HORIZON_MS = MAX_REMINDER_MINUTES * 60_000 + DAY_MS;
const MAX_SLEEP_MS = 3_600_000;

const storage = (): Storage | undefined => {
  try {
    return globalThis.localStorage;
  } catch {
    return undefined;
  }
};

export interface EventReminderToastsProps {
  /** "Open calendar": shows the calendar at the event's day (YYYY-MM-DD). */
  openDay: (day: string) => void;
}

export function EventReminderToasts({ openDay }: EventReminderToastsProps) {
  const sync = useOptionalSync();
  return sync ? <Reminders db={sync.handle.db} openDay={openDay} /> : null;
}

/** Upcoming reminders of every workspace on the device, with the day of each event's start. */
async function readReminders(db: AppDatabase, now: number) {
  const workspaces = await db.workspaces.toArray();
  const from = toDay(new Date(now - DAY_MS));
  const to = `${toDay(new Date(now + HORIZON_MS))}\uffff`;
  const found: (DueReminder & { day: string })[] = [];
  for (const workspace of workspaces) {
    const events = (
      await db.calendarEvents
        .where('[workspaceId+start]')
        .between([workspace.id, from], [workspace.id, to], true, true)
        .toArray()
    ).filter((event) => !event._deleted);
    for (const reminder of upcomingReminders(events, workspace.timeZone, now, HORIZON_MS)) {
      found.push({ ...reminder, day: dayInZone(reminder.startsAt, workspace.timeZone) });
    }
  }
  return found.sort((a, b) => a.remindAt - b.remindAt);
}

function Reminders({ db, openDay }: { db: AppDatabase } & EventReminderToastsProps) {
  const toaster = useToast();
  // Bumped by the timer: a new read at the next reminder's moment.
  const [tick, setTick] = useState(0);
  const reminders = useLiveQuery(() => readReminders(db, Date.now()), [db, tick]);

  useEffect(() => {
    if (!reminders) return;
    const now = Date.now();
    const shown = readShownReminders(storage());
    const due = reminders.filter((r) => r.remindAt <= now && !shown.has(r.key));
    const first = due[0];
    if (first) {
      for (const reminder of due) markReminderShown(storage(), reminder, now);
      const more = due.length - 1;
      toaster.show({
        message:
          reminderWords(first, now) +
          (more > 0 ? ` ${more} more event${more === 1 ? '' : 's'} coming up.` : ''),
        action: {
          label: 'Open calendar',
          onAction: () => openDay(first.day),
        },
      });
    }
    const next = reminders.find((r) => r.remindAt > now);
    const sleep = Math.min(next ? next.remindAt - now : MAX_SLEEP_MS, MAX_SLEEP_MS);
    const timer = setTimeout(() => setTick((value) => value + 1), Math.max(sleep, 1_000));
    return () => clearTimeout(timer);
  }, [reminders, toaster, openDay]);

  return null;
}
