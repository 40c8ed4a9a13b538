/**
 * Days and times for the calendar. A calendar day is a `YYYY-MM-DD` string (milestone and task due
 * dates, all-day events); an instant is a UTC ISO string (timed events), placed on a day and a
 * wall-clock time in the workspace's time zone. The user's locale decides the words and the
 * first day of the week. Day arithmetic uses date-fns on local dates built from the string's
 * parts, which never crosses a zone: only the string goes in and out.
 */
import {
  addDays as addDaysTo,
  addMonths,
  addWeeks,
  differenceInCalendarDays,
  eachDayOfInterval,
  endOfMonth,
  endOfWeek,
  startOfMonth,
  startOfWeek,
} from 'date-fns';

export type Day = string;
export type WeekStart = 0 | 1 | 2 | 3 | 4 | 5 | 6;

/** Regions whose week starts on Sunday (CLDR), for engines without Intl.Locale week info. */
const SUNDAY_REGIONS = new Set(
  'AG AS AU BD BR BS BT BW BZ CA CN CO DM DO ET GT GU HK HN ID IL IN JM JP KE KH KR LA MH MM MO MT MX MZ NI NP PA PE PH PK PR PT PY SA SG SV TH TT TW UM US VE VI WS YE ZA ZW'.split(
    ' ',
  ),
);
const SATURDAY_REGIONS = new Set('AE AF BH DJ DZ EG IQ IR JO KW LY OM QA SD SY'.split(' '));

type WeekInfo = { firstDay?: number };
type LocaleWithWeek = Intl.Locale & { getWeekInfo?: () => WeekInfo; weekInfo?: WeekInfo };

/** The locale's first day of the week, as date-fns counts (0 Sunday … 6 Saturday). */
export function weekStartOf(locale: string): WeekStart {
  try {
    const intl = new Intl.Locale(locale) as LocaleWithWeek;
    const info = intl.getWeekInfo?.() ?? intl.weekInfo;
    if (info?.firstDay !== undefined) return (info.firstDay % 7) as WeekStart;
    const region = intl.maximize().region ?? '';
    if (SUNDAY_REGIONS.has(region)) return 0;
    if (SATURDAY_REGIONS.has(region)) return 6;
  } catch {
    // Not a locale Intl knows: Monday, the ISO week.
  }
  return 1;
}

/** A day string as a local Date at midnight (for date-fns), and back. */
export function toDate(day: Day): Date {
  const [year, month, date] = day.split('-').map(Number);
  return new Date(year ?? 1970, (month ?? 1) - 1, date ?? 1);
}
export function toDay(date: Date): Day {
  // By hand rather than date-fns' format, which would bring its whole formatter (~15 KB).
  const pad = (value: number, width = 2) => String(value).padStart(width, '0');
  return `${pad(date.getFullYear(), 4)}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

export function addDays(day: Day, days: number): Day {
  return toDay(addDaysTo(toDate(day), days));
}
export function daysBetween(from: Day, to: Day): number {
  return differenceInCalendarDays(toDate(to), toDate(from));
}

const partsFormats = new Map<string, Intl.DateTimeFormat>();
function partsFormat(timeZone: string): Intl.DateTimeFormat {
  let found = partsFormats.get(timeZone);
  if (!found) {
    found = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    partsFormats.set(timeZone, found);
  }
  return found;
}

function wallClock(instant: number, timeZone: string) {
  const parts = Object.fromEntries(
    partsFormat(timeZone)
      .formatToParts(new Date(instant))
      .map((part) => [part.type, part.value]),
  );
  return {
    day: `${parts.year}-${parts.month}-${parts.day}`,
    time: `${parts.hour}:${parts.minute}`,
    asUtc: Date.UTC(
      Number(parts.year),
      Number(parts.month) - 1,
      Number(parts.day),
      Number(parts.hour),
      Number(parts.minute),
      Number(parts.second),
    ),
  };
}

/** The day an instant falls on in a time zone. */
export function dayInZone(instant: string | number, timeZone: string): Day {
  return wallClock(typeof instant === 'number' ? instant : Date.parse(instant), timeZone).day;
}

/** The wall-clock time (HH:mm, 24 h) of an instant in a time zone. */
export function timeInZone(instant: string, timeZone: string): string {
  return wallClock(Date.parse(instant), timeZone).time;
}

/**
 * The instant a wall-clock day and time name in a time zone (UTC ISO). A time skipped by a
 * daylight-saving jump moves forward with it (02:30 becomes 03:30); a time the clock passes twice
 * takes its second occurrence.
 */
export function zonedInstant(day: Day, time: string, timeZone: string): string {
  const [year, month, date] = day.split('-').map(Number);
  const [hour, minute] = time.split(':').map(Number);
  const wanted = Date.UTC(year ?? 1970, (month ?? 1) - 1, date ?? 1, hour ?? 0, minute ?? 0);
  // Guess with the offset at the wanted wall time, then correct once with the offset there.
  const offsetAt = (instant: number) =>
    wallClock(instant, timeZone).asUtc - Math.floor(instant / 1000) * 1000;
  let instant = wanted - offsetAt(wanted);
  const second = wanted - offsetAt(instant);
  if (second !== instant) instant = Math.max(instant, second);
  return new Date(instant).toISOString();
}

/** Today in the workspace's time zone. */
export function todayIn(timeZone: string, now: number = Date.now()): Day {
  return dayInZone(now, timeZone);
}

/** The weeks (7 days each) that show a month, from the week holding its first day. */
export function monthWeeks(anchor: Day, weekStartsOn: WeekStart): Day[][] {
  const first = startOfWeek(startOfMonth(toDate(anchor)), { weekStartsOn });
  const last = endOfWeek(endOfMonth(toDate(anchor)), { weekStartsOn });
  const days = eachDayOfInterval({ start: first, end: last }).map(toDay);
  const weeks: Day[][] = [];
  for (let index = 0; index < days.length; index += 7) weeks.push(days.slice(index, index + 7));
  return weeks;
}

export function weekDays(anchor: Day, weekStartsOn: WeekStart): Day[] {
  const first = startOfWeek(toDate(anchor), { weekStartsOn });
  return Array.from({ length: 7 }, (_, index) => toDay(addDaysTo(first, index)));
}

export type CalendarViewKind = 'month' | 'week' | 'agenda';

/** Agenda: this many days from the anchor. */
export const AGENDA_DAYS = 42;

/** The first and last day a view shows around its anchor. */
export function viewRange(
  view: CalendarViewKind,
  anchor: Day,
  weekStartsOn: WeekStart,
): { from: Day; to: Day } {
  if (view === 'month') {
    const weeks = monthWeeks(anchor, weekStartsOn);
    return { from: weeks[0]?.[0] ?? anchor, to: weeks.at(-1)?.at(-1) ?? anchor };
  }
  if (view === 'week') {
    const days = weekDays(anchor, weekStartsOn);
    return { from: days[0] ?? anchor, to: days[6] ?? anchor };
  }
  return { from: anchor, to: addDays(anchor, AGENDA_DAYS - 1) };
}

/** The anchor one step back or on (a month, a week, or the agenda's span). */
export function stepAnchor(view: CalendarViewKind, anchor: Day, step: -1 | 1): Day {
  if (view === 'month') return toDay(addMonths(startOfMonth(toDate(anchor)), step));
  if (view === 'week') return toDay(addWeeks(toDate(anchor), step));
  return addDays(anchor, step * AGENDA_DAYS);
}

/** Words for a day in the user's locale (the day string read as a plain date, no zone). */
export function formatDay(day: Day, locale: string, options: Intl.DateTimeFormatOptions): string {
  const [year, month, date] = day.split('-').map(Number);
  return new Intl.DateTimeFormat(locale, { ...options, timeZone: 'UTC' }).format(
    new Date(Date.UTC(year ?? 1970, (month ?? 1) - 1, date ?? 1)),
  );
}

/** "14:30" in the user's locale ("2:30 PM"). */
export function formatTime(time: string, locale: string): string {
  const [hour, minute] = time.split(':').map(Number);
  return new Intl.DateTimeFormat(locale, {
    hour: 'numeric',
    minute: '2-digit',
    timeZone: 'UTC',
  }).format(new Date(Date.UTC(2000, 0, 1, hour ?? 0, minute ?? 0)));
}

/** The view's title: "March 2026", "2 – 8 March 2026", "2 March – 12 April 2026". */
export function viewTitle(
  view: CalendarViewKind,
  anchor: Day,
  weekStartsOn: WeekStart,
  locale: string,
): string {
  if (view === 'month') return formatDay(anchor, locale, { month: 'long', year: 'numeric' });
  const { from, to } = viewRange(view, anchor, weekStartsOn);
  const [fy, fm, fd] = from.split('-').map(Number);
  const [ty, tm, td] = to.split('-').map(Number);
  return new Intl.DateTimeFormat(locale, {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).formatRange(
    new Date(Date.UTC(fy ?? 1970, (fm ?? 1) - 1, fd ?? 1)),
    new Date(Date.UTC(ty ?? 1970, (tm ?? 1) - 1, td ?? 1)),
  );
}

/** The user's locale: the browser's first language. */
export function userLocale(): string {
  return typeof navigator !== 'undefined' && navigator.language ? navigator.language : 'en-US';
}

export const isDay = (value: unknown): value is Day =>
  typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value);
