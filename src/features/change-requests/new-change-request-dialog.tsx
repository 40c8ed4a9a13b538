/**
 * "New change request": a member writes down a change a client asked for outside the portal (on
 * a call, in an e-mail), for one of the workspace's projects. Costs are in the project's currency.
 * The contract's refusals show beside the fields and nothing is queued.
 */
import { useState, type FormEvent } from 'react';
import { FieldError, Label, TextArea, TextField } from 'react-aria-components';
import type { LocalProject } from '../../db/app-database.ts';
import { createChangeRequest } from '../../data/change-request-mutations.ts';
import type { LocalChangeRequest } from '../../data/change-request-queries.ts';
import { writeErrorFields, type WriteErrorFields } from '../../data/write-error-fields.ts';
import { Button } from '../../ui/button.tsx';
import { FormTextField, inputClassName, labelClassName } from '../../ui/form-text-field.tsx';
import { SelectField } from '../../ui/select-field.tsx';
import { Sheet, SheetActions } from '../../ui/sheet.tsx';
import { TextLink } from '../../ui/text-link.tsx';
import { useWriteContext } from '../workspace/sync-context.tsx';

export interface NewChangeRequestDialogProps {
  /** The projects a request may be recorded for (not archived), sorted for the choice. */
  projects: readonly LocalProject[];
  clientNames: ReadonlyMap<string, string>;
  initialProjectId: string | undefined;
  onClose: () => void;
  onCreated: (request: LocalChangeRequest) => void;
}

export function NewChangeRequestDialog(props: NewChangeRequestDialogProps) {
  return (
    <Sheet title="New change request" onClose={props.onClose}>
      {props.projects.length === 0 ? (
        <>
          <p className="text-fg-muted">
            A change request belongs to a project.{' '}
            <TextLink href="/projects">Create a project</TextLink> first, then record what your
            client asked for.
          </p>
          <SheetActions>
            <Button variant="secondary" onPress={props.onClose}>
              Close
            </Button>
          </SheetActions>
        </>
      ) : (
        <NewChangeRequestForm {...props} />
      )}
    </Sheet>
  );
}

function NewChangeRequestForm({
  projects,
  clientNames,
  initialProjectId,
  onClose,
  onCreated,
}: NewChangeRequestDialogProps) {
  const ctx = useWriteContext();
  const [projectId, setProjectId] = useState(
    projects.find((project) => project.id === initialProjectId)?.id ?? projects[0]?.id ?? '',
  );
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [desiredDate, setDesiredDate] = useState('');
  const [errors, setErrors] = useState<WriteErrorFields>({});
  const [isSaving, setSaving] = useState(false);

  const options = projects.map((project) => {
    const client = clientNames.get(project.clientId);
    return { id: project.id, label: client ? `${project.name} · ${client}` : project.name };
  });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const project = projects.find((candidate) => candidate.id === projectId);
    if (!project) {
      setErrors({ projectId: 'Choose a project' });
      return;
    }
    setErrors({});
    setSaving(true);
    try {
      const created = await createChangeRequest(ctx, {
        workspaceId: project.workspaceId,
        projectId: project.id,
        title,
        description: description.trim() === '' ? null : description,
        desiredDate: desiredDate === '' ? null : desiredDate,
        currency: project.currency,
      });
      onCreated(created);
    } catch (error) {
      setErrors(writeErrorFields(error));
      setSaving(false);
    }
  };

  return (
    <form onSubmit={(event) => void submit(event)} noValidate className="flex flex-col gap-4">
      <SelectField
        label="Project"
        options={options}
        value={projectId}
        onChange={setProjectId}
        error={errors.projectId}
      />
      <FormTextField
        label="Title"
        name="title"
        value={title}
        onChange={setTitle}
        error={errors.title}
        placeholder="e.g. Add a French version of the site"
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
          rows={4}
          placeholder="What the client asked for, in their words"
          className={`${inputClassName} py-2`}
        />
        <FieldError className="text-sm font-medium text-danger">{errors.description}</FieldError>
      </TextField>
      <FormTextField
        label="Wanted by"
        name="desiredDate"
        type="date"
        value={desiredDate}
        onChange={setDesiredDate}
        error={errors.desiredDate}
      />
      {errors.form ? (
        <p role="alert" className="text-sm font-medium text-danger">
          {errors.form}
        </p>
      ) : null}
      <SheetActions>
        <Button variant="secondary" onPress={onClose}>
          Cancel
        </Button>
        <Button type="submit" isPending={isSaving}>
          Record request
        </Button>
      </SheetActions>
    </form>
  );
}
