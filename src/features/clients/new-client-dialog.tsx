/**
 * "New client": the few fields people know at the start (name, company, email, phone, status,
 * tags); the rest is edited on the client's page. Saved locally at once, online or not.
 */
import { useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { Dialog, Form, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { clientStatuses, type ClientStatus } from '#contract/entities/client.ts';
import type { LocalClient } from '../../db/app-database.ts';
import { Button } from '../../ui/button.tsx';
import { SelectField } from '../../ui/select-field.tsx';
import { FormTextField } from '../../ui/form-text-field.tsx';
import { writeErrorFields, type WriteErrorFields } from '../../data/write-error-fields.ts';
import { useWriteContext } from '../workspace/sync-context.tsx';
import { useWorkspace } from '../workspace/workspace-gate.tsx';
import { createClient } from '../../data/client-mutations.ts';
import { clientStatusLabels } from './client-labels.ts';
import { parseTags } from './parse-tags.ts';
import { focusFirstInvalid } from '../auth/field-errors.ts';

export interface NewClientDialogProps {
  isOpen: boolean;
  onClose: () => void;
  onCreated: (client: LocalClient) => void;
}

const statusOptions = clientStatuses.map((id) => ({ id, label: clientStatusLabels[id] }));

export function NewClientDialog({ isOpen, onClose, onCreated }: NewClientDialogProps) {
  return (
    <ModalOverlay
      isOpen={isOpen}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      isDismissable
      className="fixed inset-0 z-50 grid place-items-center overflow-y-auto bg-black/50 p-4"
    >
      <Modal className="w-full max-w-lg rounded-2xl border border-border bg-surface p-6 text-fg shadow-xl">
        <Dialog className="outline-none">
          {/* Mounted per opening: every new client starts from an empty form. */}
          <NewClientForm onClose={onClose} onCreated={onCreated} />
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}

function NewClientForm({ onClose, onCreated }: Omit<NewClientDialogProps, 'isOpen'>) {
  const ctx = useWriteContext();
  const workspace = useWorkspace();
  const [status, setStatus] = useState<ClientStatus>('active');
  const [errors, setErrors] = useState<WriteErrorFields>({});
  const [saving, setSaving] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);

  async function submit(data: FormData) {
    const text = (key: string) => {
      const value = data.get(key);
      return typeof value === 'string' && value.trim() !== '' ? value : null;
    };
    setSaving(true);
    try {
      const client = await createClient(ctx, {
        workspaceId: workspace.id,
        name: text('name') ?? '',
        company: text('company'),
        email: text('email'),
        phone: text('phone'),
        status,
        tags: parseTags(text('tags') ?? ''),
        currency: workspace.currency,
      });
      onCreated(client);
    } catch (error) {
      // Drawn now (this runs after an await, outside React's event batch), so that focus can
      // leave "Add client" for the field to fix, as the other forms do.
      flushSync(() => {
        setErrors(writeErrorFields(error));
        setSaving(false);
      });
      focusFirstInvalid(formRef.current);
    }
  }

  return (
    <Form
      ref={formRef}
      // Errors show inline beside each field (from the contract), as everywhere else: no browser
      // popup for the email's format.
      validationBehavior="aria"
      className="flex flex-col gap-4"
      onSubmit={(event) => {
        event.preventDefault();
        void submit(new FormData(event.currentTarget));
      }}
    >
      <Heading slot="title" className="text-lg font-semibold">
        New client
      </Heading>
      <FormTextField name="name" label="Name" isRequired autoFocus error={errors.name} />
      <div className="grid gap-4 sm:grid-cols-2">
        <FormTextField name="company" label="Company" error={errors.company} />
        <SelectField
          label="Status"
          options={statusOptions}
          value={status}
          onChange={setStatus}
          error={errors.status}
        />
        <FormTextField name="email" label="Email" type="email" error={errors.email} />
        <FormTextField name="phone" label="Phone" type="tel" error={errors.phone} />
      </div>
      <FormTextField
        name="tags"
        label="Tags"
        description="Separate tags with commas, like: design, retainer"
        error={errors.tags}
      />
      {errors.form ? (
        <p role="alert" className="text-sm font-medium text-danger">
          {errors.form}
        </p>
      ) : null}
      <div className="mt-2 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <Button variant="secondary" onPress={onClose}>
          Cancel
        </Button>
        <Button type="submit" isPending={saving}>
          Add client
        </Button>
      </div>
    </Form>
  );
}
