/**
 * Project work on this device: milestones, board columns, tasks and notes, read live from the
 * local database and written through the generic entity writes (entity-writes.ts), so everything
 * here works offline and syncs like clients and projects. Rows hidden by a pending delete (their
 * own or a cascade's) are never returned. Ordered rows sort by (position, id) with plain string
 * comparison (contract/entities/order-key.ts), the order the server uses.
 */
import { DEFAULT_BOARD_COLUMNS, kanbanColumnEntity } from '#contract/entities/kanban-column.ts';
import { milestoneEntity } from '#contract/entities/milestone.ts';
import { clientNoteEntity, noteEntity } from '#contract/entities/note.ts';
import { byOrderKey, orderKeyBetween } from '#contract/entities/order-key.ts';
import { taskEntity } from '#contract/entities/task.ts';
import { generateNKeysBetween } from 'jittered-fractional-indexing';
import { prefixKeyRange, type AppDatabase, type LocalRow } from '../db/app-database.ts';
import { useLiveQuery } from '../db/live-query.ts';
import type { LocalWriteContext } from '../db/local-write.ts';
import { entityWrites, type NewRowInput } from './entity-writes.ts';

export type LocalMilestone = LocalRow<'milestone'>;
export type LocalColumn = LocalRow<'kanban-column'>;
export type LocalTask = LocalRow<'task'>;
export type LocalNote = LocalRow<'note'>;
export type LocalClientNote = LocalRow<'client-note'>;

export const milestoneWrites = entityWrites(milestoneEntity);
export const columnWrites = entityWrites(kanbanColumnEntity);
export const taskWrites = entityWrites(taskEntity);
export const noteWrites = entityWrites(noteEntity);
export const clientNoteWrites = entityWrites(clientNoteEntity);

const live = <T extends { _deleted: boolean }>(rows: T[]) => rows.filter((row) => !row._deleted);

// ---------------------------------------------------------------- reads

export async function listColumns(
  db: AppDatabase,
  workspaceId: string,
  projectId: string,
): Promise<LocalColumn[]> {
  const rows = await db.kanbanColumns
    .where('[workspaceId+projectId]')
    .equals([workspaceId, projectId])
    .toArray();
  return live(rows).sort(byOrderKey);
}

export async function listTasks(
  db: AppDatabase,
  workspaceId: string,
  projectId: string,
): Promise<LocalTask[]> {
  const rows = await db.tasks
    .where('[workspaceId+projectId]')
    .equals([workspaceId, projectId])
    .toArray();
  return live(rows).sort(byOrderKey);
}

export async function listMilestones(
  db: AppDatabase,
  workspaceId: string,
  projectId: string,
): Promise<LocalMilestone[]> {
  const rows = await db.milestones
    .where('[workspaceId+projectId]')
    .equals([workspaceId, projectId])
    .toArray();
  return live(rows).sort(byOrderKey);
}

/** Pinned first, then the most recently changed. */
function notesOrder(a: LocalNote | LocalClientNote, b: LocalNote | LocalClientNote): number {
  if (a.pinned !== b.pinned) return a.pinned ? -1 : 1;
  return a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : 0;
}

export async function listNotes(
  db: AppDatabase,
  workspaceId: string,
  projectId: string,
): Promise<LocalNote[]> {
  const rows = await db.notes
    .where('[workspaceId+projectId]')
    .equals([workspaceId, projectId])
    .toArray();
  return live(rows).sort(notesOrder);
}

export async function listClientNotes(
  db: AppDatabase,
  workspaceId: string,
  clientId: string,
): Promise<LocalClientNote[]> {
  const rows = await db.clientNotes
    .where('[workspaceId+clientId]')
    .equals([workspaceId, clientId])
    .toArray();
  return live(rows).sort(notesOrder);
}

export function useColumns(db: AppDatabase, workspaceId: string, projectId: string) {
  return useLiveQuery(() => listColumns(db, workspaceId, projectId), [db, workspaceId, projectId]);
}
/**
 * The first `perColumn` cards of each column straight off the `[columnId+position]` index: a cold
 * open of a big board paints these while every task (filters, counts) loads after that frame.
 */
export async function listFirstTasks(
  db: AppDatabase,
  columnIds: readonly string[],
  perColumn: number,
): Promise<LocalTask[]> {
  const pages = await Promise.all(
    columnIds.map((columnId) => {
      const [lower, upper] = prefixKeyRange(columnId);
      return db.tasks
        .where('[columnId+position]')
        .between(lower, upper)
        .filter((task) => !task._deleted)
        .limit(perColumn)
        .toArray();
    }),
  );
  return pages.flat();
}

export function useFirstTasks(
  db: AppDatabase,
  columnIds: readonly string[] | undefined,
  perColumn: number,
) {
  const key = columnIds?.join(',');
  return useLiveQuery(
    () => (columnIds ? listFirstTasks(db, columnIds, perColumn) : undefined),
    // The ids by value (a new array each render must not re-run the query).
    [db, key, perColumn],
  );
}

export function useTasks(
  db: AppDatabase,
  workspaceId: string,
  projectId: string,
  /** False holds the full read back (a cold open paints the first cards first). */
  enabled = true,
) {
  return useLiveQuery(
    () => (enabled ? listTasks(db, workspaceId, projectId) : undefined),
    [db, workspaceId, projectId, enabled],
  );
}
export function useMilestones(db: AppDatabase, workspaceId: string, projectId: string) {
  return useLiveQuery(
    () => listMilestones(db, workspaceId, projectId),
    [db, workspaceId, projectId],
  );
}
export function useNotes(db: AppDatabase, workspaceId: string, projectId: string) {
  return useLiveQuery(() => listNotes(db, workspaceId, projectId), [db, workspaceId, projectId]);
}
export function useClientNotes(db: AppDatabase, workspaceId: string, clientId: string) {
  return useLiveQuery(
    () => listClientNotes(db, workspaceId, clientId),
    [db, workspaceId, clientId],
  );
}

/** A project's progress: the share of its milestones approved (null without milestones). */
export function milestoneProgress(
  milestones: readonly Pick<LocalMilestone, 'status'>[],
): { approved: number; total: number; percent: number } | null {
  if (milestones.length === 0) return null;
  const approved = milestones.filter((milestone) => milestone.status === 'approved').length;
  return {
    approved,
    total: milestones.length,
    percent: Math.round((approved / milestones.length) * 100),
  };
}

/** Tasks of the workspace not in a done column, with their project's id (dashboard). */
export async function listOpenTasks(db: AppDatabase, workspaceId: string): Promise<LocalTask[]> {
  const [tasks, columns] = await Promise.all([
    db.tasks.where('workspaceId').equals(workspaceId).toArray(),
    db.kanbanColumns.where('workspaceId').equals(workspaceId).toArray(),
  ]);
  const done = new Set(columns.filter((column) => column.isDone).map((column) => column.id));
  return live(tasks).filter((task) => !done.has(task.columnId));
}

export async function listMilestonesAwaitingApproval(
  db: AppDatabase,
  workspaceId: string,
): Promise<LocalMilestone[]> {
  const rows = await db.milestones
    .where('[workspaceId+status]')
    .equals([workspaceId, 'awaiting_approval'])
    .toArray();
  return live(rows).sort((a, b) => (a.dueDate ?? '9999').localeCompare(b.dueDate ?? '9999'));
}

export function useOpenTasks(db: AppDatabase, workspaceId: string) {
  return useLiveQuery(() => listOpenTasks(db, workspaceId), [db, workspaceId]);
}
export function useMilestonesAwaitingApproval(db: AppDatabase, workspaceId: string) {
  return useLiveQuery(() => listMilestonesAwaitingApproval(db, workspaceId), [db, workspaceId]);
}

// ---------------------------------------------------------------- writes

/**
 * A new project's board: the default columns, written by the device that creates the project
 * (one writer, so two devices never both add them).
 */
export async function addDefaultColumns(
  ctx: LocalWriteContext,
  project: { id: string; workspaceId: string },
): Promise<LocalColumn[]> {
  const keys = generateNKeysBetween(null, null, DEFAULT_BOARD_COLUMNS.length);
  const created: LocalColumn[] = [];
  for (const [index, column] of DEFAULT_BOARD_COLUMNS.entries()) {
    created.push(
      await columnWrites.create(ctx, {
        workspaceId: project.workspaceId,
        projectId: project.id,
        name: column.name,
        isDone: column.isDone,
        position: keys[index] ?? orderKeyBetween(null, null),
      }),
    );
  }
  return created;
}

/** A column at the end of the board. */
export function addColumn(
  ctx: LocalWriteContext,
  project: { id: string; workspaceId: string },
  name: string,
  last: LocalColumn | undefined,
): Promise<LocalColumn> {
  return columnWrites.create(ctx, {
    workspaceId: project.workspaceId,
    projectId: project.id,
    name,
    position: orderKeyBetween(last?.position ?? null, null),
  });
}

export type NewTaskInput = Omit<NewRowInput<typeof taskEntity>, 'position'>;

/** A task at the end (or, with `atStart`, the top) of its column. */
export function addTask(
  ctx: LocalWriteContext,
  input: NewTaskInput,
  column: readonly Pick<LocalTask, 'position'>[],
  atStart = false,
): Promise<LocalTask> {
  const position = atStart
    ? orderKeyBetween(null, column[0]?.position ?? null)
    : orderKeyBetween(column.at(-1)?.position ?? null, null);
  return taskWrites.create(ctx, { ...input, position });
}

/**
 * Moves a task between two neighbours (null: the start or the end) of a column, its own or
 * another: one patch of the order key, plus the column when it changes.
 */
export function moveTask(
  ctx: LocalWriteContext,
  task: Pick<LocalTask, 'id' | 'columnId'>,
  to: { columnId: string; before: string | null; after: string | null },
): Promise<boolean> {
  const position = orderKeyBetween(to.before, to.after);
  return taskWrites.update(
    ctx,
    task.id,
    to.columnId === task.columnId ? { position } : { columnId: to.columnId, position },
  );
}

/** The same for milestones in their project's list. */
export function moveMilestone(
  ctx: LocalWriteContext,
  id: string,
  before: string | null,
  after: string | null,
): Promise<boolean> {
  return milestoneWrites.update(ctx, id, { position: orderKeyBetween(before, after) });
}
