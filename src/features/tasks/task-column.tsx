/**
 * One board column (or, in the list view, one section): its header with the column's own
 * actions, its cards in a react-aria GridList with drag and drop (mouse, touch and keyboard:
 * Enter on a card's drag handle, Tab or arrows to a place, Enter to drop) and the quick add at
 * the bottom. At most PAGE_SIZE cards are rendered at once; "Show N more" adds the next ones.
 */
import { Check, EllipsisVertical, Plus } from 'lucide-react';
import { useEffect, useRef, useState, type Ref } from 'react';
import {
  Button as AriaButton,
  DropIndicator,
  GridList,
  Input,
  Menu,
  MenuItem,
  MenuTrigger,
  Popover,
  TextField,
  isTextDropItem,
  useDragAndDrop,
  type DropItem,
} from 'react-aria-components';
import type { LocalColumn, LocalTask } from '../../data/project-work.ts';
import { Button } from '../../ui/button.tsx';
import { inputClassName } from '../../ui/form-text-field.tsx';
import { TaskCard, type MoveTarget } from './task-card.tsx';

export const PAGE_SIZE = 50;
export const TASK_DRAG_TYPE = 'application/x-satchel-task';

/**
 * A board column's width: nearly the screen on a phone (one column at a time, snapping), 18rem
 * from sm. From xl the columns share the row (at least 12rem each, at most 18rem), so at 1280px a
 * project's four columns and the add-column form (boardAddColumnWidth) all fit without clipping;
 * more columns than fit scroll sideways.
 */
export const boardColumnWidth =
  'w-[calc(100vw-3rem)] max-w-72 shrink-0 sm:w-72 xl:min-w-48 xl:grow xl:basis-0';

/** The add-column form at the end of the board: from xl narrow, its input over its button. */
export const boardAddColumnWidth = 'w-[calc(100vw-3rem)] max-w-72 shrink-0 sm:w-72 xl:w-40';

export type ColumnAction = 'rename' | 'left' | 'right' | 'done' | 'delete';

export interface TaskColumnProps {
  column: LocalColumn;
  index: number;
  columnCount: number;
  columns: readonly LocalColumn[];
  /** The column's tasks after the filters. */
  tasks: readonly LocalTask[];
  /** All of the column's tasks (for the count and the delete rule). */
  totalCount: number;
  layout: 'board' | 'list';
  isFiltering: boolean;
  assigneeNames: ReadonlyMap<string, string>;
  overdueIds: ReadonlySet<string>;
  quickAddRef?: Ref<HTMLInputElement> | undefined;
  onOpen: (taskId: string) => void;
  onMove: (task: LocalTask, target: MoveTarget) => void;
  /** A drop: the task with this id goes before/after `targetId` (null: the end) in this column. */
  onDrop: (taskId: string, targetId: string | null, position: 'before' | 'after') => void;
  onQuickAdd: (title: string) => Promise<string | null>;
  onRename: (name: string) => Promise<string | null>;
  onColumnAction: (action: Exclude<ColumnAction, 'rename'>) => void;
}

async function droppedIds(items: DropItem[]): Promise<string[]> {
  return Promise.all(items.filter(isTextDropItem).map((item) => item.getText(TASK_DRAG_TYPE)));
}

export function TaskColumn({
  column,
  index,
  columnCount,
  columns,
  tasks,
  totalCount,
  layout,
  isFiltering,
  assigneeNames,
  overdueIds,
  quickAddRef,
  onOpen,
  onMove,
  onDrop,
  onQuickAdd,
  onRename,
  onColumnAction,
}: TaskColumnProps) {
  const [limit, setLimit] = useState(PAGE_SIZE);
  const [isRenaming, setRenaming] = useState(false);
  const headingId = `task-column-${column.id}`;
  const visible = tasks.slice(0, limit);
  const titles = new Map(tasks.map((task) => [task.id, task.title]));

  const { dragAndDropHooks } = useDragAndDrop<LocalTask>({
    getItems: (keys) =>
      [...keys].map((key) => ({
        [TASK_DRAG_TYPE]: String(key),
        'text/plain': titles.get(String(key)) ?? '',
      })),
    acceptedDragTypes: [TASK_DRAG_TYPE],
    getDropOperation: () => 'move',
    onReorder: (event) => {
      const [key] = [...event.keys];
      if (key === undefined) return;
      onDrop(String(key), String(event.target.key), dropSide(event.target.dropPosition));
    },
    onInsert: (event) => {
      void droppedIds(event.items).then(([id]) => {
        if (id) onDrop(id, String(event.target.key), dropSide(event.target.dropPosition));
      });
    },
    onRootDrop: (event) => {
      void droppedIds(event.items).then(([id]) => {
        if (id) onDrop(id, null, 'after');
      });
    },
    renderDropIndicator: (target) => (
      <DropIndicator
        target={target}
        className="mx-2 h-0.5 rounded-full data-drop-target:bg-brand data-drop-target:outline-2 data-drop-target:outline-brand"
      />
    ),
  });

  return (
    <section
      aria-labelledby={headingId}
      data-column-id={column.id}
      className={
        layout === 'board'
          ? `flex ${boardColumnWidth} snap-start flex-col gap-2 rounded-2xl border border-border bg-surface-muted/60 p-2`
          : 'flex flex-col gap-2 rounded-2xl border border-border bg-surface-muted/60 p-2 sm:p-3'
      }
    >
      <div className="flex min-h-11 items-center gap-2 px-1">
        {isRenaming ? (
          <RenameField name={column.name} onSave={onRename} onDone={() => setRenaming(false)} />
        ) : (
          <>
            <h2 id={headingId} className="min-w-0 truncate font-semibold text-fg">
              {column.name}
            </h2>
            {column.isDone ? (
              <span
                title="Done column: its tasks count as finished"
                className="grid size-5 shrink-0 place-items-center rounded-full bg-surface text-success"
              >
                <Check aria-hidden="true" size={12} />
                <span className="sr-only">(done column)</span>
              </span>
            ) : null}
            <span className="shrink-0 rounded-full bg-surface px-2 text-xs font-medium text-fg-muted tabular-nums">
              <span className="sr-only">, </span>
              {isFiltering ? `${tasks.length} of ${totalCount}` : totalCount}
              <span className="sr-only"> {totalCount === 1 ? 'task' : 'tasks'}</span>
            </span>
            <ColumnMenu
              column={column}
              isFirst={index === 0}
              isLast={index === columnCount - 1}
              onAction={(action) => {
                if (action === 'rename') setRenaming(true);
                else onColumnAction(action);
              }}
            />
          </>
        )}
      </div>
      <GridList
        aria-labelledby={headingId}
        items={visible}
        dragAndDropHooks={dragAndDropHooks}
        onAction={(key) => onOpen(String(key))}
        keyboardNavigationBehavior="tab"
        className="flex min-h-16 flex-col gap-2 rounded-xl outline-none data-drop-target:bg-brand-soft/60 data-drop-target:outline-2 data-drop-target:outline-ring data-focus-visible:outline-2 data-focus-visible:outline-ring"
        renderEmptyState={() => (
          <p className="rounded-xl border border-dashed border-border-strong px-3 py-5 text-center text-sm text-fg-muted">
            {isFiltering && totalCount > 0
              ? 'No tasks here match the filters.'
              : column.isDone
                ? 'Nothing finished yet. Drag a card here, or use its “Move to…” menu, when it is done.'
                : 'No tasks yet. Add one below, or drag a card here.'}
          </p>
        )}
      >
        {(task) => (
          <TaskCard
            task={task}
            columns={columns}
            assigneeName={task.assigneeId ? assigneeNames.get(task.assigneeId) : undefined}
            isOverdue={overdueIds.has(task.id)}
            layout={layout}
            onMove={onMove}
          />
        )}
      </GridList>
      {tasks.length > limit ? (
        <Button
          variant="ghost"
          onPress={() => setLimit((current) => current + PAGE_SIZE)}
          className="w-full"
        >
          Show {Math.min(PAGE_SIZE, tasks.length - limit)} more
          <span className="sr-only"> in {column.name}</span>
          <span className="font-normal text-fg-muted">({tasks.length - limit} hidden)</span>
        </Button>
      ) : null}
      <QuickAdd columnName={column.name} inputRef={quickAddRef} onAdd={onQuickAdd} />
    </section>
  );
}

function dropSide(position: string): 'before' | 'after' {
  return position === 'before' ? 'before' : 'after';
}

function ColumnMenu({
  column,
  isFirst,
  isLast,
  onAction,
}: {
  column: LocalColumn;
  isFirst: boolean;
  isLast: boolean;
  onAction: (action: ColumnAction) => void;
}) {
  const disabled = [...(isFirst ? ['left'] : []), ...(isLast ? ['right'] : [])];
  const itemClass =
    'flex min-h-11 cursor-pointer items-center gap-2 rounded-lg px-3 text-sm outline-none data-disabled:cursor-default data-disabled:text-fg-muted data-focused:bg-surface-muted sm:min-h-9';
  return (
    <MenuTrigger>
      <AriaButton
        aria-label={`Column options: ${column.name}`}
        className="ml-auto grid size-11 shrink-0 cursor-pointer place-items-center rounded-lg text-fg-muted outline-none hover:bg-surface hover:text-fg data-focus-visible:ring-2 data-focus-visible:ring-ring sm:size-8"
      >
        <EllipsisVertical aria-hidden="true" size={16} />
      </AriaButton>
      <Popover
        placement="bottom end"
        className="min-w-52 rounded-xl border border-border bg-surface p-1 text-fg shadow-lg outline-none"
      >
        <Menu
          aria-label={`Column options: ${column.name}`}
          className="outline-none"
          disabledKeys={disabled}
          onAction={(key) => onAction(String(key) as ColumnAction)}
        >
          <MenuItem id="rename" className={itemClass}>
            Rename
          </MenuItem>
          <MenuItem id="left" className={itemClass}>
            Move column left
          </MenuItem>
          <MenuItem id="right" className={itemClass}>
            Move column right
          </MenuItem>
          <MenuItem id="done" className={itemClass}>
            {column.isDone ? 'Stop counting as done' : 'Mark as done column'}
          </MenuItem>
          <MenuItem id="delete" className={`${itemClass} text-danger`}>
            Delete column…
          </MenuItem>
        </Menu>
      </Popover>
    </MenuTrigger>
  );
}

function RenameField({
  name,
  onSave,
  onDone,
}: {
  name: string;
  onSave: (name: string) => Promise<string | null>;
  onDone: () => void;
}) {
  const [draft, setDraft] = useState(name);
  const [error, setError] = useState<string | null>(null);
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => ref.current?.select(), []);
  const commit = async () => {
    if (draft.trim() === name) return onDone();
    const problem = await onSave(draft);
    if (problem) setError(problem);
    else onDone();
  };
  return (
    <TextField
      aria-label="Column name"
      value={draft}
      onChange={setDraft}
      isInvalid={error !== null}
      validationBehavior="aria"
      className="flex min-w-0 flex-1 flex-col gap-1"
      onKeyDown={(event) => {
        if (event.key === 'Enter') void commit();
        else if (event.key === 'Escape') onDone();
        else event.continuePropagation();
      }}
    >
      <Input
        ref={ref}
        autoFocus
        onBlur={() => void commit()}
        className={`${inputClassName} sm:min-h-9`}
      />
      {error ? <p className="text-sm font-medium text-danger">{error}</p> : null}
    </TextField>
  );
}

function QuickAdd({
  columnName,
  inputRef,
  onAdd,
}: {
  columnName: string;
  inputRef?: Ref<HTMLInputElement> | undefined;
  onAdd: (title: string) => Promise<string | null>;
}) {
  const [title, setTitle] = useState('');
  const [error, setError] = useState<string | null>(null);
  const add = async () => {
    if (title.trim() === '') return;
    const problem = await onAdd(title);
    setError(problem);
    if (!problem) setTitle('');
  };
  return (
    <form
      className="flex flex-col gap-1"
      onSubmit={(event) => {
        event.preventDefault();
        void add();
      }}
    >
      <TextField
        aria-label={`Add a task to ${columnName}`}
        value={title}
        onChange={(text) => {
          setTitle(text);
          setError(null);
        }}
        isInvalid={error !== null}
        validationBehavior="aria"
        className="flex items-center gap-1"
      >
        <Plus aria-hidden="true" size={16} className="ml-2 shrink-0 text-fg-muted" />
        <Input
          ref={inputRef}
          data-quick-add
          // Short enough to show whole in a column of a full board at 1280px (the board's tip
          // says to press Enter).
          placeholder="Add a task"
          className={`${inputClassName} border-transparent bg-transparent shadow-none hover:border-border-strong sm:min-h-9 sm:text-sm`}
        />
      </TextField>
      {error ? (
        <p role="alert" className="px-2 text-sm font-medium text-danger">
          {error}
        </p>
      ) : null}
    </form>
  );
}
