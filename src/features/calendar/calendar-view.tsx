/**
 * The calendar itself, for the whole workspace (/calendar) or one project (its Calendar tab):
 * month, week and agenda views of milestone and task due dates, project start and due dates and
 * calendar events, read live from the device (offline too). Days are the workspace's time zone's;
 * words and the week's first day are the user's locale's.
 *
 * Moving: drag a thing to another day (mouse), press Alt with an arrow key on it (keyboard: a day
 * left or right, a week up or down), or open it and use "Move to date" (touch); all write the same patch as editing the date in its own dialog, with Undo. Events are
 * created, edited and deleted in a dialog. On phones the month shows dots and the chosen day's
 * list under the grid.
 */
import { CalendarDays, CalendarRange, ChevronLeft, ChevronRight, List, Plus } from 'lucide-react';
import { useMemo, useRef, useState, type DragEvent, type ReactNode } from 'react';
import type { LocalProject } from '../../db/app-database.ts';
import {
  deleteCalendarEvent,
  moveDatedItem,
  updateCalendarEvent,
  useCalendarSource,
  type LocalCalendarEvent,
} from '../../data/calendar.ts';
import { useProjects } from '../../data/project-queries.ts';
import { writeErrorFields } from '../../data/write-error-fields.ts';
import { cancelQueuedChange } from '../../sync/sync-client.ts';
import { Button } from '../../ui/button.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { showUndoNotice } from '../../ui/undo-notice.ts';
import { useToast } from '../../ui/use-toast.ts';
import { ViewSwitch, type ViewOption } from '../../ui/view-switch.tsx';
import { useSync, useWriteContext } from '../workspace/sync-context.tsx';
import { useWorkspace } from '../workspace/workspace-gate.tsx';
import {
  addDays,
  formatDay,
  monthWeeks,
  stepAnchor,
  todayIn,
  userLocale,
  viewRange,
  viewTitle,
  weekDays,
  weekStartOf,
  type CalendarViewKind,
  type Day,
} from './calendar-dates.ts';
import {
  CalendarItemChip,
  DRAG_TYPE,
  isChipOf,
  itemButtonSelector,
} from './calendar-item-chip.tsx';
import {
  buildCalendarItems,
  datedRef,
  dayShift,
  itemsByDay,
  shiftEvent,
  type CalendarItem,
} from './calendar-items.ts';
import { EventDialog } from './event-dialog.tsx';
import { ItemDialog } from './item-dialog.tsx';
import { focusWhenReady } from '../../ui/focus-when-ready.ts';

const viewOptions: readonly ViewOption<CalendarViewKind>[] = [
  { id: 'month', label: 'Month', Icon: CalendarDays },
  { id: 'week', label: 'Week', Icon: CalendarRange },
  { id: 'agenda', label: 'Agenda', Icon: List },
];

const UNDO_WINDOW_MS = 8000;
/** Chips a month cell shows before "+N more". */
const CELL_ITEMS = 3;

export interface CalendarViewProps {
  view: CalendarViewKind;
  /** The day the view shows (its month, week or agenda start); absent: today. */
  anchor: Day | undefined;
  onNavigate: (next: { view: CalendarViewKind; anchor: Day | undefined }) => void;
  /** Only this project's things (its Calendar tab). */
  project?: LocalProject | undefined;
}

type Dialog =
  | { kind: 'item'; item: CalendarItem }
  | { kind: 'event'; event: LocalCalendarEvent | undefined; day: Day }
  | null;

export function CalendarView({ view, anchor, onNavigate, project }: CalendarViewProps) {
  const { handle } = useSync();
  const ctx = useWriteContext();
  const workspace = useWorkspace();
  const toaster = useToast();
  const timeZone = workspace.timeZone || 'UTC';
  const locale = userLocale();
  const weekStartsOn = weekStartOf(locale);
  const today = todayIn(timeZone);
  const day = anchor ?? today;
  const source = useCalendarSource(handle.db, workspace.id, project?.id);
  const allProjects = useProjects(handle.db, workspace.id, { includeArchived: true });
  const [dialog, setDialog] = useState<Dialog>(null);
  const [selectedDay, setSelectedDay] = useState<Day | null>(null);
  const viewRef = useRef<HTMLElement>(null);
  /** The chip an open dialog was opened from (focused when it was pressed, where browsers do). */
  const openedFrom = useRef<Element | null>(null);

  const items = useMemo(
    () => (source ? buildCalendarItems(source, timeZone) : undefined),
    [source, timeZone],
  );
  const range = viewRange(view, day, weekStartsOn);
  const byDay = useMemo(
    () => (items ? itemsByDay(items, range.from, range.to) : new Map<Day, CalendarItem[]>()),
    [items, range.from, range.to],
  );
  const title = viewTitle(view, day, weekStartsOn, locale);
  const inRange = (candidate: Day) => candidate >= range.from && candidate <= range.to;
  const chosenDay =
    selectedDay !== null && inRange(selectedDay)
      ? selectedDay
      : inRange(today)
        ? today
        : view === 'month'
          ? `${day.slice(0, 7)}-01`
          : range.from;

  const longDay = (value: Day) =>
    formatDay(value, locale, { weekday: 'long', day: 'numeric', month: 'long' });

  /** Moves an item grabbed on `from` to `to`; Undo moves it back. */
  const move = async (item: CalendarItem, from: Day, to: Day, announce = true) => {
    const days = dayShift(from, to);
    if (days === 0) return;
    const ref = datedRef(item);
    if (ref) {
      const before = item.start;
      await moveDatedItem(ctx, ref, addDays(item.start, days));
      if (announce)
        showUndoNotice(toaster, {
          message: `“${item.title}” moved to ${longDay(addDays(item.start, days))}`,
          durationMs: UNDO_WINDOW_MS,
          undo: () => void moveDatedItem(ctx, ref, before),
        });
    } else if (item.event) {
      const event = item.event;
      const before = { start: event.start, end: event.end };
      await updateCalendarEvent(ctx, event.id, shiftEvent(event, days, timeZone));
      if (announce)
        showUndoNotice(toaster, {
          message: `“${item.title}” moved to ${longDay(addDays(item.start, days))}`,
          durationMs: UNDO_WINDOW_MS,
          undo: () => void updateCalendarEvent(ctx, event.id, before),
        });
    }
    setSelectedDay(addDays(from, days));
  };

  const onDropOn = (to: Day, data: string) => {
    let parsed: { key?: unknown; from?: unknown };
    try {
      parsed = JSON.parse(data) as { key?: unknown; from?: unknown };
    } catch {
      return;
    }
    const item = items?.find((candidate) => candidate.key === parsed.key);
    if (!item || typeof parsed.from !== 'string') return;
    void moveOrSay(item, parsed.from, to);
  };

  /** `move`, saying so in a notice when the write is refused; true when it moved. */
  const moveOrSay = (item: CalendarItem, from: Day, to: Day): Promise<boolean> =>
    move(item, from, to).then(
      () => true,
      (error: unknown) => {
        const fields = writeErrorFields(error);
        toaster.show({
          tone: 'error',
          message: `“${item.title}” stays where it was: ${Object.values(fields).find(Boolean) ?? 'the change was refused'}`,
        });
        return false;
      },
    );

  /** The keyboard's drag (Alt+arrows on a chip): the view follows a move past its edge, and
   * focus follows the item to its new day. */
  const moveBy = (item: CalendarItem, from: Day, days: number) => {
    const to = addDays(from, days);
    if (!inRange(to)) onNavigate({ view, anchor: to });
    void moveOrSay(item, from, to).then((moved) =>
      focusWhenReady(itemButtonSelector(item, moved ? to : from)),
    );
  };

  const open = (item: CalendarItem) => {
    openedFrom.current = document.activeElement;
    if (item.kind === 'event' && item.event)
      setDialog({ kind: 'event', event: item.event, day: item.start });
    else setDialog({ kind: 'item', item });
  };

  const removeEvent = (event: LocalCalendarEvent) => {
    // Its chips leave the view (and react-aria hands focus back to the one it was opened from):
    // focus goes on to the next event in the view, or the one before, or "New event".
    focusWhenReady(
      focusAfterRemoving(viewRef.current, event.id, openedFrom.current) ?? NEW_EVENT_SELECTOR,
    );
    setDialog(null);
    deleteCalendarEvent(ctx, event.id, { undoWindowMs: UNDO_WINDOW_MS })
      .then((mutationId) =>
        showUndoNotice(toaster, {
          message: `Event “${event.title}” deleted`,
          durationMs: UNDO_WINDOW_MS,
          undo: () => {
            void cancelQueuedChange(ctx.db, mutationId).then((undone) => {
              if (!undone)
                toaster.show({
                  tone: 'error',
                  message: `Too late to undo: “${event.title}” is deleted.`,
                });
            });
          },
        }),
      )
      .catch((error: unknown) =>
        toaster.show({
          tone: 'error',
          message: writeErrorFields(error).form ?? 'The event could not be deleted.',
        }),
      );
  };

  const dropProps = (target: Day) => ({
    onDragOver: (event: DragEvent<HTMLElement>) => {
      if (!event.dataTransfer.types.includes(DRAG_TYPE)) return;
      event.preventDefault();
      event.dataTransfer.dropEffect = 'move';
      event.currentTarget.dataset.dropTarget = 'true';
    },
    onDragLeave: (event: DragEvent<HTMLElement>) => {
      delete event.currentTarget.dataset.dropTarget;
    },
    onDrop: (event: DragEvent<HTMLElement>) => {
      delete event.currentTarget.dataset.dropTarget;
      const data = event.dataTransfer.getData(DRAG_TYPE);
      if (!data) return;
      event.preventDefault();
      onDropOn(target, data);
    },
    'data-day': target,
  });

  const chip = (
    item: CalendarItem,
    on: Day,
    options: { detailed?: boolean; drag?: boolean; listed?: boolean } = {},
  ) => (
    <CalendarItemChip
      item={item}
      day={on}
      locale={locale}
      onOpen={open}
      detailed={options.detailed ?? false}
      draggable={options.drag ?? true}
      listed={options.listed ?? false}
      onMoveBy={moveBy}
    />
  );

  return (
    <section ref={viewRef} aria-labelledby="calendar-view-title" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center gap-2">
        <div className="flex items-center gap-1">
          <Button
            variant="ghost"
            size="icon"
            aria-label={`Previous ${view === 'agenda' ? 'weeks' : view}`}
            onPress={() => onNavigate({ view, anchor: stepAnchor(view, day, -1) })}
          >
            <ChevronLeft aria-hidden="true" size={18} />
          </Button>
          <Button
            variant="ghost"
            size="icon"
            aria-label={`Next ${view === 'agenda' ? 'weeks' : view}`}
            onPress={() => onNavigate({ view, anchor: stepAnchor(view, day, 1) })}
          >
            <ChevronRight aria-hidden="true" size={18} />
          </Button>
          <Button
            variant="secondary"
            onPress={() => {
              setSelectedDay(today);
              onNavigate({ view, anchor: undefined });
            }}
          >
            Today
          </Button>
        </div>
        <h2
          id="calendar-view-title"
          aria-live="polite"
          className="min-w-0 flex-1 text-lg font-semibold text-fg sm:text-xl"
        >
          {title}
        </h2>
        <div className="ml-auto flex items-center gap-2">
          <ViewSwitch
            options={viewOptions}
            value={view}
            onChange={(next) => onNavigate({ view: next, anchor })}
            wordsFromSm
          />
          <Button
            data-calendar-new-event
            onPress={() => setDialog({ kind: 'event', event: undefined, day: chosenDay })}
          >
            <Plus aria-hidden="true" size={16} />
            New event
          </Button>
        </div>
      </div>

      {items === undefined ? (
        <div role="status" className="flex flex-col items-center gap-3 py-16 text-fg-muted">
          <Spinner />
          Loading the calendar…
        </div>
      ) : (
        <>
          {items.length === 0 ? (
            <div className="rounded-xl border border-dashed border-border-strong p-4 text-sm text-fg-muted">
              <p className="font-medium text-fg">Nothing on the calendar yet</p>
              <p className="mt-1">
                {project
                  ? "This project's milestones and tasks with due dates, its start and due dates and its events show here."
                  : 'Milestones and tasks with due dates, project start and due dates and your events show here. Add an event, or give a milestone a due date.'}
              </p>
            </div>
          ) : null}
          {view === 'month' ? (
            <MonthGrid
              anchor={day}
              today={today}
              weekStartsOn={weekStartsOn}
              locale={locale}
              byDay={byDay}
              chosenDay={chosenDay}
              onChooseDay={setSelectedDay}
              dropProps={dropProps}
              chip={chip}
              title={title}
            />
          ) : null}
          {view === 'week' ? (
            <ol aria-label={`Week of ${title}`} className="grid gap-2 sm:grid-cols-7">
              {weekDays(day, weekStartsOn).map((value) => {
                const list = byDay.get(value) ?? [];
                return (
                  <li
                    key={value}
                    {...dropProps(value)}
                    className="flex min-w-0 flex-col gap-1.5 rounded-xl border border-border bg-surface p-2 data-drop-target:ring-2 data-drop-target:ring-ring sm:min-h-64"
                  >
                    <h3
                      className={`text-sm font-semibold ${value === today ? 'text-brand' : 'text-fg'}`}
                    >
                      {formatDay(value, locale, {
                        weekday: 'short',
                        day: 'numeric',
                        month: 'short',
                      })}
                      {value === today ? <span className="sr-only"> (today)</span> : null}
                    </h3>
                    {list.length === 0 ? (
                      <p className="text-xs text-fg-muted">Nothing</p>
                    ) : (
                      <ul className="flex flex-col gap-1">
                        {list.map((item) => (
                          <li key={item.key}>{chip(item, value, { detailed: true })}</li>
                        ))}
                      </ul>
                    )}
                  </li>
                );
              })}
            </ol>
          ) : null}
          {view === 'agenda' ? (
            <Agenda
              from={range.from}
              to={range.to}
              today={today}
              locale={locale}
              byDay={byDay}
              chip={chip}
            />
          ) : null}
        </>
      )}

      {dialog?.kind === 'item' ? (
        <ItemDialog
          item={dialog.item}
          locale={locale}
          onClose={() => setDialog(null)}
          onMove={async (item, to) => {
            await move(item, item.start, to);
            focusWhenReady(itemButtonSelector(item, to));
          }}
        />
      ) : null}
      {dialog?.kind === 'event' ? (
        <EventDialog
          ctx={ctx}
          workspaceId={workspace.id}
          timeZone={timeZone}
          projects={allProjects ?? []}
          event={dialog.event}
          day={dialog.day}
          projectId={project?.id ?? null}
          onClose={() => setDialog(null)}
          onSaved={(saved, created) =>
            toaster.show({
              tone: 'success',
              message: `Event “${saved}” ${created ? 'added' : 'saved'}`,
            })
          }
          onDelete={removeEvent}
        />
      ) : null}
    </section>
  );
}

const NEW_EVENT_SELECTOR = '[data-calendar-new-event]';

/**
 * A selector for the event chip to focus once the event `eventId` is gone: the first other event
 * shown after the chip it was opened from (or after its first chip) in the view's order, else the
 * last one before; null when no other event is shown. Hidden chips are skipped (a phone's month
 * shows a cell's chips as dots and lists the chosen day's; the list's chips have ids of their
 * own).
 */
function focusAfterRemoving(
  view: HTMLElement | null,
  eventId: string,
  openedFrom: Element | null,
): string | null {
  if (!view) return null;
  const chips = [...view.querySelectorAll<HTMLElement>('button[id^="cal-event-"]')].filter(
    // Without layout (checkVisibility missing) every chip counts as shown.
    (chip) => !('checkVisibility' in chip) || chip.checkVisibility(),
  );
  const from =
    openedFrom instanceof HTMLElement &&
    chips.includes(openedFrom) &&
    isChipOf(openedFrom.id, 'event', eventId)
      ? chips.indexOf(openedFrom)
      : chips.findIndex((chip) => isChipOf(chip.id, 'event', eventId));
  if (from === -1) return null;
  const others = (list: HTMLElement[]) =>
    list.filter((chip) => !isChipOf(chip.id, 'event', eventId));
  const target = others(chips.slice(from + 1))[0] ?? others(chips.slice(0, from)).at(-1);
  if (!target) return null;
  return `#${CSS.escape(target.id)}`;
}

type DropProps = (day: Day) => Record<string, unknown>;
type ChipRender = (
  item: CalendarItem,
  on: Day,
  options?: { detailed?: boolean; drag?: boolean; listed?: boolean },
) => ReactNode;

function MonthGrid({
  anchor,
  today,
  weekStartsOn,
  locale,
  byDay,
  chosenDay,
  onChooseDay,
  dropProps,
  chip,
  title,
}: {
  anchor: Day;
  today: Day;
  weekStartsOn: ReturnType<typeof weekStartOf>;
  locale: string;
  byDay: Map<Day, CalendarItem[]>;
  chosenDay: Day;
  onChooseDay: (day: Day) => void;
  dropProps: DropProps;
  chip: ChipRender;
  title: string;
}) {
  const weeks = monthWeeks(anchor, weekStartsOn);
  const month = anchor.slice(0, 7);
  const chosen = byDay.get(chosenDay) ?? [];
  return (
    <div className="flex flex-col gap-4">
      <table className="w-full table-fixed border-collapse overflow-hidden rounded-xl border border-border bg-surface">
        <caption className="sr-only">{title}</caption>
        <thead>
          <tr>
            {(weeks[0] ?? []).map((value) => (
              <th
                key={value}
                scope="col"
                className="border-b border-border px-1 py-2 text-center text-xs font-semibold text-fg-muted"
              >
                <abbr
                  title={formatDay(value, locale, { weekday: 'long' })}
                  className="no-underline"
                >
                  {formatDay(value, locale, { weekday: 'short' })}
                </abbr>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {weeks.map((week) => (
            <tr key={week[0]}>
              {week.map((value) => {
                const list = byDay.get(value) ?? [];
                const outside = value.slice(0, 7) !== month;
                const isChosen = value === chosenDay;
                return (
                  <td
                    key={value}
                    {...dropProps(value)}
                    className={`h-14 border border-border p-0.5 align-top data-drop-target:bg-brand-soft sm:h-28 sm:p-1 ${outside ? 'bg-surface-muted/60' : ''}`}
                  >
                    <button
                      type="button"
                      aria-pressed={isChosen}
                      onClick={() => onChooseDay(value)}
                      aria-label={`${formatDay(value, locale, { weekday: 'long', day: 'numeric', month: 'long' })}${value === today ? ', today' : ''}: ${list.length === 0 ? 'nothing' : `${list.length} ${list.length === 1 ? 'item' : 'items'}`}`}
                      className={`flex w-full cursor-pointer flex-col items-center gap-1 rounded-md py-0.5 text-xs focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none sm:items-start sm:px-1 ${isChosen ? 'bg-brand-soft sm:bg-transparent' : ''}`}
                    >
                      <span
                        className={`inline-flex size-6 items-center justify-center rounded-full font-semibold ${value === today ? 'bg-brand text-on-brand' : outside ? 'text-fg-muted' : 'text-fg'}`}
                      >
                        {Number(value.slice(8))}
                      </span>
                      {list.length > 0 ? (
                        <span aria-hidden="true" className="flex gap-0.5 sm:hidden">
                          {list.slice(0, 3).map((item) => (
                            <span
                              key={item.key}
                              className={`size-1.5 rounded-full ${item.kind === 'event' ? 'bg-brand' : item.kind === 'milestone' ? 'bg-success' : 'bg-fg-muted'}`}
                            />
                          ))}
                        </span>
                      ) : null}
                    </button>
                    {list.length > 0 ? (
                      <ul className="mt-0.5 hidden flex-col gap-0.5 sm:flex">
                        {list.slice(0, CELL_ITEMS).map((item) => (
                          <li key={item.key}>{chip(item, value)}</li>
                        ))}
                        {list.length > CELL_ITEMS ? (
                          <li>
                            <button
                              type="button"
                              onClick={() => onChooseDay(value)}
                              className="cursor-pointer rounded px-1 text-xs font-medium text-brand underline underline-offset-2 focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
                            >
                              {list.length - CELL_ITEMS} more
                            </button>
                          </li>
                        ) : null}
                      </ul>
                    ) : null}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      <section aria-labelledby="calendar-chosen-day" className="flex flex-col gap-2">
        <h3 id="calendar-chosen-day" className="text-base font-semibold text-fg">
          {formatDay(chosenDay, locale, { weekday: 'long', day: 'numeric', month: 'long' })}
          {chosenDay === today ? <span className="font-normal text-fg-muted"> · Today</span> : null}
        </h3>
        {chosen.length === 0 ? (
          <p className="text-sm text-fg-muted">Nothing on this day.</p>
        ) : (
          <ul className="grid gap-1.5 sm:grid-cols-2 lg:grid-cols-3">
            {chosen.map((item) => (
              <li key={item.key}>
                {chip(item, chosenDay, { detailed: true, drag: false, listed: true })}
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

function Agenda({
  from,
  to,
  today,
  locale,
  byDay,
  chip,
}: {
  from: Day;
  to: Day;
  today: Day;
  locale: string;
  byDay: Map<Day, CalendarItem[]>;
  chip: ChipRender;
}) {
  const days = [...byDay.keys()].filter((value) => value >= from && value <= to).sort();
  if (days.length === 0) {
    return (
      <p className="rounded-xl border border-border bg-surface p-4 text-sm text-fg-muted">
        Nothing scheduled from {formatDay(from, locale, { day: 'numeric', month: 'long' })} to{' '}
        {formatDay(to, locale, { day: 'numeric', month: 'long', year: 'numeric' })}.
      </p>
    );
  }
  return (
    <ol aria-label="Agenda" className="flex flex-col gap-4">
      {days.map((value) => (
        <li key={value} className="flex flex-col gap-1.5 sm:flex-row sm:gap-4">
          <h3
            className={`text-sm font-semibold sm:w-40 sm:shrink-0 sm:pt-1 ${value === today ? 'text-brand' : 'text-fg'}`}
          >
            {formatDay(value, locale, { weekday: 'short', day: 'numeric', month: 'short' })}
            {value === today ? <span className="font-normal"> · Today</span> : null}
          </h3>
          <ul className="flex min-w-0 flex-1 flex-col gap-1.5">
            {(byDay.get(value) ?? []).map((item) => (
              <li key={item.key}>{chip(item, value, { detailed: true, drag: false })}</li>
            ))}
          </ul>
        </li>
      ))}
    </ol>
  );
}
