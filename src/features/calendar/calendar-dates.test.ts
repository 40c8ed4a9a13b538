import { describe, expect, it } from 'vitest';
import {
  dayInZone,
  monthWeeks,
  stepAnchor,
  timeInZone,
  viewRange,
  weekStartOf,
  zonedInstant,
} from './calendar-dates.ts';
import { eventPlacement, shiftEvent } from './calendar-items.ts';

describe('calendar dates', () => {
  it("starts the week on the locale's first day", () => {
    expect(weekStartOf('en-US')).toBe(0);
    expect(weekStartOf('en-GB')).toBe(1);
    expect(weekStartOf('de-DE')).toBe(1);
    expect(weekStartOf('fa-IR')).toBe(6);
    expect(weekStartOf('not a locale')).toBe(1);
  });

  it('lays a month out in whole weeks from that day', () => {
    const sunday = monthWeeks('2026-03-15', 0);
    expect(sunday[0]?.[0]).toBe('2026-03-01');
    expect(sunday.at(-1)?.at(-1)).toBe('2026-04-04');
    const monday = monthWeeks('2026-03-15', 1);
    expect(monday[0]?.[0]).toBe('2026-02-23');
    expect(monday.every((week) => week.length === 7)).toBe(true);
    expect(viewRange('week', '2026-03-11', 1)).toEqual({ from: '2026-03-09', to: '2026-03-15' });
    expect(stepAnchor('month', '2026-01-31', 1)).toBe('2026-02-01');
  });

  it('reads and writes wall-clock times in a zone, across daylight saving', () => {
    expect(dayInZone('2026-03-02T20:00:00.000Z', 'Pacific/Auckland')).toBe('2026-03-03');
    expect(timeInZone('2026-03-02T20:00:00.000Z', 'Pacific/Auckland')).toBe('09:00');
    expect(zonedInstant('2026-03-05', '09:00', 'Europe/Paris')).toBe('2026-03-05T08:00:00.000Z');
    expect(zonedInstant('2026-07-05', '09:00', 'Europe/Paris')).toBe('2026-07-05T07:00:00.000Z');
    expect(zonedInstant('2026-03-05', '09:00', 'America/New_York')).toBe(
      '2026-03-05T14:00:00.000Z',
    );
    expect(zonedInstant('2026-03-05', '23:30', 'UTC')).toBe('2026-03-05T23:30:00.000Z');
    // 02:30 does not exist in Paris on 29 March 2026: it moves on to 03:30 summer time.
    expect(zonedInstant('2026-03-29', '02:30', 'Europe/Paris')).toBe('2026-03-29T01:30:00.000Z');
    // 02:30 happens twice on 25 October 2026: the second time (winter time).
    expect(zonedInstant('2026-10-25', '02:30', 'Europe/Paris')).toBe('2026-10-25T01:30:00.000Z');
  });

  it('moves an event by days, keeping its wall-clock times over a clock change', () => {
    // Paris goes to summer time on 29 March 2026: 09:00 stays 09:00.
    const moved = shiftEvent(
      { start: '2026-03-27T08:00:00.000Z', end: '2026-03-27T09:00:00.000Z' },
      3,
      'Europe/Paris',
    );
    expect(moved).toEqual({ start: '2026-03-30T07:00:00.000Z', end: '2026-03-30T08:00:00.000Z' });
    expect(shiftEvent({ start: '2026-03-05', end: '2026-03-07' }, -5, 'UTC')).toEqual({
      start: '2026-02-28',
      end: '2026-03-02',
    });
  });

  it('places an event ending at midnight on its own day only', () => {
    expect(
      eventPlacement({ start: '2026-03-05T22:00:00.000Z', end: '2026-03-06T00:00:00.000Z' }, 'UTC'),
    ).toEqual({ start: '2026-03-05', end: '2026-03-05', time: '22:00', endTime: '00:00' });
  });
});
