/**
 * /calendar's URL state: `view` (month, the default, week or agenda) and `date` (the day shown,
 * YYYY-MM-DD; absent: today). A malformed value falls back instead of failing the page.
 */
import * as v from 'valibot';
import type { CalendarViewKind, Day } from './calendar-dates.ts';
import { isDay } from './calendar-dates.ts';

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
