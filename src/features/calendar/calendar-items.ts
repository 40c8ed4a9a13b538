/**
 * What the calendar shows, made from the device's rows (src/data/calendar.ts): one item per
 * milestone due date, task due date, project start and due date, and calendar event, placed on
 * days in the workspace's time zone. Items of archived projects are left out. Sorted as a day
 * lists them: all-day things first, then timed events by their time, then by kind and title.
 */
import type { CalendarSource, DatedRef, LocalCalendarEvent } from '../../data/calendar.ts';
import {
  addDays,
  dayInZone,
  daysBetween,
  timeInZone,
  zonedInstant,
  type Day,
} from './calendar-dates.ts';

export type CalendarItemKind = 'milestone' | 'task' | 'project-start' | 'project-due' | 'event';

export interface CalendarItem {
  /** Unique on the calendar: `<kind>:<id>`. */
  key: string;
  kind: CalendarItemKind;
  id: string;
  title: string;
  projectId: string | null;
  projectName: string | null;
  clientId: string | null;
  /** First and last day it covers (the same for everything but multi-day events). */
  start: Day;
  end: Day;
  /** Wall-clock start and end (HH:mm, workspace zone) of a timed event; null all day. */
  time: string | null;
  endTime: string | null;
  /** A task in a done column, an approved milestone. */
  done: boolean;
  /** Written here and not yet confirmed by the server. */
  pending: boolean;
  event: LocalCalendarEvent | null;
}

export const kindWords: Record<CalendarItemKind, string> = {
  milestone: 'Milestone',
  task: 'Task due',
  'project-start': 'Project starts',
  'project-due': 'Project due',
  event: 'Event',
};

const KIND_ORDER: Record<CalendarItemKind, number> = {
  'project-start': 0,
  milestone: 1,
  'project-due': 2,
  task: 3,
  event: 4,
};

const byName = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });

export function compareItems(a: CalendarItem, b: CalendarItem): number {
  if (a.start !== b.start) return a.start < b.start ? -1 : 1;
  if ((a.time === null) !== (b.time === null)) return a.time === null ? -1 : 1;
  if (a.time !== null && b.time !== null && a.time !== b.time) return a.time < b.time ? -1 : 1;
  if (a.kind !== b.kind) return KIND_ORDER[a.kind] - KIND_ORDER[b.kind];
  return byName.compare(a.title, b.title) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** An event's days and times in the workspace's zone. */
export function eventPlacement(
  event: Pick<LocalCalendarEvent, 'start' | 'end'>,
  timeZone: string,
): { start: Day; end: Day; time: string | null; endTime: string | null } {
  if (event.start.length === 10) {
    return {
      start: event.start,
      end: event.end < event.start ? event.start : event.end,
      time: null,
      endTime: null,
    };
  }
  const start = dayInZone(event.start, timeZone);
  // An event ending at midnight does not spill onto the next day.
  const endInstant = Date.parse(event.end);
  const endDay = dayInZone(
    endInstant > Date.parse(event.start) ? endInstant - 1 : endInstant,
    timeZone,
  );
  return {
    start,
    end: endDay < start ? start : endDay,
    time: timeInZone(event.start, timeZone),
    endTime: timeInZone(event.end, timeZone),
  };
}

export function buildCalendarItems(source: CalendarSource, timeZone: string): CalendarItem[] {
  const projects = new Map(source.projects.map((project) => [project.id, project]));
  const items: CalendarItem[] = [];
  const common = (projectId: string | null) => {
    const project = projectId ? projects.get(projectId) : undefined;
    return {
      projectId,
      projectName: project?.name ?? null,
      clientId: project?.clientId ?? null,
      archived: project?.archived === true,
    };
  };
  const dated = (
    kind: Exclude<CalendarItemKind, 'event'>,
    row: { id: string; _pending: number },
    title: string,
    day: string,
    projectId: string,
    done: boolean,
  ) => {
    const { archived, ...rest } = common(projectId);
    if (archived) return;
    items.push({
      key: `${kind}:${row.id}`,
      kind,
      id: row.id,
      title,
      ...rest,
      start: day,
      end: day,
      time: null,
      endTime: null,
      done,
      pending: row._pending > 0,
      event: null,
    });
  };
  for (const milestone of source.milestones) {
    if (milestone.dueDate === null) continue;
    dated(
      'milestone',
      milestone,
      milestone.title,
      milestone.dueDate,
      milestone.projectId,
      milestone.status === 'approved',
    );
  }
  for (const task of source.tasks) {
    if (task.dueDate === null) continue;
    dated(
      'task',
      task,
      task.title,
      task.dueDate,
      task.projectId,
      source.doneColumnIds.has(task.columnId),
    );
  }
  for (const project of source.projects) {
    if (project.startDate !== null)
      dated('project-start', project, project.name, project.startDate, project.id, false);
    if (project.dueDate !== null)
      dated(
        'project-due',
        project,
        project.name,
        project.dueDate,
        project.id,
        project.status === 'completed',
      );
  }
  for (const event of source.events) {
    const { archived: _archived, ...rest } = common(event.projectId);
    items.push({
      key: `event:${event.id}`,
      kind: 'event',
      id: event.id,
      title: event.title,
      ...rest,
      ...eventPlacement(event, timeZone),
      done: false,
      pending: event._pending > 0,
      event,
    });
  }
  return items.sort(compareItems);
}

/** Items touching the days from `from` to `to` (inclusive). */
export function itemsBetween(items: readonly CalendarItem[], from: Day, to: Day): CalendarItem[] {
  return items.filter((item) => item.start <= to && item.end >= from);
}

/** Items by day over a range: each day lists every item that covers it. */
export function itemsByDay(
  items: readonly CalendarItem[],
  from: Day,
  to: Day,
): Map<Day, CalendarItem[]> {
  const days = new Map<Day, CalendarItem[]>();
  for (const item of itemsBetween(items, from, to)) {
    let day = item.start < from ? from : item.start;
    const last = item.end > to ? to : item.end;
    while (day <= last) {
      const list = days.get(day);
      if (list) list.push(item);
      else days.set(day, [item]);
      day = addDays(day, 1);
    }
  }
  return days;
}

/** The item's row and date field, for everything but events. */
export function datedRef(item: CalendarItem): DatedRef | null {
  if (item.kind === 'event') return null;
  return { kind: item.kind, id: item.id };
}

/**
 * An event moved by whole days: an all-day event keeps its length; a timed one keeps its
 * wall-clock times in the workspace's zone (a daylight-saving change between does not shift it).
 */
export function shiftEvent(
  event: Pick<LocalCalendarEvent, 'start' | 'end'>,
  days: number,
  timeZone: string,
): { start: string; end: string } {
  if (event.start.length === 10) {
    return { start: addDays(event.start, days), end: addDays(event.end, days) };
  }
  const move = (instant: string) =>
    zonedInstant(
      addDays(dayInZone(instant, timeZone), days),
      timeInZone(instant, timeZone),
      timeZone,
    );
  return { start: move(event.start), end: move(event.end) };
}

/** How far an item moves when the day it was grabbed on is dropped on `to`. */
export function dayShift(from: Day, to: Day): number {
  return daysBetween(from, to);
}
