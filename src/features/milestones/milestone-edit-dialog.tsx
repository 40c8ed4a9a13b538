/**
 * Edit a milestone: every editable field in one dialog, saved as a patch of the fields that
 * changed. A refused change keeps what was typed and says why beside the field.
 */
import {
  milestoneStatuses,
  milestoneStatusWords,
  type MilestoneStatus,
} from '#contract/entities/milestone.ts';
import { useState, type FormEvent } from 'react';
import {
  Dialog,
  FieldError,
  Heading,
  Label,
  Modal,
  ModalOverlay,
  Switch,
  TextArea,
  TextField,
} from 'react-aria-components';
import type { LocalWriteContext } from '../../db/local-write.ts';
import { milestoneWrites, type LocalMilestone } from '../../data/project-work.ts';
import { writeErrorFields, type WriteErrorFields } from '../../data/write-error-fields.ts';
import { Button } from '../../ui/button.tsx';
import { FormTextField, inputClassName, labelClassName } from '../../ui/form-text-field.tsx';
import { SelectField } from '../../ui/select-field.tsx';
import { amountText, parseAmount } from './milestone-format.ts';

const statusOptions = milestoneStatuses.map((id) => ({ id, label: milestoneStatusWords[id] }));

export interface MilestoneEditDialogProps {
  milestone: LocalMilestone;
  ctx: LocalWriteContext;
  onClose: () => void;
}

export function MilestoneEditDialog({ milestone, ctx, onClose }: MilestoneEditDialogProps) {
  return (
    <ModalOverlay
      isOpen
      isDismissable
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      className="fixed inset-0 z-50 flex items-end justify-center bg-black/50 sm:items-center sm:p-4"
    >
      <Modal className="max-h-dvh w-full overflow-y-auto rounded-t-2xl border border-border bg-surface text-fg shadow-xl sm:max-h-[calc(100dvh-2rem)] sm:max-w-xl sm:rounded-2xl">
        <Dialog className="outline-none">
          <EditForm milestone={milestone} ctx={ctx} onClose={onClose} />
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}

function EditForm({ milestone, ctx, onClose }: MilestoneEditDialogProps) {
  const [title, setTitle] = useState(milestone.title);
  const [description, setDescription] = useState(milestone.description ?? '');
  const [dueDate, setDueDate] = useState(milestone.dueDate ?? '');
  const [amount, setAmount] = useState(amountText(milestone.amount, milestone.currency));
  const [currency, setCurrency] = useState(milestone.currency);
  const [status, setStatus] = useState<MilestoneStatus>(milestone.status);
  // Rows stored before the field existed have no value: they were shown, as the default says.
  const wasVisible = milestone.visibleToClient !== false;
  const [visibleToClient, setVisibleToClient] = useState(wasVisible);
  const [errors, setErrors] = useState<WriteErrorFields>({});
  const [isSaving, setSaving] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const code = currency.trim().toUpperCase();
    const parsed = parseAmount(amount, code);
    if ('error' in parsed) {
      setErrors({ amount: parsed.error });
      return;
    }
    const next = {
      title: title.trim(),
      description: description.trim() === '' ? null : description,
      dueDate: dueDate === '' ? null : dueDate,
      amount: parsed.minor,
      currency: code,
      status,
      visibleToClient,
    };
    const before = { ...milestone, visibleToClient: wasVisible };
    const patch = Object.fromEntries(
      Object.entries(next).filter(([key, value]) => before[key as keyof typeof next] !== value),
    ) as Partial<typeof next>;
    setErrors({});
    setSaving(true);
    try {
      await milestoneWrites.update(ctx, milestone.id, patch);
      onClose();
    } catch (error) {
      setErrors(writeErrorFields(error));
      setSaving(false);
    }
  };

  return (
    <form
      onSubmit={(event) => void submit(event)}
      noValidate
      className="flex flex-col gap-4 p-5 sm:p-6"
    >
      <Heading slot="title" className="text-xl font-semibold text-fg">
        Edit milestone
      </Heading>
      <FormTextField
        label="Title"
        name="title"
        value={title}
        onChange={setTitle}
        error={errors.title}
        autoFocus
      />
      <TextField
        value={description}
        onChange={setDescription}
        isInvalid={errors.description !== undefined}
        validationBehavior="aria"
        className="flex flex-col gap-1.5"
      >
        <Label className={labelClassName}>Description</Label>
        <TextArea
          name="description"
          rows={3}
          placeholder="What the client approves at this stage"
          className={`${inputClassName} py-2`}
        />
        <FieldError className="text-sm font-medium text-danger">{errors.description}</FieldError>
      </TextField>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormTextField
          label="Due date"
          name="dueDate"
          type="date"
          value={dueDate}
          onChange={setDueDate}
          error={errors.dueDate}
        />
        <SelectField
          label="Status"
          options={statusOptions}
          value={status}
          onChange={setStatus}
          error={errors.status}
        />
        <FormTextField
          label="Amount"
          name="amount"
          inputMode="decimal"
          value={amount}
          onChange={setAmount}
          error={errors.amount}
          placeholder="No amount"
        />
        <FormTextField
          label="Currency"
          name="currency"
          value={currency}
          maxLength={3}
          onChange={(text) => setCurrency(text.toUpperCase())}
          error={errors.currency}
        />
      </div>
      <div className="flex flex-col gap-1">
        <Switch
          name="visibleToClient"
          isSelected={visibleToClient}
          onChange={setVisibleToClient}
          aria-describedby="milestone-visible-help"
          className="group flex min-h-11 cursor-pointer items-center gap-3 self-start text-sm font-medium text-fg outline-none"
        >
          <span className="flex h-6 w-10 shrink-0 items-center rounded-full border border-border-strong bg-surface-muted px-0.5 transition-colors group-data-focus-visible:ring-2 group-data-focus-visible:ring-ring group-data-selected:border-brand group-data-selected:bg-brand">
            <span className="size-4.5 rounded-full bg-fg-muted transition-transform group-data-selected:translate-x-4 group-data-selected:bg-on-brand motion-reduce:transition-none" />
          </span>
          Show in the client portal
        </Switch>
        <p id="milestone-visible-help" className="pl-13 text-sm text-fg-muted">
          {visibleToClient
            ? 'Your client sees this milestone in the portal.'
            : 'Hidden from your client: the portal leaves this milestone out.'}
        </p>
        {errors.visibleToClient ? (
          <p className="pl-13 text-sm font-medium text-danger">{errors.visibleToClient}</p>
        ) : null}
      </div>
      {errors.form ? (
        <p role="alert" className="text-sm font-medium text-danger">
          {errors.form}
        </p>
      ) : null}
      <div className="mt-2 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <Button variant="secondary" onPress={onClose}>
          Cancel
        </Button>
        <Button type="submit" isPending={isSaving}>
          Save changes
        </Button>
      </div>
    </form>
  );
}
