/**
 * A milestone, task or project date opened from the calendar: what it is, and "Move to date",
 * the keyboard (and touch) way to do what a drag does: the same patch of the same date field.
 */
import { useState, type FormEvent } from 'react';
import { writeErrorFields } from '../../data/write-error-fields.ts';
import { Button } from '../../ui/button.tsx';
import { FormTextField } from '../../ui/form-text-field.tsx';
import { Sheet, SheetActions } from '../../ui/sheet.tsx';
import { TextLink } from '../../ui/text-link.tsx';
import { formatDay, isDay, type Day } from './calendar-dates.ts';
import { kindWords, type CalendarItem } from './calendar-items.ts';

const tabOf: Record<CalendarItem['kind'], string> = {
  milestone: 'milestones',
  task: 'tasks',
  'project-start': 'overview',
  'project-due': 'overview',
  event: 'calendar',
};

export function projectHref(
  item: Pick<CalendarItem, 'kind' | 'projectId' | 'clientId'>,
): string | null {
  if (!item.projectId || !item.clientId) return null;
  const tab = tabOf[item.kind];
  return `/projects/${encodeURIComponent(item.projectId)}/${encodeURIComponent(item.clientId)}${tab === 'overview' ? '' : `?tab=${tab}`}`;
}

export function ItemDialog({
  item,
  locale,
  onMove,
  onClose,
}: {
  item: CalendarItem;
  locale: string;
  /** Writes the move; rejects with the refusal (shown beside the field). */
  onMove: (item: CalendarItem, to: Day) => Promise<void>;
  onClose: () => void;
}) {
  const [date, setDate] = useState(item.start);
  const [error, setError] = useState<string | undefined>();
  const [isSaving, setSaving] = useState(false);
  const href = projectHref(item);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!isDay(date)) {
      setError('Choose a date');
      return;
    }
    setSaving(true);
    setError(undefined);
    try {
      await onMove(item, date);
      onClose();
    } catch (refusal) {
      const fields = writeErrorFields(refusal);
      setError(Object.values(fields).find(Boolean) ?? 'The date could not be changed.');
      setSaving(false);
    }
  };

  return (
    <Sheet title={item.title} onClose={onClose}>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="text-fg-muted">What</dt>
        <dd className="text-fg">
          {kindWords[item.kind]}
          {item.done ? ' (done)' : ''}
        </dd>
        <dt className="text-fg-muted">When</dt>
        <dd className="text-fg">
          {formatDay(item.start, locale, {
            weekday: 'long',
            day: 'numeric',
            month: 'long',
            year: 'numeric',
          })}
        </dd>
        {item.projectName ? (
          <>
            <dt className="text-fg-muted">Project</dt>
            <dd className="min-w-0 break-words text-fg">
              {href ? <TextLink href={href}>{item.projectName}</TextLink> : item.projectName}
            </dd>
          </>
        ) : null}
      </dl>
      {item.pending ? (
        <p className="text-sm text-fg-muted">Not synced yet: it goes to the server when online.</p>
      ) : null}
      <form onSubmit={(event) => void submit(event)} noValidate className="flex flex-col gap-4">
        <FormTextField
          label="Move to date"
          name="moveTo"
          type="date"
          value={date}
          onChange={setDate}
          error={error}
          autoFocus
        />
        <SheetActions>
          <Button variant="secondary" onPress={onClose}>
            Close
          </Button>
          <Button type="submit" isPending={isSaving} isDisabled={date === item.start}>
            Move
          </Button>
        </SheetActions>
      </form>
    </Sheet>
  );
}
