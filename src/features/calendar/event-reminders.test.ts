import { describe, expect, it } from 'vitest';
import {
  eventStartMs,
  markReminderShown,
  readShownReminders,
  reminderWords,
  upcomingReminders,
} from './event-reminders.ts';

const NOW = Date.parse('2026-11-25T09:00:00.000Z');
const event = (id: string, start: string, reminderMinutes: number | null) => ({
  id,
  title: `Event ${id}`,
  start,
  reminderMinutes,
});

describe('event reminders', () => {
  it('lists events with a reminder that have not started, soonest reminder first', () => {
    const due = upcomingReminders(
      [
        event('later', '2026-11-25T11:00:00.000Z', 60),
        event('soon', '2026-11-25T09:10:00.000Z', 15),
        event('none', '2026-11-25T09:30:00.000Z', null),
        event('started', '2026-11-25T08:59:00.000Z', 15),
        event('far', '2026-12-30T09:00:00.000Z', 15),
      ],
      'UTC',
      NOW,
      7 * 24 * 3_600_000,
    );
    expect(
      due.map((reminder) => [reminder.eventId, new Date(reminder.remindAt).toISOString()]),
    ).toEqual([
      // Its moment passed while the app was closed: still shown, the event has not started.
      ['soon', '2026-11-25T08:55:00.000Z'],
      ['later', '2026-11-25T10:00:00.000Z'],
    ]);
  });

  it('starts an all-day event at midnight where the workspace is', () => {
    expect(new Date(eventStartMs('2026-11-26', 'Europe/Oslo')).toISOString()).toBe(
      '2026-11-25T23:00:00.000Z',
    );
    const [reminder] = upcomingReminders(
      [event('day', '2026-11-26', 1440)],
      'Europe/Oslo',
      NOW,
      2 * 24 * 3_600_000,
    );
    expect(new Date(reminder!.remindAt).toISOString()).toBe('2026-11-24T23:00:00.000Z');
  });

  it('says when in words', () => {
    const [soon] = upcomingReminders(
      [event('a', '2026-11-25T09:15:00.000Z', 15)],
      'UTC',
      NOW,
      3_600_000,
    );
    expect(reminderWords(soon!, NOW)).toBe('“Event a” starts in 15 minutes.');
    expect(reminderWords(soon!, NOW + 14 * 60_000)).toBe('“Event a” starts in 1 minute.');
    expect(reminderWords(soon!, NOW + 15 * 60_000)).toBe('“Event a” starts now.');
    const [hour] = upcomingReminders(
      [event('b', '2026-11-25T11:00:00.000Z', 120)],
      'UTC',
      NOW,
      3_600_000,
    );
    expect(reminderWords(hour!, NOW)).toBe('“Event b” starts in 2 hours.');
  });

  it('remembers what was shown per event, start and reminder, and forgets the long past', () => {
    const store = new Map<string, string>();
    const storage = {
      getItem: (key: string) => store.get(key) ?? null,
      setItem: (key: string, value: string) => void store.set(key, value),
    };
    const [first] = upcomingReminders(
      [event('a', '2026-11-25T09:15:00.000Z', 15)],
      'UTC',
      NOW,
      3_600_000,
    );
    markReminderShown(storage, first!, NOW);
    expect(readShownReminders(storage).has(first!.key)).toBe(true);
    // Moved: a new key, so it reminds again.
    const [moved] = upcomingReminders(
      [event('a', '2026-11-25T10:15:00.000Z', 15)],
      'UTC',
      NOW,
      3 * 3_600_000,
    );
    expect(readShownReminders(storage).has(moved!.key)).toBe(false);
    // Two days and a half hour on, marking another forgets the first (started two days before).
    markReminderShown(storage, moved!, NOW + 2 * 24 * 3_600_000 + 30 * 60_000);
    expect([...readShownReminders(storage).keys()]).toEqual([moved!.key]);
    // Garbage in storage reads as nothing shown.
    store.set('satchel:reminded', 'not json');
    expect(readShownReminders(storage).size).toBe(0);
  });
});
