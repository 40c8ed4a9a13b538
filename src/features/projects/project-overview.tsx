/**
 * The Overview tab: a summary first (progress from milestones, what is due next, open tasks;
 * project-overview-summary.tsx), then the project's details, each saved on its own as soon as it is changed (a
 * patch of that field only, through the outbox), plus archive and delete. A refused change keeps
 * what was typed and says why beside the field.
 */
import { Archive, ArchiveX, Trash } from 'lucide-react';
import { useState } from 'react';
import type { LocalProject } from '../../db/app-database.ts';
import type { LocalWriteContext } from '../../db/local-write.ts';
import { Button } from '../../ui/button.tsx';
import { ColorChoiceField } from '../../ui/color-choice-field.tsx';
import { SelectField } from '../../ui/select-field.tsx';
import { useToast } from '../../ui/use-toast.ts';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { InlineTextField } from '../../ui/inline-text-field.tsx';
import { cancelQueuedChange } from '../../sync/sync-client.ts';
import { showUndoNotice } from '../../ui/undo-notice.ts';
import { ProjectOverviewSummary } from './project-overview-summary.tsx';
import { projectColors } from './project-labels.ts';
import {
  archiveProject,
  deleteProject,
  updateProject,
  type ProjectPatch,
} from '../../data/project-mutations.ts';
import { billingOptions, statusOptions } from './project-options.tsx';
import { writeErrorFields } from '../../data/write-error-fields.ts';

export interface ProjectOverviewProps {
  project: LocalProject;
  ctx: LocalWriteContext;
  onDeleted: () => void;
}

type Field = keyof ProjectPatch;

/** How long Undo is offered after a delete; the delete waits this long in the outbox. */
const UNDO_WINDOW_MS = 8000;

const orNull = (text: string) => (text.trim() === '' ? null : text.trim());

export function ProjectOverview({ project, ctx, onDeleted }: ProjectOverviewProps) {
  const toaster = useToast();
  const [errors, setErrors] = useState<Partial<Record<Field | 'form', string | undefined>>>({});
  const [saved, setSaved] = useState('');
  const [isConfirmingDelete, setConfirmingDelete] = useState(false);

  /** Saves one field if it changed; its error (or the form's) is shown beside it. */
  const save = async <K extends Field>(field: K, value: ProjectPatch[K]) => {
    setErrors((current) => ({ ...current, [field]: undefined, form: undefined }));
    if (project[field] === value) return;
    try {
      const changed = await updateProject(ctx, project.id, { [field]: value });
      if (changed) setSaved(`Saved on this device at ${new Date().toLocaleTimeString()}`);
    } catch (error) {
      const fields = writeErrorFields(error);
      const message = fields[field] ?? fields.form ?? Object.values(fields).find(Boolean);
      setErrors((current) => ({ ...current, [field]: message }));
    }
  };

  const toggleArchived = async () => {
    const archived = !project.archived;
    try {
      await archiveProject(ctx, project.id, archived);
      toaster.show({
        tone: 'success',
        message: archived
          ? `“${project.name}” archived: hidden from lists until you show archived projects.`
          : `“${project.name}” restored`,
      });
    } catch (error) {
      setErrors({ form: writeErrorFields(error).form ?? 'This change could not be saved.' });
    }
  };

  const remove = async () => {
    try {
      const name = project.name;
      const mutationId = await deleteProject(ctx, project.id, { undoWindowMs: UNDO_WINDOW_MS });
      setConfirmingDelete(false);
      showUndoNotice(toaster, {
        message: `Project “${name}” deleted`,
        durationMs: UNDO_WINDOW_MS,
        undo: () => {
          void cancelQueuedChange(ctx.db, mutationId).then((undone) => {
            if (!undone) {
              toaster.show({ tone: 'error', message: `Too late to undo: “${name}” is deleted.` });
            }
          });
        },
      });
      onDeleted();
    } catch (error) {
      setConfirmingDelete(false);
      setErrors({ form: writeErrorFields(error).form ?? 'The project could not be deleted.' });
    }
  };

  return (
    <div className="flex flex-col gap-6">
      <ProjectOverviewSummary project={project} />
      {errors.form ? (
        <p role="alert" className="text-sm font-medium text-danger">
          {errors.form}
        </p>
      ) : null}
      <section
        aria-labelledby="overview-details"
        className="grid gap-5 rounded-2xl border border-border bg-surface p-4 sm:p-6 md:grid-cols-2"
      >
        <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1 md:col-span-2">
          <h2 id="overview-details" className="text-lg font-semibold text-fg">
            Details
          </h2>
          <p role="status" className="text-sm text-fg-muted">
            {saved}
          </p>
        </div>
        <InlineTextField
          label="Name"
          name="name"
          value={project.name}
          onSave={(text) => save('name', text)}
          error={errors.name}
          className="md:col-span-2"
        />
        <InlineTextField
          label="Description"
          name="description"
          multiline
          value={project.description ?? ''}
          onSave={(text) => save('description', orNull(text))}
          error={errors.description}
          placeholder="What this project is about, for you and your team"
          className="md:col-span-2"
        />
        <SelectField
          label="Status"
          options={statusOptions}
          value={project.status}
          onChange={(value) => void save('status', value)}
          error={errors.status}
        />
        <SelectField
          label="Billing"
          options={billingOptions}
          value={project.billingType}
          onChange={(value) => void save('billingType', value)}
          error={errors.billingType}
        />
        <InlineTextField
          label="Start date"
          name="startDate"
          type="date"
          value={project.startDate ?? ''}
          onSave={(text) => save('startDate', orNull(text))}
          error={errors.startDate}
        />
        <InlineTextField
          label="Due date"
          name="dueDate"
          type="date"
          value={project.dueDate ?? ''}
          onSave={(text) => save('dueDate', orNull(text))}
          error={errors.dueDate}
        />
        <div className="grid grid-cols-[1fr_7rem] gap-4">
          <InlineTextField
            label="Budget"
            name="budget"
            inputMode="decimal"
            value={project.budget ?? ''}
            onSave={(text) => save('budget', orNull(text.replace(/[\s,]/g, '')))}
            error={errors.budget}
            placeholder="No budget"
          />
          <InlineTextField
            label="Currency"
            name="currency"
            value={project.currency}
            maxLength={3}
            normalize={(text) => text.toUpperCase()}
            onSave={(text) => save('currency', text.trim())}
            error={errors.currency}
          />
        </div>
        <ColorChoiceField
          label="Colour"
          colors={projectColors}
          value={project.color}
          onChange={(value) => void save('color', value)}
          error={errors.color}
        />
      </section>
      <section
        aria-labelledby="overview-manage"
        className="flex flex-col gap-4 rounded-2xl border border-border bg-surface p-4 sm:p-6"
      >
        <h2 id="overview-manage" className="text-lg font-semibold text-fg">
          Archive or delete
        </h2>
        <p className="text-sm text-fg-muted">
          Archiving hides the project from lists and the dashboard but keeps everything; you can
          restore it at any time. Deleting removes it for everyone in the workspace.
        </p>
        <div className="flex flex-col gap-3 sm:flex-row">
          <Button variant="secondary" onPress={() => void toggleArchived()}>
            {project.archived ? (
              <>
                <ArchiveX aria-hidden="true" size={16} />
                Restore from archive
              </>
            ) : (
              <>
                <Archive aria-hidden="true" size={16} />
                Archive project
              </>
            )}
          </Button>
          <Button variant="danger" onPress={() => setConfirmingDelete(true)}>
            <Trash aria-hidden="true" size={16} />
            Delete project
          </Button>
        </div>
      </section>
      <ConfirmDialog
        isOpen={isConfirmingDelete}
        title={`Delete “${project.name}”?`}
        confirmLabel="Delete project"
        isDestructive
        onConfirm={() => void remove()}
        onCancel={() => setConfirmingDelete(false)}
      >
        The project and its details are removed for everyone in this workspace. If you only want it
        out of the way, archive it instead.
      </ConfirmDialog>
    </div>
  );
}
