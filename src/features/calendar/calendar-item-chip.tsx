/**
 * One thing on the calendar: a button that opens it (its details, Move to date, or the event's
 * edit dialog) and, with a mouse, drags to another day. The drag carries the item's key and the
 * day it was grabbed on, so a multi-day event moves by the distance dragged. The keyboard's drag:
 * Alt with an arrow key moves it a day (left, right) or a week (up, down), the same move.
 */
import { CalendarClock, CircleCheck, Flag, FolderClock, FolderOpen, ListTodo } from 'lucide-react';
import type { DragEvent, KeyboardEvent } from 'react';
import { formatTime, type Day } from './calendar-dates.ts';
import { kindWords, type CalendarItem, type CalendarItemKind } from './calendar-items.ts';

export const DRAG_TYPE = 'application/x-satchel-calendar-item';

const icons: Record<CalendarItemKind, typeof Flag> = {
  milestone: Flag,
  task: ListTodo,
  'project-start': FolderOpen,
  'project-due': FolderClock,
  event: CalendarClock,
};

const tones: Record<CalendarItemKind, string> = {
  milestone: 'border-l-success',
  task: 'border-l-fg-muted',
  'project-start': 'border-l-border-strong',
  'project-due': 'border-l-border-strong',
  event: 'border-l-brand bg-brand-soft',
};

/** Alt+arrow: days to move by, or null for any other key. */
export function keyboardMoveDays(event: {
  key: string;
  altKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
}): number | null {
  if (!event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return null;
  const days: Record<string, number> = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -7, ArrowDown: 7 };
  return days[event.key] ?? null;
}

export const KEYBOARD_MOVE_SHORTCUTS = 'Alt+ArrowLeft Alt+ArrowRight Alt+ArrowUp Alt+ArrowDown';

/** Its id in a day's cell or list; a month lists the chosen day's chips again under the grid. */
export function itemButtonId(item: CalendarItem, day: Day, listed = false): string {
  return `cal-${item.kind}-${item.id}-${day}${listed ? LISTED_SUFFIX : ''}`;
}

const LISTED_SUFFIX = '-listed';

/**
 * Both of a chip's places on `day`: focus goes to the first one shown (a phone's month shows a
 * cell's chips as dots, so only the list's chip can take it there).
 */
export function itemButtonSelector(item: CalendarItem, day: Day): string {
  const id = itemButtonId(item, day);
  return `#${CSS.escape(id)}, #${CSS.escape(id + LISTED_SUFFIX)}`;
}

/** Whether a chip's id (itemButtonId) is one of this item's, on any day, in a cell or a list. */
export function isChipOf(id: string, kind: CalendarItem['kind'], itemId: string): boolean {
  const prefix = `cal-${kind}-${itemId}-`;
  if (!id.startsWith(prefix)) return false;
  const rest = id.slice(prefix.length);
  const day = rest.endsWith(LISTED_SUFFIX) ? rest.slice(0, -LISTED_SUFFIX.length) : rest;
  return /^\d{4}-\d{2}-\d{2}$/.test(day);
}

/** "Milestone: Design review, Website" as a screen reader hears the chip. */
export function itemLabel(item: CalendarItem, locale: string): string {
  const time =
    item.time === null
      ? ''
      : `, ${formatTime(item.time, locale)}${item.endTime ? ` to ${formatTime(item.endTime, locale)}` : ''}`;
  const project =
    item.projectName && item.kind !== 'project-start' && item.kind !== 'project-due'
      ? `, ${item.projectName}`
      : '';
  const state = `${item.done ? ', done' : ''}${item.pending ? ', not synced yet' : ''}`;
  return `${kindWords[item.kind]}: ${item.title}${time}${project}${state}`;
}

export function CalendarItemChip({
  item,
  day,
  locale,
  onOpen,
  onMoveBy,
  draggable = true,
  detailed = false,
  listed = false,
}: {
  item: CalendarItem;
  day: Day;
  locale: string;
  onOpen: (item: CalendarItem) => void;
  /** Alt+arrow keys: move the item by this many days from `day` (absent: not movable). */
  onMoveBy?: (item: CalendarItem, from: Day, days: number) => void;
  draggable?: boolean;
  /** Room for the project's name under the title (week and agenda views). */
  detailed?: boolean;
  /** In the list under a month's grid: the cell holds the same chip, so its id differs. */
  listed?: boolean;
}) {
  const Icon = item.done ? CircleCheck : icons[item.kind];
  const onDragStart = (event: DragEvent<HTMLButtonElement>) => {
    event.dataTransfer.setData(DRAG_TYPE, JSON.stringify({ key: item.key, from: day }));
    event.dataTransfer.setData('text/plain', item.title);
    event.dataTransfer.effectAllowed = 'move';
  };
  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    const days = keyboardMoveDays(event);
    if (days === null || !onMoveBy) return;
    event.preventDefault();
    onMoveBy(item, day, days);
  };
  const movable = draggable && onMoveBy !== undefined;
  return (
    <button
      type="button"
      id={itemButtonId(item, day, listed)}
      draggable={draggable}
      onDragStart={draggable ? onDragStart : undefined}
      onKeyDown={movable ? onKeyDown : undefined}
      aria-keyshortcuts={movable ? KEYBOARD_MOVE_SHORTCUTS : undefined}
      onClick={() => onOpen(item)}
      title={itemLabel(item, locale)}
      className={`flex w-full min-w-0 cursor-pointer items-start gap-1.5 rounded-md border border-l-4 border-border bg-surface px-1.5 py-1 text-left text-xs text-fg hover:bg-surface-muted focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none ${tones[item.kind]} ${item.pending ? 'border-dashed' : ''}`}
    >
      <Icon aria-hidden="true" size={14} className="mt-px shrink-0 text-fg-muted" />
      <span className="min-w-0 flex-1">
        {/* Detailed (week, agenda, a day's list): the whole title, wrapped; in a month cell one line. */}
        <span
          className={`block font-medium ${detailed ? 'break-words' : 'truncate'} ${item.done ? 'line-through' : ''}`}
        >
          {!detailed || item.kind === 'event' ? (
            <>
              <span className="sr-only">{kindWords[item.kind]}:</span>{' '}
            </>
          ) : null}
          {item.time !== null ? (
            <span className={`mr-1 font-normal text-fg-muted ${detailed ? 'block' : ''}`}>
              {formatTime(item.time, locale)}
              {detailed && item.endTime ? ` – ${formatTime(item.endTime, locale)}` : ''}
            </span>
          ) : null}
          {item.title}
          <span className="sr-only">
            {item.done ? ', done' : ''}
            {item.pending ? ', not synced yet' : ''}
          </span>
        </span>
        {detailed && item.projectName && item.kind === 'event' ? (
          <span className="block break-words text-fg-muted">{item.projectName}</span>
        ) : null}
        {detailed && item.kind !== 'event' ? (
          <span className="block break-words text-fg-muted">
            {kindWords[item.kind]}
            {item.projectName && item.kind !== 'project-start' && item.kind !== 'project-due'
              ? ` · ${item.projectName}`
              : ''}
          </span>
        ) : null}
      </span>
    </button>
  );
}
