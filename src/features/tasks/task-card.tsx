/**
 * One task as a card (board) or a row (list): a drag handle, the title and what matters at a
 * glance (priority, due day, assignee, labels, checklist progress), and "Move to…", the always
 * available way to move it with a keyboard or a screen reader. Pressing the card opens its
 * details (the GridList's onAction).
 */
import { taskPriorityWords } from '#contract/entities/task.ts';
import { CalendarDays, EllipsisVertical, GripVertical, ListChecks, UserRound } from 'lucide-react';
import {
  Button,
  GridListItem,
  Header,
  Menu,
  MenuItem,
  MenuSection,
  MenuTrigger,
  Popover,
} from 'react-aria-components';
import type { LocalColumn, LocalTask } from '../../data/project-work.ts';
import { formatDay } from '../projects/project-format.ts';

export interface MoveTarget {
  columnId: string;
  place: 'top' | 'bottom';
}

export interface TaskCardProps {
  task: LocalTask;
  columns: readonly LocalColumn[];
  assigneeName: string | undefined;
  isOverdue: boolean;
  layout: 'board' | 'list';
  onMove: (task: LocalTask, target: MoveTarget) => void;
}

const priorityTone: Record<LocalTask['priority'], string> = {
  none: '',
  low: 'bg-surface-muted text-fg-muted',
  medium: 'bg-brand-soft text-brand',
  high: 'border border-danger text-danger',
  urgent: 'bg-danger text-white dark:text-canvas',
};

const menuItemClass =
  'flex min-h-11 cursor-pointer items-center gap-2 rounded-lg px-3 text-sm outline-none data-focused:bg-surface-muted sm:min-h-9';

export function TaskCard({
  task,
  columns,
  assigneeName,
  isOverdue,
  layout,
  onMove,
}: TaskCardProps) {
  const done = task.checklist.filter((item) => item.done).length;
  return (
    <GridListItem
      id={task.id}
      textValue={task.title}
      className={`group cursor-pointer rounded-xl border border-border bg-surface text-fg shadow-xs outline-none data-dragging:opacity-50 data-focus-visible:ring-2 data-focus-visible:ring-ring data-hovered:border-border-strong ${
        layout === 'list' ? 'px-1 py-1' : 'p-1'
      }`}
    >
      <div data-task-id={task.id} className="flex items-start gap-1">
        <Button
          slot="drag"
          aria-label={`Drag ${task.title}`}
          className="grid size-11 shrink-0 cursor-grab place-items-center rounded-lg text-fg-muted outline-none hover:bg-surface-muted data-focus-visible:ring-2 data-focus-visible:ring-ring sm:size-8"
        >
          <GripVertical aria-hidden="true" size={16} />
        </Button>
        <div
          className={`flex min-w-0 flex-1 gap-x-3 gap-y-1.5 py-2 ${
            layout === 'list' ? 'flex-col sm:flex-row sm:items-center' : 'flex-col'
          }`}
        >
          <span className="min-w-0 text-sm font-medium break-words sm:flex-1">{task.title}</span>
          <TaskMeta task={task} assigneeName={assigneeName} isOverdue={isOverdue} done={done} />
        </div>
        {/* Enter and Space on the menu button are the button's: the row (whose Enter opens the
            details) must not see them too. */}
        <div
          className="contents"
          onKeyDown={(event) => {
            if (event.key === 'Enter' || event.key === ' ') event.stopPropagation();
          }}
        >
          <TaskMoveMenu task={task} columns={columns} onMove={onMove} />
        </div>
      </div>
    </GridListItem>
  );
}

function TaskMeta({
  task,
  assigneeName,
  isOverdue,
  done,
}: {
  task: LocalTask;
  assigneeName: string | undefined;
  isOverdue: boolean;
  done: number;
}) {
  const due = formatDay(task.dueDate);
  const hasMeta =
    task.priority !== 'none' ||
    due !== null ||
    assigneeName !== undefined ||
    task.labels.length > 0 ||
    task.checklist.length > 0;
  if (!hasMeta) return null;
  return (
    <span className="flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-fg-muted">
      {task.priority !== 'none' ? (
        <span className={`rounded-full px-2 py-0.5 font-semibold ${priorityTone[task.priority]}`}>
          {taskPriorityWords[task.priority]}
          <span className="sr-only"> priority</span>
        </span>
      ) : null}
      {due ? (
        <span
          className={`inline-flex items-center gap-1 ${isOverdue ? 'font-semibold text-danger' : ''}`}
        >
          <CalendarDays aria-hidden="true" size={12} />
          {isOverdue ? 'Overdue: ' : <span className="sr-only">Due </span>}
          {due}
        </span>
      ) : null}
      {assigneeName ? (
        <span className="inline-flex items-center gap-1">
          <UserRound aria-hidden="true" size={12} />
          <span className="sr-only">Assigned to </span>
          {assigneeName}
        </span>
      ) : null}
      {task.checklist.length > 0 ? (
        <span className="inline-flex items-center gap-1">
          <ListChecks aria-hidden="true" size={12} />
          {done}/{task.checklist.length}
          <span className="sr-only"> checklist items done</span>
        </span>
      ) : null}
      {task.labels.map((label) => (
        <span key={label} className="rounded-full border border-border px-2 py-0.5">
          <span className="sr-only">Label: </span>
          {label}
        </span>
      ))}
    </span>
  );
}

/** "Move to…": the top or the bottom of any column, its own included. */
export function TaskMoveMenu({
  task,
  columns,
  onMove,
}: {
  task: LocalTask;
  columns: readonly LocalColumn[];
  onMove: (task: LocalTask, target: MoveTarget) => void;
}) {
  return (
    <MenuTrigger>
      <Button
        aria-label={`Move ${task.title} to…`}
        className="grid size-11 shrink-0 cursor-pointer place-items-center rounded-lg text-fg-muted outline-none hover:bg-surface-muted hover:text-fg data-focus-visible:ring-2 data-focus-visible:ring-ring data-pressed:bg-surface-muted sm:size-8"
      >
        <EllipsisVertical aria-hidden="true" size={16} />
      </Button>
      <Popover
        placement="bottom end"
        className="max-h-80 min-w-52 overflow-auto rounded-xl border border-border bg-surface p-1 text-fg shadow-lg outline-none"
      >
        <Menu
          aria-label={`Move ${task.title} to`}
          className="outline-none"
          onAction={(key) => {
            const [place, columnId] = String(key).split(':');
            if ((place === 'top' || place === 'bottom') && columnId) {
              onMove(task, { columnId, place });
            }
          }}
        >
          {columns.map((column) => {
            const current = column.id === task.columnId;
            return (
              <MenuSection key={column.id} id={column.id}>
                <Header className="px-3 pt-1.5 pb-1 text-xs font-semibold text-fg-muted">
                  {column.name}
                  {current ? ' (current column)' : ''}
                </Header>
                <MenuItem
                  id={`top:${column.id}`}
                  textValue={`Top of ${column.name}`}
                  className={menuItemClass}
                >
                  Top of {column.name}
                </MenuItem>
                <MenuItem
                  id={`bottom:${column.id}`}
                  textValue={`Bottom of ${column.name}`}
                  className={menuItemClass}
                >
                  Bottom of {column.name}
                </MenuItem>
              </MenuSection>
            );
          })}
        </Menu>
      </Popover>
    </MenuTrigger>
  );
}
