/**
 * The Tasks tab of a project: its board (columns side by side) or list (columns stacked), read
 * live from this device's database; every change is a local write queued for sync, so all of it
 * works offline. Cards move by drag and drop (mouse, touch, keyboard) or their "Move to…" menu;
 * the moved card keeps focus. Filters (assignee, label, due) live in this tab's state. "n"
 * focuses the first column's quick add. Columns are renamed, added, moved and marked done here;
 * only an empty column can be deleted (the server refuses one with tasks).
 */
import { orderKeyBetween } from '#contract/entities/order-key.ts';
import { Columns3, LayoutList, Plus } from 'lucide-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Input, TextField } from 'react-aria-components';
import type { LocalProject } from '../../db/app-database.ts';
import { useLiveQuery } from '../../db/live-query.ts';
import {
  addColumn,
  addDefaultColumns,
  addTask,
  columnWrites,
  moveTask,
  useColumns,
  useMilestones,
  useFirstTasks,
  useTasks,
  type LocalColumn,
  type LocalTask,
} from '../../data/project-work.ts';
import { writeErrorFields } from '../../data/write-error-fields.ts';
import { Button } from '../../ui/button.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { inputClassName } from '../../ui/form-text-field.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { ViewSwitch } from '../../ui/view-switch.tsx';
import { useKeyShortcut } from '../../ui/use-key-shortcut.ts';
import { useToast } from '../../ui/use-toast.ts';
import { localToday } from '../projects/project-format.ts';
import { useSync, useWriteContext } from '../workspace/sync-context.tsx';
import type { MoveTarget } from './task-card.tsx';
import { boardAddColumnWidth, TaskColumn } from './task-column.tsx';
import { TaskDetailSheet } from './task-detail-sheet.tsx';
import { TaskFiltersBar } from './task-filters-bar.tsx';
import {
  doneColumnIds,
  isFiltering,
  isTaskOverdue,
  matchesFilters,
  neighboursAt,
  noFilters,
  type TaskFilters,
} from './task-filters.ts';
import { focusWhenReady } from '../../ui/focus-when-ready.ts';

type View = 'board' | 'list';

const taskViews = [
  { id: 'board', label: 'Board', Icon: Columns3 },
  { id: 'list', label: 'List', Icon: LayoutList },
] as const;

function initialView(): View {
  if (typeof window === 'undefined' || typeof window.matchMedia !== 'function') return 'board';
  return window.matchMedia('(max-width: 639px)').matches ? 'list' : 'board';
}

/** Cards per column in a big board's first paint (about a screenful). */
const FIRST_PAINT_CARDS = 20;

const problemOf = (error: unknown, field: string) => {
  const fields = writeErrorFields(error);
  return fields[field] ?? fields.form ?? Object.values(fields).find(Boolean) ?? 'Not saved.';
};

export function TasksTab({ project }: { project: LocalProject }) {
  const { handle } = useSync();
  const db = handle.db;
  const ctx = useWriteContext();
  const toaster = useToast();
  const columns = useColumns(db, project.workspaceId, project.id);
  // Cold open of a big board: the first cards of each column come off an index and paint; the
  // full read (every task, for counts and filters) starts after that frame.
  const [readAll, setReadAll] = useState(false);
  const firstTasks = useFirstTasks(
    db,
    columns?.map((column) => column.id),
    FIRST_PAINT_CARDS,
  );
  const allTasks = useTasks(db, project.workspaceId, project.id, readAll);
  useEffect(() => {
    if (readAll || firstTasks === undefined) return;
    const frame = requestAnimationFrame(() => setTimeout(() => setReadAll(true), 0));
    return () => cancelAnimationFrame(frame);
  }, [readAll, firstTasks]);
  const tasks = allTasks ?? firstTasks;
  const milestones = useMilestones(db, project.workspaceId, project.id);
  const members = useLiveQuery(
    () => db.members.where('workspaceId').equals(project.workspaceId).toArray(),
    [db, project.workspaceId],
  );
  const [view, setView] = useState<View>(initialView);
  const [filters, setFilters] = useState<TaskFilters>(noFilters);
  const [openTaskId, setOpenTaskId] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<LocalColumn | null>(null);
  const [settingUp, setSettingUp] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const firstQuickAdd = useRef<HTMLInputElement>(null);
  const today = localToday();

  // After the key press: the "n" must not be typed into the field it focuses.
  useKeyShortcut(
    'n',
    () => setTimeout(() => firstQuickAdd.current?.focus(), 0),
    openTaskId === null,
  );

  const assigneeNames = useMemo(
    () =>
      new Map(
        (members ?? []).map((member) => [
          member.id,
          `${member.firstName} ${member.lastName}`.trim() || member.email,
        ]),
      ),
    [members],
  );

  if (columns === undefined || tasks === undefined) {
    return (
      <div role="status" className="flex items-center gap-3 py-10 text-fg-muted">
        <Spinner />
        Loading tasks…
      </div>
    );
  }

  const byColumn = new Map<string, LocalTask[]>(columns.map((column) => [column.id, []]));
  for (const task of tasks) byColumn.get(task.columnId)?.push(task);
  const done = doneColumnIds(columns);
  const overdueIds = new Set(
    tasks.filter((task) => isTaskOverdue(task, today, done)).map((task) => task.id),
  );
  const filtering = isFiltering(filters);
  const shown = (list: readonly LocalTask[]) =>
    filtering ? list.filter((task) => matchesFilters(task, filters, today, done)) : list;

  // ------------------------------------------------------------ moves

  const place = async (
    task: LocalTask,
    columnId: string,
    index: (others: LocalTask[]) => number,
  ) => {
    setError(null);
    const others = (byColumn.get(columnId) ?? []).filter((other) => other.id !== task.id);
    try {
      await moveTask(ctx, task, { columnId, ...neighboursAt(others, index(others)) });
      focusWhenReady(`[data-column-id="${columnId}"] [data-task-id="${task.id}"]`, 'row');
    } catch (caught) {
      setError(`“${task.title}” could not be moved: ${problemOf(caught, 'columnId')}`);
    }
  };

  const moveTo = (task: LocalTask, target: MoveTarget) =>
    void place(task, target.columnId, (others) => (target.place === 'top' ? 0 : others.length));

  const drop =
    (columnId: string) => (taskId: string, targetId: string | null, side: 'before' | 'after') => {
      const task = tasks.find((candidate) => candidate.id === taskId);
      if (!task || targetId === taskId) return;
      void place(task, columnId, (others) => {
        const at = targetId === null ? -1 : others.findIndex((other) => other.id === targetId);
        if (at === -1) return others.length;
        return side === 'before' ? at : at + 1;
      });
    };

  // ------------------------------------------------------------ writes

  const quickAdd = (column: LocalColumn) => async (title: string) => {
    try {
      await addTask(
        ctx,
        { workspaceId: project.workspaceId, projectId: project.id, columnId: column.id, title },
        byColumn.get(column.id) ?? [],
      );
      return null;
    } catch (caught) {
      return problemOf(caught, 'title');
    }
  };

  const rename = (column: LocalColumn) => async (name: string) => {
    try {
      await columnWrites.update(ctx, column.id, { name });
      return null;
    } catch (caught) {
      return problemOf(caught, 'name');
    }
  };

  const columnAction =
    (column: LocalColumn, index: number) => (action: 'left' | 'right' | 'done' | 'delete') => {
      setError(null);
      if (action === 'delete') {
        setDeleting(column);
        return;
      }
      const write = async () => {
        if (action === 'done') {
          await columnWrites.update(ctx, column.id, { isDone: !column.isDone });
          return;
        }
        const [before, after] =
          action === 'left'
            ? [columns[index - 2], columns[index - 1]]
            : [columns[index + 1], columns[index + 2]];
        if (action === 'left' ? !after : !before) return;
        await columnWrites.update(ctx, column.id, {
          position: orderKeyBetween(before?.position ?? null, after?.position ?? null),
        });
        focusWhenReady(`[data-column-id="${column.id}"] button[aria-label^="Column options"]`);
      };
      write().catch((caught: unknown) =>
        setError(`“${column.name}”: ${problemOf(caught, 'name')}`),
      );
    };

  const deleteColumn = async (column: LocalColumn) => {
    setDeleting(null);
    try {
      await columnWrites.delete(ctx, column.id);
      toaster.show({ tone: 'success', message: `Column “${column.name}” deleted` });
    } catch (caught) {
      setError(`“${column.name}” could not be deleted: ${problemOf(caught, 'form')}`);
    }
  };

  const setUpBoard = async () => {
    setSettingUp(true);
    try {
      await addDefaultColumns(ctx, project);
      focusWhenReady('[data-quick-add]');
    } catch (caught) {
      setError(problemOf(caught, 'form'));
    } finally {
      setSettingUp(false);
    }
  };

  if (columns.length === 0) {
    return (
      <section
        aria-labelledby="tasks-empty"
        className="mx-auto flex max-w-md flex-col items-center gap-3 py-12 text-center"
      >
        <Columns3 aria-hidden="true" size={32} className="text-fg-muted" />
        <h2 id="tasks-empty" className="text-xl font-semibold text-fg">
          This project has no board yet
        </h2>
        <p className="text-fg-muted">
          A board keeps the project's tasks in columns: To do, In progress, Review and Done. Set it
          up, then add tasks and drag them along as the work moves. You can rename, add and reorder
          columns later.
        </p>
        {error ? (
          <p role="alert" className="text-sm font-medium text-danger">
            {error}
          </p>
        ) : null}
        <Button onPress={() => void setUpBoard()} isPending={settingUp}>
          Set up the board
        </Button>
      </section>
    );
  }

  const deletingCount = deleting ? (byColumn.get(deleting.id)?.length ?? 0) : 0;

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-end gap-3">
        <TaskFiltersBar
          filters={filters}
          onChange={setFilters}
          tasks={tasks}
          members={members ?? []}
        />
        <ViewSwitch options={taskViews} value={view} onChange={setView} className="ml-auto" />
      </div>
      {tasks.length === 0 ? (
        <p className="rounded-xl border border-border bg-surface px-4 py-3 text-sm text-fg-muted">
          No tasks yet. Type a title in “Add a task” under a column and press Enter; it stays open
          for the next one. Press <kbd className="font-semibold text-fg">n</kbd> to jump there. Open
          a card for its details: assignee, due date, checklist and more.
        </p>
      ) : null}
      {error ? (
        <p role="alert" className="text-sm font-medium text-danger">
          {error}
        </p>
      ) : null}
      <div
        role="group"
        aria-label={view === 'board' ? 'Task board' : 'Task list'}
        onFocus={
          view === 'board'
            ? (event) => revealBoardItem(event.currentTarget, event.target)
            : undefined
        }
        className={
          view === 'board'
            ? 'relative -mx-4 flex snap-x snap-mandatory scroll-px-4 items-start gap-3 overflow-x-auto px-4 pb-4 sm:-mx-6 sm:scroll-px-6 sm:px-6'
            : 'flex flex-col gap-4'
        }
      >
        {columns.map((column, index) => {
          const all = byColumn.get(column.id) ?? [];
          return (
            <TaskColumn
              key={column.id}
              column={column}
              index={index}
              columnCount={columns.length}
              columns={columns}
              tasks={shown(all)}
              totalCount={all.length}
              layout={view}
              isFiltering={filtering}
              assigneeNames={assigneeNames}
              overdueIds={overdueIds}
              quickAddRef={index === 0 ? firstQuickAdd : undefined}
              onOpen={setOpenTaskId}
              onMove={moveTo}
              onDrop={drop(column.id)}
              onQuickAdd={quickAdd(column)}
              onRename={rename(column)}
              onColumnAction={columnAction(column, index)}
            />
          );
        })}
        <AddColumn
          layout={view}
          onAdd={async (name) => {
            try {
              await addColumn(ctx, project, name, columns.at(-1));
              return null;
            } catch (caught) {
              return problemOf(caught, 'name');
            }
          }}
        />
      </div>
      <TaskDetailSheet
        taskId={openTaskId}
        tasks={tasks}
        columns={columns}
        milestones={milestones ?? []}
        members={members ?? []}
        onClose={() => setOpenTaskId(null)}
        onMoveToColumn={(task, columnId) => moveTo(task, { columnId, place: 'bottom' })}
      />
      <ConfirmDialog
        isOpen={deleting !== null && deletingCount === 0}
        title={`Delete the column “${deleting?.name ?? ''}”?`}
        confirmLabel="Delete column"
        isDestructive
        onConfirm={() => deleting && void deleteColumn(deleting)}
        onCancel={() => setDeleting(null)}
      >
        The column is empty, so no task is lost. It is removed from the board for everyone in the
        workspace.
      </ConfirmDialog>
      <ConfirmDialog
        isOpen={deleting !== null && deletingCount > 0}
        title={`“${deleting?.name ?? ''}” still has tasks`}
        confirmLabel="OK"
        onConfirm={() => setDeleting(null)}
        onCancel={() => setDeleting(null)}
      >
        A column can only be deleted once it is empty, so no task is lost by accident. Move its{' '}
        {deletingCount} {deletingCount === 1 ? 'task' : 'tasks'} to another column (with “Move to…”
        or by dragging) or delete {deletingCount === 1 ? 'it' : 'them'} first.
      </ConfirmDialog>
    </div>
  );
}

/**
 * Scrolls the board so the item (a column, or the add-column form) holding the newly focused
 * element is whole in view. The browser's own focus scroll stops once part of it shows, and the
 * board's mandatory snapping can then pull it back to where the item is cut off at the edge; the
 * item's own snap position (its start) is a resting place the snapping keeps.
 */
function revealBoardItem(board: HTMLElement, target: EventTarget) {
  const item = [...board.children].find(
    (child): child is HTMLElement => child instanceof HTMLElement && child.contains(target as Node),
  );
  if (!item) return;
  const view = board.getBoundingClientRect();
  const box = item.getBoundingClientRect();
  const style = getComputedStyle(board);
  const padLeft = parseFloat(style.scrollPaddingLeft) || 0;
  const padRight = parseFloat(style.scrollPaddingRight) || 0;
  // A pixel of slack: rounding leaves an item that fits a fraction over the edge.
  if (box.left >= view.left + padLeft - 1 && box.right <= view.right - padRight + 1) return;
  board.scrollLeft += box.left - view.left - padLeft;
}

function AddColumn({
  layout,
  onAdd,
}: {
  layout: View;
  onAdd: (name: string) => Promise<string | null>;
}) {
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  return (
    <form
      aria-label="Add a column"
      className={`flex flex-col gap-1 ${layout === 'board' ? `${boardAddColumnWidth} snap-start` : ''}`}
      onSubmit={(event) => {
        event.preventDefault();
        if (name.trim() === '') return;
        void onAdd(name).then((problem) => {
          setError(problem);
          if (!problem) setName('');
        });
      }}
    >
      {/* On a wide board the form is narrow: the input over the button, each wide enough to read. */}
      <div className={`flex gap-2 ${layout === 'board' ? 'xl:flex-col xl:items-start' : ''}`}>
        <TextField
          aria-label="New column name"
          value={name}
          onChange={(text) => {
            setName(text);
            setError(null);
          }}
          isInvalid={error !== null}
          validationBehavior="aria"
          className="min-w-0 flex-1 xl:self-stretch"
        >
          <Input placeholder="New column" className={`${inputClassName} sm:min-h-10 sm:text-sm`} />
        </TextField>
        <Button type="submit" variant="secondary">
          <Plus aria-hidden="true" size={16} />
          Add column
        </Button>
      </div>
      {error ? (
        <p role="alert" className="text-sm font-medium text-danger">
          {error}
        </p>
      ) : null}
    </form>
  );
}
