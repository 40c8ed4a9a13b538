/**
 * The calendar's data on this device: every dated thing of a workspace (milestone and task due
 * dates, project start and due dates, calendar events), read live from the local database, so
 * the calendar opens and changes offline like every screen. Rows hidden by a pending delete
 * (their own or a cascade's) are left out. Writes go through the entity writes, so a date moved on
 * the calendar is the same patch (and the same outbox entry) as one edited in its own dialog.
 */
import { calendarEventEntity } from '#contract/entities/calendar-event.ts';
import type { AppDatabase, LocalProject, LocalRow } from '../db/app-database.ts';
import { useLiveQuery } from '../db/live-query.ts';
import type { LocalWriteContext } from '../db/local-write.ts';
import { entityWrites, type NewRowInput, type RowPatch } from './entity-writes.ts';
import { updateProject } from './project-mutations.ts';
import {
  milestoneWrites,
  taskWrites,
  type LocalMilestone,
  type LocalTask,
} from './project-work.ts';

export type LocalCalendarEvent = LocalRow<'calendar-event'>;
export type NewCalendarEventInput = NewRowInput<typeof calendarEventEntity>;
export type CalendarEventPatch = RowPatch<typeof calendarEventEntity>;

export const calendarEventWrites = entityWrites(calendarEventEntity);

/** Everything the calendar shows, as stored here. */
export interface CalendarSource {
  milestones: LocalMilestone[];
  /** Tasks with a due date. */
  tasks: LocalTask[];
  projects: LocalProject[];
  events: LocalCalendarEvent[];
  /** Board columns that mean "done" (their tasks show as done). */
  doneColumnIds: ReadonlySet<string>;
}

const live = <T extends { _deleted: boolean }>(rows: T[]) => rows.filter((row) => !row._deleted);

/** Bounds of a `[workspaceId+<string field>]` index that skip rows without the field. */
const anyString = (workspaceId: string): [[string, string], [string, string]] => [
  [workspaceId, ''],
  [workspaceId, '\uffff'],
];

/**
 * The workspace's dated rows (or one project's). Rows without a due date never leave the index
 * (IndexedDB skips null keys), so a board of 10,000 undated tasks costs nothing here.
 */
export async function listCalendarSource(
  db: AppDatabase,
  workspaceId: string,
  projectId?: string,
): Promise<CalendarSource> {
  const [lower, upper] = anyString(workspaceId);
  const inProject = <T extends { projectId: string | null }>(rows: T[]) =>
    projectId === undefined ? rows : rows.filter((row) => row.projectId === projectId);
  const [milestones, tasks, projects, events, columns] = await Promise.all([
    db.milestones.where('[workspaceId+dueDate]').between(lower, upper, true, true).toArray(),
    db.tasks.where('[workspaceId+dueDate]').between(lower, upper, true, true).toArray(),
    projectId === undefined
      ? db.projects.where('workspaceId').equals(workspaceId).toArray()
      : db.projects.where('id').equals(projectId).toArray(),
    projectId === undefined
      ? db.calendarEvents.where('workspaceId').equals(workspaceId).toArray()
      : db.calendarEvents
          .where('[workspaceId+projectId]')
          .equals([workspaceId, projectId])
          .toArray(),
    db.kanbanColumns.where('workspaceId').equals(workspaceId).toArray(),
  ]);
  return {
    milestones: inProject(live(milestones)),
    tasks: inProject(live(tasks)),
    projects: live(projects),
    events: live(events),
    doneColumnIds: new Set(
      live(columns)
        .filter((c) => c.isDone)
        .map((c) => c.id),
    ),
  };
}

export function useCalendarSource(
  db: AppDatabase,
  workspaceId: string,
  projectId?: string,
): CalendarSource | undefined {
  return useLiveQuery(
    () => listCalendarSource(db, workspaceId, projectId),
    [db, workspaceId, projectId],
  );
}

/** What a calendar item is, to move it: the row's entity and the date field it holds. */
export type DatedRef =
  | { kind: 'milestone'; id: string }
  | { kind: 'task'; id: string }
  | { kind: 'project-start'; id: string }
  | { kind: 'project-due'; id: string };

/**
 * Moves a milestone's or task's due date, or a project's start or due date: exactly the patch
 * its own edit dialog writes. Resolves false when the date was already that.
 */
export function moveDatedItem(
  ctx: LocalWriteContext,
  ref: DatedRef,
  date: string,
): Promise<boolean> {
  switch (ref.kind) {
    case 'milestone':
      return milestoneWrites.update(ctx, ref.id, { dueDate: date });
    case 'task':
      return taskWrites.update(ctx, ref.id, { dueDate: date });
    case 'project-start':
      return updateProject(ctx, ref.id, { startDate: date });
    case 'project-due':
      return updateProject(ctx, ref.id, { dueDate: date });
  }
}

export function createCalendarEvent(
  ctx: LocalWriteContext,
  input: NewCalendarEventInput,
): Promise<LocalCalendarEvent> {
  return calendarEventWrites.create(ctx, input);
}

export function updateCalendarEvent(
  ctx: LocalWriteContext,
  id: string,
  patch: CalendarEventPatch,
): Promise<boolean> {
  return calendarEventWrites.update(ctx, id, patch);
}

/** Deletes an event; with `undoWindowMs` the delete waits that long, so Undo can cancel it. */
export function deleteCalendarEvent(
  ctx: LocalWriteContext,
  id: string,
  options: { undoWindowMs?: number } = {},
): Promise<string> {
  return calendarEventWrites.delete(ctx, id, options);
}
