/**
 * The Milestones tab: the project's stages in order, each with its status, due date and amount
 * (integer minor units, shown in the milestone's currency). Add inline, edit in a dialog, move up
 * or down with buttons (one patch of the order key), delete with Undo (the delete waits in the
 * outbox for the undo window). Everything is a local write, so it works offline.
 */
import { milestoneStatusWords, signOffStands } from '#contract/entities/milestone.ts';
import {
  ArrowDown,
  ArrowUp,
  CircleCheck,
  EyeOff,
  Flag,
  MessageSquareWarning,
  Pencil,
  Plus,
  Trash,
} from 'lucide-react';
import { useEffect, useRef, useState, type FormEvent, type RefObject } from 'react';
import { flushSync } from 'react-dom';
import type { LocalProject } from '../../db/app-database.ts';
import { cancelQueuedChange } from '../../sync/sync-client.ts';
import {
  milestoneProgress,
  milestoneWrites,
  moveMilestone,
  useMilestones,
  type LocalMilestone,
} from '../../data/project-work.ts';
import { orderKeyBetween } from '#contract/entities/order-key.ts';
import { writeErrorFields, type WriteErrorFields } from '../../data/write-error-fields.ts';
import { Button } from '../../ui/button.tsx';
import { FormTextField } from '../../ui/form-text-field.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { useToast } from '../../ui/use-toast.ts';
import { useSync, useWriteContext } from '../workspace/sync-context.tsx';
import { MilestoneEditDialog } from './milestone-edit-dialog.tsx';
import {
  formatAmount,
  formatDate,
  localToday,
  milestoneBadgeClasses,
  parseAmount,
} from './milestone-format.ts';
import { ProgressBar } from './progress-bar.tsx';
import { showUndoNotice } from '../../ui/undo-notice.ts';
import { focusFirstInvalid } from '../auth/field-errors.ts';

/** How long Undo is offered after a delete; the delete waits this long in the outbox. */
const UNDO_WINDOW_MS = 8000;

export function MilestonesTab({ project }: { project: LocalProject }) {
  const { handle } = useSync();
  const ctx = useWriteContext();
  const toaster = useToast();
  const milestones = useMilestones(handle.db, project.workspaceId, project.id);
  const [editing, setEditing] = useState<LocalMilestone | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const [listError, setListError] = useState<string | null>(null);
  /** After a move or a delete, where focus goes once the list has re-rendered. */
  const pendingFocus = useRef<
    { id: string; target: 'up' | 'down' | 'edit'; index?: number } | 'add' | null
  >(null);
  const addTitleRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    const want = pendingFocus.current;
    if (!want || milestones === undefined) return;
    // A re-render from another change (a pull) may come before the move's own: wait for the row
    // to be where the move puts it, or focus would land on a button the move then disables.
    if (
      want !== 'add' &&
      want.index !== undefined &&
      milestones.findIndex((row) => row.id === want.id) !== want.index
    )
      return;
    pendingFocus.current = null;
    if (want === 'add') {
      addTitleRef.current?.focus();
      return;
    }
    const order: ('up' | 'down' | 'edit')[] = [want.target, 'down', 'up', 'edit'];
    for (const target of order) {
      const element = document.getElementById(`milestone-${want.id}-${target}`);
      if (element && !element.hasAttribute('disabled') && !element.hasAttribute('data-disabled')) {
        element.focus();
        return;
      }
    }
  }, [milestones]);

  if (milestones === undefined) {
    return (
      <div role="status" className="flex items-center justify-center gap-2 py-12 text-fg-muted">
        <Spinner size="small" />
        Loading milestones…
      </div>
    );
  }

  const move = async (index: number, direction: 'up' | 'down') => {
    const milestone = milestones[index];
    if (!milestone) return;
    // Up: between the two rows above; down: between the two rows below.
    const [before, after] =
      direction === 'up'
        ? [milestones[index - 2] ?? null, milestones[index - 1] ?? null]
        : [milestones[index + 1] ?? null, milestones[index + 2] ?? null];
    if ((direction === 'up' && index === 0) || (direction === 'down' && !before)) return;
    setListError(null);
    try {
      pendingFocus.current = {
        id: milestone.id,
        target: direction,
        index: direction === 'up' ? index - 1 : index + 1,
      };
      await moveMilestone(ctx, milestone.id, before?.position ?? null, after?.position ?? null);
      const place = direction === 'up' ? index : index + 2;
      setAnnouncement(`“${milestone.title}” moved to position ${place} of ${milestones.length}.`);
    } catch (error) {
      pendingFocus.current = null;
      setListError(writeErrorFields(error).form ?? 'The milestone could not be moved.');
    }
  };

  const remove = async (index: number) => {
    const milestone = milestones[index];
    if (!milestone) return;
    const next = milestones[index + 1] ?? milestones[index - 1];
    setListError(null);
    try {
      const mutationId = await milestoneWrites.delete(ctx, milestone.id, {
        undoWindowMs: UNDO_WINDOW_MS,
      });
      pendingFocus.current = next ? { id: next.id, target: 'edit' } : 'add';
      showUndoNotice(toaster, {
        message: `Milestone “${milestone.title}” deleted`,
        durationMs: UNDO_WINDOW_MS,
        undo: () => {
          // Back on the list, the restored milestone takes focus (the Undo button is gone).
          pendingFocus.current = { id: milestone.id, target: 'edit' };
          void cancelQueuedChange(ctx.db, mutationId).then((undone) => {
            if (!undone) {
              pendingFocus.current = null;
              toaster.show({
                tone: 'error',
                message: `Too late to undo: “${milestone.title}” is deleted.`,
              });
            } else {
              setAnnouncement(`“${milestone.title}” restored.`);
            }
          });
        },
      });
    } catch (error) {
      setListError(writeErrorFields(error).form ?? 'The milestone could not be deleted.');
    }
  };

  const progress = milestoneProgress(milestones);
  const today = localToday();

  return (
    <div className="flex flex-col gap-6">
      <p role="status" className="sr-only">
        {announcement}
      </p>
      <h2 className="sr-only">Milestones</h2>
      {progress ? (
        <section
          aria-label="Milestone progress"
          className="flex flex-col gap-2 rounded-2xl border border-border bg-surface p-4 sm:p-5"
        >
          <ProgressBar
            label="Milestones approved"
            value={progress.percent}
            valueText={`${progress.approved} of ${progress.total} milestones approved`}
          />
        </section>
      ) : null}
      {listError ? (
        <p role="alert" className="text-sm font-medium text-danger">
          {listError}
        </p>
      ) : null}
      {milestones.length === 0 ? (
        <section
          aria-labelledby="milestones-empty"
          className="flex flex-col items-center gap-2 rounded-2xl border border-dashed border-border-strong p-6 text-center sm:p-8"
        >
          <Flag aria-hidden="true" size={28} className="text-fg-muted" />
          <h3 id="milestones-empty" className="text-lg font-semibold text-fg">
            No milestones yet
          </h3>
          <p className="max-w-prose text-fg-muted">
            Break the project into stages your client approves: a first draft, a design review, the
            launch. Each milestone can carry a due date and the amount you invoice when it is
            approved, and the overview shows how far along you are.
          </p>
        </section>
      ) : (
        <ol aria-label="Milestones" className="flex flex-col gap-3">
          {milestones.map((milestone, index) => (
            <MilestoneRow
              key={milestone.id}
              milestone={milestone}
              index={index}
              count={milestones.length}
              today={today}
              onMove={(direction) => void move(index, direction)}
              onEdit={() => setEditing(milestone)}
              onDelete={() => void remove(index)}
            />
          ))}
        </ol>
      )}
      <AddMilestoneForm
        project={project}
        last={milestones.at(-1)}
        titleRef={addTitleRef}
        onAdded={(title) => setAnnouncement(`Milestone “${title}” added.`)}
      />
      {editing ? (
        <MilestoneEditDialog
          milestone={milestones.find((row) => row.id === editing.id) ?? editing}
          ctx={ctx}
          onClose={() => setEditing(null)}
        />
      ) : null}
    </div>
  );
}

interface MilestoneRowProps {
  milestone: LocalMilestone;
  index: number;
  count: number;
  today: string;
  onMove: (direction: 'up' | 'down') => void;
  onEdit: () => void;
  onDelete: () => void;
}

function MilestoneRow({
  milestone,
  index,
  count,
  today,
  onMove,
  onEdit,
  onDelete,
}: MilestoneRowProps) {
  const { id, title, status, dueDate, amount, currency, signOff, description } = milestone;
  // Rows stored before the field existed have no value: shown, as the default says.
  const hidden = milestone.visibleToClient === false;
  const overdue = dueDate !== null && dueDate < today && status !== 'approved';
  const headingId = `milestone-${id}-title`;
  return (
    <li
      aria-labelledby={headingId}
      className="flex flex-col gap-3 rounded-2xl border border-border bg-surface p-4 sm:flex-row sm:items-start sm:justify-between"
    >
      <div className="flex min-w-0 flex-1 gap-3">
        <span
          aria-hidden="true"
          className="grid size-7 shrink-0 place-items-center rounded-full bg-surface-muted text-sm font-semibold text-fg-muted"
        >
          {index + 1}
        </span>
        <div className="min-w-0 flex-1">
          <h3 id={headingId} className="font-semibold break-words text-fg">
            {title}
          </h3>
          <div className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-fg-muted">
            <span
              className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-semibold whitespace-nowrap ${milestoneBadgeClasses[status]}`}
            >
              {milestoneStatusWords[status]}
            </span>
            <span className={overdue ? 'font-medium text-danger' : ''}>
              {dueDate
                ? `${overdue ? 'Overdue: was due' : 'Due'} ${formatDate(dueDate)}`
                : 'No due date'}
            </span>
            {amount !== null ? (
              <span className="font-medium text-fg tabular-nums">
                {formatAmount(amount, currency)}
              </span>
            ) : null}
            {hidden ? (
              <span className="inline-flex items-center gap-1 whitespace-nowrap">
                <EyeOff aria-hidden="true" size={14} className="shrink-0" />
                Hidden from client
              </span>
            ) : null}
          </div>
          {description ? (
            <p className="mt-2 line-clamp-3 text-sm whitespace-pre-line text-fg-muted">
              {description}
            </p>
          ) : null}
          {signOff && signOffStands(milestone) ? <SignOffRecord signOff={signOff} /> : null}
        </div>
      </div>
      <div className="flex shrink-0 flex-wrap items-center gap-1 pl-10 sm:pl-0">
        <Button
          id={`milestone-${id}-up`}
          variant="ghost"
          size="icon"
          aria-label={`Move “${title}” up`}
          isDisabled={index === 0}
          onPress={() => onMove('up')}
        >
          <ArrowUp aria-hidden="true" size={16} />
        </Button>
        <Button
          id={`milestone-${id}-down`}
          variant="ghost"
          size="icon"
          aria-label={`Move “${title}” down`}
          isDisabled={index === count - 1}
          onPress={() => onMove('down')}
        >
          <ArrowDown aria-hidden="true" size={16} />
        </Button>
        <Button
          id={`milestone-${id}-edit`}
          variant="ghost"
          size="icon"
          aria-label={`Edit “${title}”`}
          onPress={onEdit}
        >
          <Pencil aria-hidden="true" size={16} />
        </Button>
        <Button variant="ghost" size="icon" aria-label={`Delete “${title}”`} onPress={onDelete}>
          <Trash aria-hidden="true" size={16} />
        </Button>
      </div>
    </li>
  );
}

type SignOff = NonNullable<LocalMilestone['signOff']>;

/**
 * The client's decision from the portal, as recorded: who, when, what they said and (members
 * only see this tab) the address it came from, so a disputed approval can be traced.
 */
function SignOffRecord({ signOff }: { signOff: SignOff }) {
  const approved = signOff.decision === 'approved';
  const Icon = approved ? CircleCheck : MessageSquareWarning;
  const comment = signOff.comment?.trim() ?? '';
  return (
    <div
      className={`mt-3 flex gap-2 rounded-xl border px-3 py-2.5 text-sm ${
        approved
          ? 'border-emerald-200 bg-emerald-50 dark:border-emerald-900 dark:bg-emerald-950/40'
          : 'border-rose-200 bg-rose-50 dark:border-rose-900 dark:bg-rose-950/40'
      }`}
    >
      <Icon
        aria-hidden="true"
        size={16}
        className={`mt-0.5 shrink-0 ${
          approved ? 'text-emerald-700 dark:text-emerald-300' : 'text-rose-700 dark:text-rose-300'
        }`}
      />
      <div className="min-w-0 flex-1">
        <p className="break-words text-fg">
          <span className="font-medium">
            {approved ? 'Approved' : 'Changes requested'} by {signOff.by}
          </span>{' '}
          on <SignOffTime at={signOff.at} />
          {signOff.ip ? (
            <span className="text-fg-muted">
              {' '}
              from <span className="tabular-nums">{signOff.ip}</span>
            </span>
          ) : null}
          {comment !== '' ? ':' : null}
        </p>
        {comment !== '' ? (
          <blockquote className="mt-1 border-l-2 border-current/20 pl-2 break-words whitespace-pre-line text-fg">
            “{comment}”
          </blockquote>
        ) : null}
      </div>
    </div>
  );
}

function SignOffTime({ at }: { at: string }) {
  const date = new Date(at);
  if (Number.isNaN(date.getTime())) return <>{at}</>;
  return (
    <time dateTime={at}>
      {date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })}
    </time>
  );
}

interface AddMilestoneFormProps {
  project: LocalProject;
  last: LocalMilestone | undefined;
  titleRef: RefObject<HTMLInputElement | null>;
  onAdded: (title: string) => void;
}

function AddMilestoneForm({ project, last, titleRef, onAdded }: AddMilestoneFormProps) {
  const ctx = useWriteContext();
  const [title, setTitle] = useState('');
  const [dueDate, setDueDate] = useState('');
  const [amount, setAmount] = useState('');
  const [currency, setCurrency] = useState(project.currency);
  const [errors, setErrors] = useState<WriteErrorFields>({});
  const [isSaving, setSaving] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);

  /** Shows refused fields and takes focus there from "Add milestone", as the other forms do. */
  const refuse = (fields: WriteErrorFields) => {
    // Drawn at once (a refusal after an await is outside React's event batch), then focused.
    flushSync(() => setErrors(fields));
    focusFirstInvalid(formRef.current);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const code = currency.trim().toUpperCase();
    const parsed = parseAmount(amount, code);
    if ('error' in parsed) {
      refuse({ amount: parsed.error });
      return;
    }
    setErrors({});
    setSaving(true);
    try {
      const created = await milestoneWrites.create(ctx, {
        workspaceId: project.workspaceId,
        projectId: project.id,
        title,
        dueDate: dueDate === '' ? null : dueDate,
        amount: parsed.minor,
        currency: code,
        position: orderKeyBetween(last?.position ?? null, null),
      });
      setTitle('');
      setDueDate('');
      setAmount('');
      onAdded(created.title);
      titleRef.current?.focus();
    } catch (error) {
      refuse(writeErrorFields(error));
    } finally {
      setSaving(false);
    }
  };

  return (
    <section
      aria-labelledby="milestone-add"
      className="rounded-2xl border border-border bg-surface p-4 sm:p-5"
    >
      <h2 id="milestone-add" className="text-lg font-semibold text-fg">
        Add a milestone
      </h2>
      <form
        ref={formRef}
        onSubmit={(event) => void submit(event)}
        noValidate
        className="mt-3 grid gap-4 sm:grid-cols-2 lg:grid-cols-[2fr_1fr_1fr_6rem_auto] lg:items-start"
      >
        <FormTextField
          label="Milestone title"
          name="title"
          value={title}
          onChange={setTitle}
          error={errors.title}
          inputRef={titleRef}
          placeholder="e.g. First design draft"
          className="sm:col-span-2 lg:col-span-1"
        />
        <FormTextField
          label="Due date"
          name="dueDate"
          type="date"
          value={dueDate}
          onChange={setDueDate}
          error={errors.dueDate}
        />
        <FormTextField
          label="Amount"
          name="amount"
          inputMode="decimal"
          value={amount}
          onChange={setAmount}
          error={errors.amount}
          placeholder="1500.00"
        />
        <FormTextField
          label="Currency"
          name="currency"
          value={currency}
          maxLength={3}
          onChange={(text) => setCurrency(text.toUpperCase())}
          error={errors.currency}
        />
        <div className="flex flex-col gap-1.5 sm:col-span-2 lg:col-span-1">
          {/* Lines the button up with the inputs beside their labels on a wide screen. */}
          <span aria-hidden="true" className="hidden text-sm lg:block">
            &nbsp;
          </span>
          <Button type="submit" isPending={isSaving} className="w-full lg:w-auto">
            <Plus aria-hidden="true" size={16} />
            Add milestone
          </Button>
        </div>
        {errors.form ? (
          <p role="alert" className="text-sm font-medium text-danger sm:col-span-2 lg:col-span-5">
            {errors.form}
          </p>
        ) : null}
      </form>
    </section>
  );
}
