/**
 * Create or edit a calendar event: title, all day or times (read in the workspace's time zone),
 * project, location, reminder and notes. Saved on the device through the outbox (offline too);
 * the contract's schema and rules check it first, so an end before the start is said beside the
 * end field, focus moves to the first field refused, and nothing is queued. Moving the start date moves the end date with it, as in any
 * calendar app. Editing offers Delete (with Undo).
 */
import { useId, useRef, useState, type FormEvent } from 'react';
import { FieldError, Label, Switch, TextArea, TextField } from 'react-aria-components';
import type { LocalProject } from '../../db/app-database.ts';
import {
  createCalendarEvent,
  updateCalendarEvent,
  type LocalCalendarEvent,
} from '../../data/calendar.ts';
import { writeErrorFields, type WriteErrorFields } from '../../data/write-error-fields.ts';
import type { LocalWriteContext } from '../../db/local-write.ts';
import { Button } from '../../ui/button.tsx';
import { FormTextField, inputClassName, labelClassName } from '../../ui/form-text-field.tsx';
import { SelectField } from '../../ui/select-field.tsx';
import { Sheet, SheetActions } from '../../ui/sheet.tsx';
import { addDays, daysBetween, isDay, zonedInstant, type Day } from './calendar-dates.ts';
import { focusWhenReady } from '../../ui/focus-when-ready.ts';
import { eventPlacement } from './calendar-items.ts';

const NO_PROJECT = 'none';
const NO_REMINDER = 'none';

const reminderChoices: { minutes: number; label: string }[] = [
  { minutes: 0, label: 'At the start' },
  { minutes: 5, label: '5 minutes before' },
  { minutes: 10, label: '10 minutes before' },
  { minutes: 15, label: '15 minutes before' },
  { minutes: 30, label: '30 minutes before' },
  { minutes: 60, label: '1 hour before' },
  { minutes: 120, label: '2 hours before' },
  { minutes: 1440, label: '1 day before' },
  { minutes: 10_080, label: '1 week before' },
];

export interface EventDialogProps {
  ctx: LocalWriteContext;
  workspaceId: string;
  timeZone: string;
  projects: readonly LocalProject[];
  /** The event to edit; absent: a new one on `day`. */
  event?: LocalCalendarEvent | undefined;
  day: Day;
  /** A new event's project (the project's own calendar). */
  projectId?: string | null;
  onClose: () => void;
  /** After a save: what was written (for the screen's announcement). */
  onSaved: (title: string, created: boolean) => void;
  onDelete?: ((event: LocalCalendarEvent) => void) | undefined;
}

export function EventDialog(props: EventDialogProps) {
  return (
    <Sheet title={props.event ? 'Edit event' : 'New event'} onClose={props.onClose} wide>
      <EventForm {...props} />
    </Sheet>
  );
}

function EventForm({
  ctx,
  workspaceId,
  timeZone,
  projects,
  event,
  day,
  projectId: presetProject = null,
  onClose,
  onSaved,
  onDelete,
}: EventDialogProps) {
  const placed = event ? eventPlacement(event, timeZone) : null;
  const [title, setTitle] = useState(event?.title ?? '');
  const [allDay, setAllDay] = useState(placed ? placed.time === null : false);
  const [startDay, setStartDay] = useState(placed?.start ?? day);
  const [endDay, setEndDay] = useState(
    placed ? (placed.time === null ? placed.end : event ? endDayOf(event, timeZone) : day) : day,
  );
  const [startTime, setStartTime] = useState(placed?.time ?? '09:00');
  const [endTime, setEndTime] = useState(placed?.endTime ?? '10:00');
  const [projectId, setProjectId] = useState(event?.projectId ?? presetProject ?? NO_PROJECT);
  const [location, setLocation] = useState(event?.location ?? '');
  const [reminder, setReminder] = useState(
    event?.reminderMinutes === null || event?.reminderMinutes === undefined
      ? NO_REMINDER
      : String(event.reminderMinutes),
  );
  const [notes, setNotes] = useState(event?.notes ?? '');
  const [errors, setErrors] = useState<WriteErrorFields>({});
  const [isSaving, setSaving] = useState(false);
  const helpId = useId();
  const formId = useId();

  // The last whole start date: a date field passes through empty while it is retyped.
  const lastStart = useRef(startDay);
  const moveStart = (next: string) => {
    // The end keeps its distance from the start.
    if (isDay(next)) {
      if (isDay(lastStart.current) && isDay(endDay))
        setEndDay(addDays(endDay, daysBetween(lastStart.current, next)));
      lastStart.current = next;
    }
    setStartDay(next);
  };

  const projectOptions = [
    { id: NO_PROJECT, label: 'No project' },
    ...projects
      .filter((project) => !project.archived || project.id === projectId)
      .map((project) => ({ id: project.id, label: project.name })),
  ];
  const reminderOptions = [
    { id: NO_REMINDER, label: 'No reminder' },
    ...reminderChoices.map((choice) => ({ id: String(choice.minutes), label: choice.label })),
  ];
  if (!reminderOptions.some((option) => option.id === reminder)) {
    reminderOptions.push({ id: reminder, label: `${reminder} minutes before` });
  }

  const submit = async (formEvent: FormEvent) => {
    formEvent.preventDefault();
    const timed = (date: string, time: string) =>
      isDay(date) && /^\d{2}:\d{2}$/.test(time) ? zonedInstant(date, time, timeZone) : date;
    const values = {
      title,
      start: allDay ? startDay : timed(startDay, startTime),
      end: allDay ? endDay : timed(endDay, endTime),
      projectId: projectId === NO_PROJECT ? null : projectId,
      location: location.trim() === '' ? null : location.trim(),
      reminderMinutes: reminder === NO_REMINDER ? null : Number(reminder),
      notes: notes.trim() === '' ? null : notes,
    };
    setErrors({});
    setSaving(true);
    try {
      if (event) {
        const patch = Object.fromEntries(
          Object.entries(values).filter(
            ([key, value]) => event[key as keyof typeof values] !== value,
          ),
        );
        if (Object.keys(patch).length > 0) await updateCalendarEvent(ctx, event.id, patch);
      } else {
        await createCalendarEvent(ctx, { workspaceId, ...values });
      }
      onSaved(values.title.trim(), !event);
      onClose();
    } catch (error) {
      const fields = writeErrorFields(error);
      setErrors(fields);
      setSaving(false);
      // Focus would stay on "Add event": take it to the first field that needs fixing, once drawn
      // invalid (a refusal of the whole form is read out by its alert instead).
      if (Object.keys(fields).some((key) => key !== 'form'))
        focusWhenReady(`#${CSS.escape(formId)} [aria-invalid="true"]`);
    }
  };

  return (
    <form id={formId} onSubmit={(e) => void submit(e)} noValidate className="flex flex-col gap-4">
      <FormTextField
        label="Title"
        name="title"
        value={title}
        onChange={setTitle}
        error={errors.title}
        autoFocus
      />
      <Switch
        isSelected={allDay}
        onChange={setAllDay}
        className="group flex min-h-11 cursor-pointer items-center gap-3 self-start text-sm font-medium text-fg outline-none"
      >
        <span className="flex h-6 w-10 shrink-0 items-center rounded-full border border-border-strong bg-surface-muted px-0.5 transition-colors group-data-focus-visible:ring-2 group-data-focus-visible:ring-ring group-data-selected:border-brand group-data-selected:bg-brand">
          <span className="size-4.5 rounded-full bg-fg-muted transition-transform group-data-selected:translate-x-4 group-data-selected:bg-on-brand motion-reduce:transition-none" />
        </span>
        All day
      </Switch>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormTextField
          label="Starts"
          name="startDate"
          type="date"
          value={startDay}
          onChange={moveStart}
          error={errors.start}
        />
        {allDay ? null : (
          <FormTextField
            label="Start time"
            name="startTime"
            type="time"
            value={startTime}
            onChange={setStartTime}
          />
        )}
        <FormTextField
          label="Ends"
          name="endDate"
          type="date"
          value={endDay}
          onChange={setEndDay}
          error={errors.end}
        />
        {allDay ? null : (
          <FormTextField
            label="End time"
            name="endTime"
            type="time"
            value={endTime}
            onChange={setEndTime}
          />
        )}
      </div>
      {allDay ? null : (
        <p id={helpId} className="-mt-2 text-sm text-fg-muted">
          Times are in the workspace's time zone ({timeZone.replace(/_/g, ' ')}).
        </p>
      )}
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField
          label="Project"
          options={projectOptions}
          value={projectId}
          onChange={setProjectId}
          error={errors.projectId}
        />
        <SelectField
          label="Reminder"
          options={reminderOptions}
          value={reminder}
          onChange={setReminder}
          error={errors.reminderMinutes}
        />
      </div>
      <FormTextField
        label="Location"
        name="location"
        value={location}
        onChange={setLocation}
        error={errors.location}
        placeholder="An address or a call link"
      />
      <TextField
        value={notes}
        onChange={setNotes}
        isInvalid={errors.notes !== undefined}
        validationBehavior="aria"
        className="flex flex-col gap-1.5"
      >
        <Label className={labelClassName}>Notes</Label>
        <TextArea name="notes" rows={3} className={`${inputClassName} py-2`} />
        <FieldError className="text-sm font-medium text-danger">{errors.notes}</FieldError>
      </TextField>
      {errors.form ? (
        <p role="alert" className="text-sm font-medium text-danger">
          {errors.form}
        </p>
      ) : null}
      <SheetActions>
        {event && onDelete ? (
          <Button variant="danger" onPress={() => onDelete(event)} className="sm:mr-auto">
            Delete
          </Button>
        ) : null}
        <Button variant="secondary" onPress={onClose}>
          Cancel
        </Button>
        <Button type="submit" isPending={isSaving}>
          {event ? 'Save changes' : 'Add event'}
        </Button>
      </SheetActions>
    </form>
  );
}

/** The day a timed event ends on (its end instant's day, in the zone). */
function endDayOf(event: LocalCalendarEvent, timeZone: string): Day {
  return eventPlacement({ start: event.end, end: event.end }, timeZone).start;
}
