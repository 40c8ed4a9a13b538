/**
 * The Tasks tab's filters (kept in the tab's state, not the URL): by assignee, by label and by
 * due date. Dates are calendar days (YYYY-MM-DD) compared as strings; "this week" runs from today
 * to the coming Sunday, "overdue" is a due day before today on a task not in a done column.
 */
import type { LocalColumn, LocalTask } from '../../data/project-work.ts';

export const ANY = 'any';
export const UNASSIGNED = 'unassigned';

export type DueFilter = 'any' | 'overdue' | 'week' | 'none';

export interface TaskFilters {
  /** 'any', 'unassigned' or a member id. */
  assignee: string;
  /** 'any' or a label. */
  label: string;
  due: DueFilter;
}

export const noFilters: TaskFilters = { assignee: ANY, label: ANY, due: ANY };

export const dueFilterWords: Record<DueFilter, string> = {
  any: 'Any due date',
  overdue: 'Overdue',
  week: 'Due this week',
  none: 'No due date',
};

export function isFiltering(filters: TaskFilters): boolean {
  return filters.assignee !== ANY || filters.label !== ANY || filters.due !== ANY;
}

/** The last day (Sunday) of the week `today` is in. */
export function endOfWeek(today: string): string {
  const date = new Date(`${today}T00:00:00Z`);
  const day = date.getUTCDay(); // 0 Sunday … 6 Saturday
  date.setUTCDate(date.getUTCDate() + ((7 - day) % 7));
  return date.toISOString().slice(0, 10);
}

export function isTaskOverdue(
  task: Pick<LocalTask, 'dueDate' | 'columnId'>,
  today: string,
  doneColumns: ReadonlySet<string>,
): boolean {
  return task.dueDate !== null && task.dueDate < today && !doneColumns.has(task.columnId);
}

export function matchesFilters(
  task: LocalTask,
  filters: TaskFilters,
  today: string,
  doneColumns: ReadonlySet<string>,
): boolean {
  if (filters.assignee === UNASSIGNED && task.assigneeId !== null) return false;
  if (filters.assignee !== ANY && filters.assignee !== UNASSIGNED) {
    if (task.assigneeId !== filters.assignee) return false;
  }
  if (filters.label !== ANY && !task.labels.includes(filters.label)) return false;
  switch (filters.due) {
    case 'overdue':
      return isTaskOverdue(task, today, doneColumns);
    case 'week':
      return task.dueDate !== null && task.dueDate >= today && task.dueDate <= endOfWeek(today);
    case 'none':
      return task.dueDate === null;
    default:
      return true;
  }
}

/** Every label used on the project's tasks, sorted, for the label filter. */
export function allLabels(tasks: readonly LocalTask[]): string[] {
  return [...new Set(tasks.flatMap((task) => task.labels))].sort((a, b) => a.localeCompare(b));
}

export function doneColumnIds(columns: readonly LocalColumn[]): Set<string> {
  return new Set(columns.filter((column) => column.isDone).map((column) => column.id));
}

/**
 * The neighbours' order keys for a task placed at `index` among `others` (its column's tasks
 * without it): what moveTask takes.
 */
export function neighboursAt(
  others: readonly Pick<LocalTask, 'position'>[],
  index: number,
): { before: string | null; after: string | null } {
  return {
    before: others[index - 1]?.position ?? null,
    after: others[index]?.position ?? null,
  };
}
