/**
 * The "Apply to milestones" step of an approved or accepted change: add a milestone for it
 * (prefilled from the request: its title, its cost when the change costs money, its wanted-by
 * date) and move the due dates of the milestones it pushes back, with a preview of each move.
 * One press queues it all in one local transaction (change-request-mutations.ts), offline too.
 */
import { milestoneStatusWords } from '#contract/entities/milestone.ts';
import { ArrowLeft } from 'lucide-react';
import { useState, type FormEvent, type ReactNode } from 'react';
import { Checkbox, CheckboxGroup, Label, Text } from 'react-aria-components';
import { applyChangeRequest, type ApplyChangeResult } from '../../data/change-request-mutations.ts';
import type { LocalChangeRequest } from '../../data/change-request-queries.ts';
import { addDays } from '../../data/project-queries.ts';
import { useMilestones, type LocalMilestone } from '../../data/project-work.ts';
import { writeErrorFields, type WriteErrorFields } from '../../data/write-error-fields.ts';
import { Button } from '../../ui/button.tsx';
import { FormTextField } from '../../ui/form-text-field.tsx';
import { SheetActions } from '../../ui/sheet.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { amountText, parseAmount } from '../milestones/milestone-format.ts';
import { useSync, useWriteContext } from '../workspace/sync-context.tsx';
import { formatScheduleDays, formatShortDate } from './change-request-format.ts';

export interface ApplyToMilestonesProps {
  request: LocalChangeRequest;
  projectName: string;
  onBack: () => void;
  onApplied: (result: ApplyChangeResult) => void;
}

export function ApplyToMilestones(props: ApplyToMilestonesProps) {
  const { handle } = useSync();
  const { request } = props;
  const milestones = useMilestones(handle.db, request.workspaceId, request.projectId);
  if (milestones === undefined) {
    return (
      <div role="status" className="flex items-center gap-2 py-6 text-fg-muted">
        <Spinner size="small" />
        Loading the project's milestones…
      </div>
    );
  }
  return <ApplyForm {...props} milestones={milestones} />;
}

/** Milestones still to do are moved by default; approved ones are done and stay put. */
function movedByDefault(milestones: readonly LocalMilestone[]): Set<string> {
  return new Set(
    milestones
      .filter((milestone) => milestone.dueDate !== null && milestone.status !== 'approved')
      .map((milestone) => milestone.id),
  );
}

function ApplyForm({
  request,
  projectName,
  milestones,
  onBack,
  onApplied,
}: ApplyToMilestonesProps & { milestones: LocalMilestone[] }) {
  const ctx = useWriteContext();
  const { currency } = request;
  const days = request.scheduleImpactDays ?? 0;
  const dated = milestones.filter((milestone) => milestone.dueDate !== null);
  const [addMilestone, setAddMilestone] = useState(true);
  const [title, setTitle] = useState(request.title);
  const [amount, setAmount] = useState(
    request.costImpact !== null && request.costImpact > 0
      ? amountText(request.costImpact, currency)
      : '',
  );
  const [dueDate, setDueDate] = useState(request.desiredDate ?? '');
  const [moved, setMoved] = useState<Set<string>>(() => movedByDefault(milestones));
  const [errors, setErrors] = useState<WriteErrorFields>({});
  const [isSaving, setSaving] = useState(false);

  // Only milestones still listed: one deleted meanwhile (another device) drops out of the choice.
  const chosen = days === 0 ? [] : dated.filter((milestone) => moved.has(milestone.id));
  const nothingChosen = !addMilestone && chosen.length === 0;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    let minor: number | null = null;
    if (addMilestone) {
      const parsed = parseAmount(amount, currency);
      if ('error' in parsed) {
        setErrors({ amount: parsed.error });
        return;
      }
      minor = parsed.minor;
    }
    setErrors({});
    setSaving(true);
    try {
      const result = await applyChangeRequest(ctx, request.id, {
        milestone: addMilestone
          ? { title, amount: minor, dueDate: dueDate === '' ? null : dueDate }
          : null,
        moveMilestoneIds: chosen.map((milestone) => milestone.id),
      });
      onApplied(result);
    } catch (error) {
      setErrors(writeErrorFields(error));
      setSaving(false);
    }
  };

  return (
    <form onSubmit={(event) => void submit(event)} noValidate className="flex flex-col gap-5">
      <p className="text-sm text-fg-muted">
        Add this change to the plan of {projectName}. Everything you choose here is saved together,
        on this device first.
      </p>
      <section className="flex flex-col gap-4 rounded-xl border border-border p-4">
        <BoxCheckbox isSelected={addMilestone} onChange={setAddMilestone}>
          <span className="font-medium">Add a milestone for this change</span>
        </BoxCheckbox>
        {addMilestone ? (
          <div className="grid gap-4 sm:grid-cols-2">
            <FormTextField
              label="Milestone title"
              name="title"
              value={title}
              onChange={setTitle}
              error={errors.title}
              className="sm:col-span-2"
            />
            <FormTextField
              label={`Amount (${currency})`}
              name="amount"
              inputMode="decimal"
              value={amount}
              onChange={setAmount}
              error={errors.amount}
              placeholder="No amount"
            />
            <FormTextField
              label="Due date"
              name="dueDate"
              type="date"
              value={dueDate}
              onChange={setDueDate}
              error={errors.dueDate}
            />
          </div>
        ) : null}
      </section>
      <section className="flex flex-col gap-3 rounded-xl border border-border p-4">
        {days === 0 ? (
          <p className="text-sm text-fg-muted">
            This change has no timeline impact, so no due dates move.
          </p>
        ) : dated.length === 0 ? (
          <p className="text-sm text-fg-muted">
            No milestone of this project has a due date to move by {formatScheduleDays(days)}.
          </p>
        ) : (
          <CheckboxGroup
            value={[...moved]}
            onChange={(ids) => setMoved(new Set(ids))}
            className="flex flex-col gap-2"
          >
            <Label className="font-medium text-fg">
              Move due dates by {formatScheduleDays(days)}
            </Label>
            <Text slot="description" className="text-sm text-fg-muted">
              Milestones without a due date are not listed.
            </Text>
            <ul className="flex flex-col">
              {dated.map((milestone) => (
                <li key={milestone.id}>
                  <DateMove milestone={milestone} days={days} />
                </li>
              ))}
            </ul>
          </CheckboxGroup>
        )}
      </section>
      {errors.form ? (
        <p role="alert" className="text-sm font-medium text-danger">
          {errors.form}
        </p>
      ) : null}
      <SheetActions>
        <Button variant="secondary" onPress={onBack} isDisabled={isSaving}>
          <ArrowLeft aria-hidden="true" size={16} />
          Back
        </Button>
        <Button type="submit" isPending={isSaving}>
          {nothingChosen ? 'Mark as applied' : 'Apply to milestones'}
        </Button>
      </SheetActions>
    </form>
  );
}

function DateMove({ milestone, days }: { milestone: LocalMilestone; days: number }) {
  const from = milestone.dueDate ?? '';
  return (
    <BoxCheckbox value={milestone.id}>
      <span className="flex min-w-0 flex-1 flex-wrap items-baseline justify-between gap-x-3">
        <span className="min-w-0 break-words">
          {milestone.title}
          {milestone.status === 'approved' ? (
            <span className="text-fg-muted"> · {milestoneStatusWords.approved}</span>
          ) : null}
        </span>
        <span className="text-sm whitespace-nowrap text-fg-muted tabular-nums">
          {formatShortDate(from)}
          <span aria-hidden="true"> → </span>
          <span className="sr-only"> moves to </span>
          <span className="font-medium text-fg">{formatShortDate(addDays(from, days))}</span>
        </span>
      </span>
    </BoxCheckbox>
  );
}

function BoxCheckbox({
  children,
  ...props
}: {
  children: ReactNode;
  value?: string;
  isSelected?: boolean;
  onChange?: (selected: boolean) => void;
}) {
  return (
    <Checkbox
      {...props}
      className="group flex min-h-11 cursor-pointer items-center gap-3 rounded-lg px-1 text-sm text-fg sm:min-h-10"
    >
      <span
        aria-hidden="true"
        className="grid size-5 shrink-0 place-items-center rounded border border-border-strong bg-surface group-data-focus-visible:ring-2 group-data-focus-visible:ring-ring group-data-selected:border-brand group-data-selected:bg-brand"
      >
        <svg
          viewBox="0 0 16 16"
          className="hidden size-3.5 text-on-brand group-data-selected:block"
        >
          <path d="M3 8.5l3 3 7-7" fill="none" stroke="currentColor" strokeWidth="2" />
        </svg>
      </span>
      {children}
    </Checkbox>
  );
}
