/**
 * "New project" in a dialog. Written locally (and queued for sync) the moment it is submitted, so
 * the project is on the list before the dialog has finished closing, online or not. A client typed
 * here that does not exist yet is created in the same go; the project's outbox entry waits for it.
 * An archived client can be chosen (typing its name finds it): the project restores it, since new
 * work makes it a current client again, rather than leaving a project under a hidden client.
 */
import { X } from 'lucide-react';
import { useRef, useState, type FormEvent } from 'react';
import { flushSync } from 'react-dom';
import { Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { v7 as uuidv7 } from 'uuid';
import {
  createProjectInputSchema,
  type BillingType,
  type ProjectStatus,
} from '#contract/entities/project.ts';
import { addDefaultColumns } from '../../data/project-work.ts';
import { activeProjectLimitMessage, isActiveProject } from '#contract/entities/plan.ts';
import { useCallEndpoint } from '../activity/activity-timeline.tsx';
import { UpgradePlanLink } from '../billing/upgrade-plan-link.tsx';
import { checkPlanLimit } from '../billing/workspace-plan.ts';
import type { LocalClient, LocalProject } from '../../db/app-database.ts';
import type { LocalWriteContext } from '../../db/local-write.ts';
import { Button } from '../../ui/button.tsx';
import { ColorChoiceField } from '../../ui/color-choice-field.tsx';
import { SelectField } from '../../ui/select-field.tsx';
import { FormAlert } from '../auth/form-alert.tsx';
import { FormTextField } from '../../ui/form-text-field.tsx';
import { archiveClients, createClient } from '../../data/client-mutations.ts';
import { parseOrThrow } from '../../data/mutation-base.ts';
import { ClientPicker, type ClientChoice, type ClientPickerHandle } from './client-picker.tsx';
import { createProject } from '../../data/project-mutations.ts';
import { countActiveProjects } from '../../data/project-queries.ts';
import { projectColors } from './project-labels.ts';
import { billingOptions, statusOptions } from './project-options.tsx';
import { writeErrorFields, type WriteErrorFields } from '../../data/write-error-fields.ts';

export interface CreateProjectDialogProps {
  isOpen: boolean;
  onClose: () => void;
  onCreated: (project: LocalProject) => void;
  ctx: LocalWriteContext;
  workspaceId: string;
  /** Currency for a new client and a project without a client currency (the workspace's). */
  defaultCurrency: string;
  clients: readonly LocalClient[];
  /** Pre-filled from the screen's filters or the board column the user started from. */
  initialClientId?: string | undefined;
  initialStatus?: ProjectStatus | undefined;
}

interface Values {
  name: string;
  client: ClientChoice | null;
  status: ProjectStatus;
  startDate: string;
  dueDate: string;
  budget: string;
  currency: string;
  billingType: BillingType;
  color: string | null;
}

const orNull = (text: string) => (text.trim() === '' ? null : text.trim());

export function CreateProjectDialog(props: CreateProjectDialogProps) {
  return (
    <ModalOverlay
      isOpen={props.isOpen}
      onOpenChange={(open) => {
        if (!open) props.onClose();
      }}
      isDismissable
      className="fixed inset-0 z-50 flex items-end justify-center bg-black/50 sm:items-center sm:p-4"
    >
      <Modal className="max-h-dvh w-full overflow-y-auto rounded-t-2xl border border-border bg-surface text-fg shadow-xl sm:max-h-[calc(100dvh-2rem)] sm:max-w-xl sm:rounded-2xl">
        <Dialog className="outline-none">
          {/* Mounted only while open, so each opening starts from a clean form. */}
          <CreateProjectForm {...props} />
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}

function CreateProjectForm({
  onClose,
  onCreated,
  ctx,
  workspaceId,
  defaultCurrency,
  clients,
  initialClientId,
  initialStatus,
}: CreateProjectDialogProps) {
  const initialClient = clients.find((client) => client.id === initialClientId);
  const [values, setValues] = useState<Values>({
    name: '',
    client: initialClient ? { kind: 'existing', id: initialClient.id } : null,
    status: initialStatus ?? 'planned',
    startDate: '',
    dueDate: '',
    budget: '',
    currency: initialClient?.currency ?? defaultCurrency,
    billingType: 'fixed',
    color: null,
  });
  const [errors, setErrors] = useState<WriteErrorFields>({});
  const [isSaving, setSaving] = useState(false);
  const [isPlanFull, setPlanFull] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const clientPicker = useRef<ClientPickerHandle>(null);
  // The plan may have changed on another device: a refusal asks the server first (online).
  const callEndpoint = useCallEndpoint();

  const set = <K extends keyof Values>(key: K, value: Values[K]) => {
    setValues((current) => ({ ...current, [key]: value }));
    setErrors((current) => ({ ...current, [key]: undefined, form: undefined }));
    setPlanFull(false);
  };

  // A project is usually billed in its client's currency: follow the client until edited.
  const [isCurrencyEdited, setCurrencyEdited] = useState(false);
  const chooseClient = (choice: ClientChoice | null) => {
    set('client', choice);
    const client =
      choice?.kind === 'existing' ? clients.find((c) => c.id === choice.id) : undefined;
    if (client && !isCurrencyEdited) set('currency', client.currency);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (isSaving) return;
    const client = values.client;
    // A placeholder id while no client is chosen: the other fields are still checked, so every
    // missing field is flagged at once.
    const clientId = client?.kind === 'existing' ? client.id : uuidv7();
    const input = {
      workspaceId,
      clientId,
      name: values.name,
      status: values.status,
      startDate: orNull(values.startDate),
      dueDate: orNull(values.dueDate),
      budget: orNull(values.budget.replace(/[\s,]/g, '')),
      currency: values.currency.trim().toUpperCase(),
      billingType: values.billingType,
      color: values.color,
    };
    // Checked before anything is written: a refused project must not leave a new client behind.
    const refused = {
      ...(client === null ? { client: 'Choose a client, or type a name to add a new one' } : {}),
      ...contractErrors(input),
    };
    if (client === null || Object.keys(refused).length > 0) {
      refuse(refused);
      return;
    }
    setSaving(true);
    try {
      // The server refuses a project over the plan's allowance; say so now, not as a sync issue.
      const active = isActiveProject({ status: input.status, archived: false });
      const count = active ? await countActiveProjects(ctx.db, workspaceId) : 0;
      const { plan, fits } = await checkPlanLimit(callEndpoint, workspaceId, ({ limits }) =>
        limits.activeProjects === null ? true : count < limits.activeProjects,
      );
      if (!fits) {
        setErrors({ form: activeProjectLimitMessage(plan) });
        setPlanFull(true);
        return;
      }
      if (client.kind === 'new') {
        try {
          await createClient(ctx, {
            id: clientId,
            workspaceId,
            name: client.name,
            currency: input.currency,
          });
        } catch (error) {
          const fields = writeErrorFields(error);
          refuse({ client: fields.name ?? fields.form ?? 'This client could not be added' });
          return;
        }
      } else if (clients.find((c) => c.id === clientId)?.archived) {
        // New work for an archived client: it is a current client again (the field said so).
        await archiveClients(ctx, [clientId], false);
      }
      const project = await createProject(ctx, input);
      // The board starts with its default columns, written by this device only (no duplicates).
      await addDefaultColumns(ctx, project);
      onCreated(project);
    } catch (error) {
      refuse(writeErrorFields(error));
    } finally {
      setSaving(false);
    }
  };

  /** Shows the refused fields and takes focus to the first one on screen. */
  const refuse = (fields: WriteErrorFields) => {
    // Drawn at once (a refusal after an await is outside React's event batch), then focused.
    flushSync(() => setErrors(fields));
    const field = formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]');
    // The client field opens its list on focus, over the message that says what is wrong.
    if (field?.closest('[data-field="client"]')) clientPicker.current?.focus();
    else field?.focus();
  };

  const chosenId = values.client?.kind === 'existing' ? values.client.id : undefined;
  const chosen = clients.find((client) => client.id === chosenId);

  return (
    <form
      ref={formRef}
      noValidate
      onSubmit={(event) => void submit(event)}
      className="flex flex-col"
    >
      <div className="sticky top-0 z-10 flex items-center justify-between gap-3 border-b border-border bg-surface px-5 py-3 sm:px-6 sm:py-4">
        <Heading slot="title" className="text-lg font-semibold">
          New project
        </Heading>
        <Button variant="ghost" size="icon" aria-label="Close" onPress={onClose}>
          <X aria-hidden="true" size={18} />
        </Button>
      </div>
      <div className="flex flex-col gap-4 px-5 py-5 sm:px-6">
        {errors.form ? (
          <FormAlert
            action={
              isPlanFull ? (
                <UpgradePlanLink onPress={onClose}>See plans and upgrade</UpgradePlanLink>
              ) : undefined
            }
          >
            {errors.form}
          </FormAlert>
        ) : null}
        <FormTextField
          label="Project name"
          name="name"
          value={values.name}
          onChange={(value) => set('name', value)}
          error={errors.name}
          autoFocus
          autoComplete="off"
          placeholder="Website redesign"
        />
        <div data-field="client">
          <ClientPicker
            label="Client"
            clients={clients}
            value={values.client}
            onChange={chooseClient}
            allowCreate
            archived="when-typed"
            placeholder="Search clients or type a new name"
            {...(chosen?.archived
              ? { description: `${chosen.name} is archived: creating the project restores it.` }
              : {})}
            error={errors.client}
            handleRef={clientPicker}
          />
        </div>
        <div className="grid gap-4 sm:grid-cols-2">
          <SelectField
            label="Status"
            options={statusOptions}
            value={values.status}
            onChange={(value) => set('status', value)}
            error={errors.status}
          />
          <SelectField
            label="Billing"
            options={billingOptions}
            value={values.billingType}
            onChange={(value) => set('billingType', value)}
            error={errors.billingType}
          />
        </div>
        <div className="grid grid-cols-2 gap-4">
          <FormTextField
            label="Start date"
            name="startDate"
            type="date"
            value={values.startDate}
            onChange={(value) => set('startDate', value)}
            error={errors.startDate}
          />
          <FormTextField
            label="Due date"
            name="dueDate"
            type="date"
            value={values.dueDate}
            onChange={(value) => set('dueDate', value)}
            error={errors.dueDate}
          />
        </div>
        <div className="grid grid-cols-[1fr_7rem] gap-4">
          <FormTextField
            label="Budget"
            name="budget"
            inputMode="decimal"
            value={values.budget}
            onChange={(value) => set('budget', value)}
            error={errors.budget}
            placeholder="Optional"
            autoComplete="off"
          />
          <FormTextField
            label="Currency"
            name="currency"
            value={values.currency}
            onChange={(value) => {
              setCurrencyEdited(true);
              set('currency', value.toUpperCase());
            }}
            error={errors.currency}
            maxLength={3}
            autoComplete="off"
          />
        </div>
        <ColorChoiceField
          label="Colour"
          colors={projectColors}
          value={values.color}
          onChange={(value) => set('color', value)}
          error={errors.color}
        />
      </div>
      <div className="sticky bottom-0 z-10 flex gap-3 border-t border-border bg-surface px-5 py-3 pb-[calc(0.75rem+env(safe-area-inset-bottom))] sm:justify-end sm:px-6 sm:py-4">
        <Button variant="secondary" onPress={onClose} className="flex-1 sm:flex-none">
          Cancel
        </Button>
        <Button type="submit" isPending={isSaving} className="flex-1 sm:flex-none">
          Create project
        </Button>
      </div>
    </form>
  );
}

/** The contract's objections to the project, by field (none: it would be written). */
function contractErrors(input: Record<string, unknown>): WriteErrorFields {
  try {
    parseOrThrow(createProjectInputSchema, { ...input, id: uuidv7() });
    return {};
  } catch (error) {
    return writeErrorFields(error);
  }
}
