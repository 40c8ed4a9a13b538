/**
 * Calendar events (issue 15, resource `calendar`): a meeting, a call, a day off, written on the
 * calendar beside the dates the workspace already has (milestones, task and project dates).
 *
 * `start` and `end` are either both dates (`YYYY-MM-DD`, an all-day event; `end` is the last day
 * it covers, so a one-day event has start = end) or both instants (an ISO date-time with `Z` or an
 * offset, stored as UTC `…Z`, shown in the workspace's time zone). An event never ends before it
 * starts: the rules below refuse it on the device, in the contract's body check (400) and on the
 * row a patch would make (the server's locked update, 400).
 *
 * `projectId` is an optional link to a project of the same workspace (the server's hook checks it,
 * a 422 naming the field); it is not a parent: an event outlives its project, unlinked.
 */
import * as v from 'valibot';
import { text } from '../text.ts';
import { defineSyncedEntity, field, type RowRule } from '../synced-entity.ts';
import { longTextSchema, titleSchema } from './fields.ts';
import { idSchema } from './ids.ts';

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
/** A date and time with seconds optional, fractions optional, and a zone (Z or ±hh:mm) required. */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/** A real calendar day written YYYY-MM-DD (not 2026-02-30). */
export function isEventDate(value: string): boolean {
  const match = DATE.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return (
    year >= 1 &&
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day
  );
}

export function isEventDateTime(value: string): boolean {
  return (
    DATE_TIME.test(value) && isEventDate(value.slice(0, 10)) && !Number.isNaN(Date.parse(value))
  );
}

/** An all-day value (a date) rather than an instant. */
export function isAllDayValue(value: string): boolean {
  return DATE.test(value);
}

/** Dates stay as written; instants become UTC ISO strings, so two writers store the same text. */
function normalizeEventTime(value: string): string {
  return isAllDayValue(value) ? value : new Date(value).toISOString();
}

export const EVENT_TIME_MESSAGE =
  'Use a date like 2026-03-31 or a date and time like 2026-03-31T09:30:00Z';

export const eventTimeSchema = v.pipe(
  text(EVENT_TIME_MESSAGE),
  v.trim(),
  v.check((value) => isEventDate(value) || isEventDateTime(value), EVENT_TIME_MESSAGE),
  v.transform(normalizeEventTime),
);

export const MAX_REMINDER_MINUTES = 40_320; // four weeks

export const reminderSchema = v.nullable(
  v.pipe(
    v.number('Enter the reminder in minutes before the start'),
    v.integer('A reminder is a whole number of minutes'),
    v.minValue(0, 'A reminder cannot be after the start'),
    v.maxValue(MAX_REMINDER_MINUTES, 'A reminder is at most four weeks before'),
  ),
);

/** Start and end are both dates (all day) or both date-times. */
export const sameKindOfTime: RowRule = {
  path: 'end',
  message: 'Start and end must both be dates (all day) or both dates with times',
  test: (row) =>
    typeof row.start !== 'string' ||
    typeof row.end !== 'string' ||
    isAllDayValue(row.start) === isAllDayValue(row.end),
};

/** An event ends at or after its start. */
export const endNotBeforeStart: RowRule = {
  path: 'end',
  message: 'The event must not end before it starts',
  test: (row) => {
    if (typeof row.start !== 'string' || typeof row.end !== 'string') return true;
    if (isAllDayValue(row.start) !== isAllDayValue(row.end)) return true;
    if (isAllDayValue(row.start)) return row.start <= row.end;
    const start = Date.parse(row.start);
    const end = Date.parse(row.end);
    return Number.isNaN(start) || Number.isNaN(end) || start <= end;
  },
};

export const calendarEventEntity = defineSyncedEntity({
  name: 'calendar-event',
  plural: 'calendar-events',
  resource: 'calendar',
  listKey: 'events',
  sqlTable: 'calendar_event',
  label: 'title',
  // An event linked to a project is in that project's activity; one without a project is in none.
  activityProject: 'projectId',
  fields: {
    title: field(titleSchema),
    start: field(eventTimeSchema, { column: 'starts_at' }),
    end: field(eventTimeSchema, { column: 'ends_at' }),
    projectId: field(v.nullable(idSchema), { default: null, word: 'project' }),
    location: field(
      v.nullable(
        v.pipe(text(), v.trim(), v.maxLength(500, 'Location must be at most 500 characters')),
      ),
      { default: null },
    ),
    notes: field(longTextSchema('Notes', 10_000), { default: null }),
    reminderMinutes: field(reminderSchema, { default: null, word: 'reminder' }),
  },
  rules: [sameKindOfTime, endNotBeforeStart],
  indexes: ['[workspaceId+projectId]', '[workspaceId+start]'],
  list: { scope: 'workspace', filters: ['projectId'], orderBy: 'starts_at, id' },
  summaries: {
    create: 'Create a calendar event (all day with dates, or timed with ISO date-times).',
    list: "The workspace's calendar events, by start.",
  },
});

export type CalendarEvent = v.InferOutput<typeof calendarEventEntity.rowSchema>;
