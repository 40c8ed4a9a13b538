/**
 * /calendar's URL state: `view` (month, the default, week or agenda) and `date` (the day shown,
 * YYYY-MM-DD; absent: today). A malformed value falls back instead of failing the page.
 */
import * as v from 'valibot';
// Types only: the route's search schema is in the app's first chunk, the calendar is not.
import type { CalendarViewKind, Day } from './calendar-dates.ts';

const isDay = (value: string) => /^\d{4}-\d{2}-\d{2}$/.test(value);

export interface CalendarSearch {
  view?: Exclude<CalendarViewKind, 'month'> | undefined;
  date?: Day | undefined;
}

export const calendarSearchSchema = v.object({
  view: v.fallback(v.optional(v.picklist(['week', 'agenda'])), undefined),
  date: v.fallback(
    v.optional(
      v.pipe(
        v.string(),
        v.check((value) => isDay(value) && !Number.isNaN(Date.parse(value))),
      ),
    ),
    undefined,
  ),
});
