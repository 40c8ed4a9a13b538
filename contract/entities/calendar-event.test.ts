import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import {
  calendarEventEntity,
  endNotBeforeStart,
  eventTimeSchema,
  isEventDate,
  sameKindOfTime,
} from './calendar-event.ts';

const base = {
  id: '0192f3a0-0000-7000-8000-000000000001',
  workspaceId: '0192f3a0-0000-7000-8000-000000000002',
  title: 'Call',
};

const issuesOf = (input: unknown) => {
  const result = v.safeParse(calendarEventEntity.createSchema, input);
  return result.success ? [] : result.issues.map((issue) => [v.getDotPath(issue), issue.message]);
};

describe('calendar event declaration', () => {
  it('is the calendar resource with {events} as its list', () => {
    expect(calendarEventEntity.resource).toBe('calendar');
    expect(calendarEventEntity.endpoints.list.operation).toBe('get-calendar-events');
    expect(calendarEventEntity.endpoints.create.operation).toBe('create-calendar-event');
    expect(calendarEventEntity.manyKey).toBe('events');
    expect(calendarEventEntity.table).toBe('calendarEvents');
  });

  it('reads dates and zoned date-times, storing instants in UTC', () => {
    expect(v.parse(eventTimeSchema, '2026-03-02')).toBe('2026-03-02');
    expect(v.parse(eventTimeSchema, ' 2026-03-02T10:00+01:00 ')).toBe('2026-03-02T09:00:00.000Z');
    expect(v.parse(eventTimeSchema, '2026-03-02T10:00:00.5Z')).toBe('2026-03-02T10:00:00.500Z');
    for (const bad of ['2026-02-30', '2026-3-2', '2026-03-02T10:00', 'tomorrow', '']) {
      expect(v.safeParse(eventTimeSchema, bad).success, bad).toBe(false);
    }
    expect(isEventDate('2024-02-29')).toBe(true);
    expect(isEventDate('2025-02-29')).toBe(false);
  });

  it('refuses an end before the start and a mix of dates and times, on the end', () => {
    expect(issuesOf({ ...base, start: '2026-03-02', end: '2026-03-02' })).toEqual([]);
    expect(issuesOf({ ...base, start: '2026-03-03', end: '2026-03-02' })).toEqual([
      ['end', 'The event must not end before it starts'],
    ]);
    // 10:00 in Paris is 09:00 UTC: an end at 09:30Z is after it.
    expect(
      issuesOf({ ...base, start: '2026-03-02T10:00+01:00', end: '2026-03-02T09:30:00Z' }),
    ).toEqual([]);
    expect(
      issuesOf({ ...base, start: '2026-03-02T10:00:00Z', end: '2026-03-02T09:59:59Z' }),
    ).toEqual([['end', 'The event must not end before it starts']]);
    expect(issuesOf({ ...base, start: '2026-03-02', end: '2026-03-02T10:00:00Z' })).toEqual([
      ['end', 'Start and end must both be dates (all day) or both dates with times'],
    ]);
  });

  it('checks a patch alone only with what it holds (the row check does the rest)', () => {
    expect(v.safeParse(calendarEventEntity.updateSchema, { end: '2026-01-01' }).success).toBe(true);
    expect(endNotBeforeStart.test({ start: '2026-03-02', end: '2026-01-01' })).toBe(false);
    expect(sameKindOfTime.test({ start: '2026-03-02T10:00:00.000Z', end: '2026-03-02' })).toBe(
      false,
    );
  });

  it('keeps reminders to whole minutes within four weeks', () => {
    const at = { ...base, start: '2026-03-02', end: '2026-03-02' };
    expect(issuesOf({ ...at, reminderMinutes: 30 })).toEqual([]);
    expect(issuesOf({ ...at, reminderMinutes: -5 })).toHaveLength(1);
    expect(issuesOf({ ...at, reminderMinutes: 1.5 })).toHaveLength(1);
    expect(issuesOf({ ...at, reminderMinutes: 40_321 })).toHaveLength(1);
  });
});
