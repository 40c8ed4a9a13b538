/**
 * A task's details in a sheet from the side (full screen on a phone): every field, each saved on
 * its own as soon as it changes (a patch of that field, through the outbox), the checklist
 * (add, tick, remove) and delete with Undo. A refused change says why beside its field.
 */
import { taskPriorities, taskPriorityWords, type ChecklistItem } from '#contract/entities/task.ts';
import { Plus, Trash, X } from 'lucide-react';
import { useState } from 'react';
import {
  Button as AriaButton,
  Checkbox,
  Dialog,
  Heading,
  Input,
  Modal,
  ModalOverlay,
  TextField,
} from 'react-aria-components';
import type { LocalMember } from '../../db/app-database.ts';
import {
  taskWrites,
  type LocalColumn,
  type LocalMilestone,
  type LocalTask,
} from '../../data/project-work.ts';
import { writeErrorFields } from '../../data/write-error-fields.ts';
import { cancelQueuedChange } from '../../sync/sync-client.ts';
import { Button } from '../../ui/button.tsx';
import { inputClassName } from '../../ui/form-text-field.tsx';
import { InlineTextField } from '../../ui/inline-text-field.tsx';
import { SelectField } from '../../ui/select-field.tsx';
import { showUndoNotice } from '../../ui/undo-notice.ts';
import { useToast } from '../../ui/use-toast.ts';
import { useWriteContext } from '../workspace/sync-context.tsx';
import { focusWhenReady } from '../../ui/focus-when-ready.ts';

/** How long Undo is offered after a delete; the delete waits this long in the outbox. */
export const UNDO_WINDOW_MS = 8000;
const NONE = 'none';

type Patch = Parameters<typeof taskWrites.update>[2];
type Field = keyof Patch | 'form' | 'checklistText';

export interface TaskDetailSheetProps {
  taskId: string | null;
  tasks: readonly LocalTask[];
  columns: readonly LocalColumn[];
  milestones: readonly LocalMilestone[];
  members: readonly LocalMember[];
  onClose: () => void;
  onMoveToColumn: (task: LocalTask, columnId: string) => void;
}

export function TaskDetailSheet({ taskId, tasks, onClose, ...rest }: TaskDetailSheetProps) {
  const task = taskId === null ? undefined : tasks.find((candidate) => candidate.id === taskId);
  return (
    <ModalOverlay
      isOpen={task !== undefined}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      isDismissable
      className="fixed inset-0 z-40 flex justify-end bg-black/40"
    >
      <Modal className="h-full w-full overflow-y-auto border-l border-border bg-surface text-fg shadow-xl sm:max-w-lg">
        <Dialog aria-label="Task details" className="outline-none">
          {task ? (
            <TaskDetails key={task.id} task={task} tasks={tasks} onClose={onClose} {...rest} />
          ) : null}
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}

const orNull = (text: string) => (text.trim() === '' ? null : text.trim());

function TaskDetails({
  task,
  tasks,
  columns,
  milestones,
  members,
  onClose,
  onMoveToColumn,
}: Omit<TaskDetailSheetProps, 'taskId'> & { task: LocalTask }) {
  const ctx = useWriteContext();
  const toaster = useToast();
  const [errors, setErrors] = useState<Partial<Record<Field, string | undefined>>>({});
  const [newItem, setNewItem] = useState('');

  const save = async (field: keyof Patch, patch: Patch) => {
    setErrors((current) => ({ ...current, [field]: undefined, form: undefined }));
    try {
      await taskWrites.update(ctx, task.id, patch);
    } catch (error) {
      const fields = writeErrorFields(error);
      const message = fields[field] ?? fields.form ?? Object.values(fields).find(Boolean);
      setErrors((current) => ({ ...current, [field]: message }));
    }
  };

  const saveChecklist = (checklist: ChecklistItem[]) => save('checklist', { checklist });

  const addItem = async () => {
    const text = newItem.trim();
    if (text === '') return;
    await saveChecklist([...task.checklist, { id: crypto.randomUUID(), text, done: false }]);
    setNewItem('');
  };

  const remove = async () => {
    const column = tasks.filter((candidate) => candidate.columnId === task.columnId);
    const next = column[column.findIndex((candidate) => candidate.id === task.id) + 1];
    const title = task.title;
    try {
      const mutationId = await taskWrites.delete(ctx, task.id, { undoWindowMs: UNDO_WINDOW_MS });
      onClose();
      focusWhenReady(
        next
          ? `[data-task-id="${next.id}"]`
          : `[data-column-id="${task.columnId}"] [data-quick-add]`,
        next ? 'row' : undefined,
      );
      // Undo by the notice's button or Ctrl/⌘+Z while it shows.
      showUndoNotice(toaster, {
        message: `Task “${title}” deleted`,
        durationMs: UNDO_WINDOW_MS,
        undo: () => {
          void cancelQueuedChange(ctx.db, mutationId).then((undone) => {
            if (!undone) {
              toaster.show({
                tone: 'error',
                message: `Too late to undo: “${title}” is deleted.`,
              });
            }
          });
        },
      });
    } catch (error) {
      setErrors({ form: writeErrorFields(error).form ?? 'The task could not be deleted.' });
    }
  };

  const memberOptions = [
    { id: NONE, label: 'Nobody' },
    ...members.map((member) => ({
      id: member.id,
      label: `${member.firstName} ${member.lastName}`.trim() || member.email,
    })),
  ];
  if (task.assigneeId && !members.some((member) => member.id === task.assigneeId)) {
    memberOptions.push({ id: task.assigneeId, label: 'A former member' });
  }
  const milestoneOptions = [
    { id: NONE, label: 'No milestone' },
    ...milestones.map((milestone) => ({ id: milestone.id, label: milestone.title })),
  ];
  const doneCount = task.checklist.filter((item) => item.done).length;

  return (
    <div className="flex flex-col gap-5 p-4 sm:p-6">
      <div className="flex items-center gap-2">
        <Heading slot="title" className="flex-1 text-lg font-semibold">
          Task details
        </Heading>
        <AriaButton
          aria-label="Close task details"
          onPress={onClose}
          className="grid size-11 shrink-0 cursor-pointer place-items-center rounded-lg text-fg-muted outline-none hover:bg-surface-muted hover:text-fg data-focus-visible:ring-2 data-focus-visible:ring-ring sm:size-9"
        >
          <X aria-hidden="true" size={18} />
        </AriaButton>
      </div>
      {errors.form ? (
        <p role="alert" className="text-sm font-medium text-danger">
          {errors.form}
        </p>
      ) : null}
      <InlineTextField
        label="Title"
        name="title"
        value={task.title}
        onSave={(text) => save('title', { title: text })}
        error={errors.title}
      />
      <InlineTextField
        label="Description"
        name="description"
        multiline
        value={task.description ?? ''}
        onSave={(text) => save('description', { description: orNull(text) })}
        error={errors.description}
        placeholder="Details, links, acceptance notes"
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField
          label="Column"
          options={columns.map((column) => ({ id: column.id, label: column.name }))}
          value={task.columnId}
          onChange={(columnId) => {
            if (columnId !== task.columnId) onMoveToColumn(task, columnId);
          }}
          error={errors.columnId}
        />
        <SelectField
          label="Assignee"
          options={memberOptions}
          value={task.assigneeId ?? NONE}
          onChange={(id) => void save('assigneeId', { assigneeId: id === NONE ? null : id })}
          error={errors.assigneeId}
        />
        <InlineTextField
          label="Due date"
          name="dueDate"
          type="date"
          value={task.dueDate ?? ''}
          onSave={(text) => save('dueDate', { dueDate: orNull(text) })}
          error={errors.dueDate}
        />
        <SelectField
          label="Priority"
          options={taskPriorities.map((id) => ({ id, label: taskPriorityWords[id] }))}
          value={task.priority}
          onChange={(priority) => void save('priority', { priority })}
          error={errors.priority}
        />
        <InlineTextField
          label="Estimate (minutes)"
          name="estimateMinutes"
          inputMode="decimal"
          value={task.estimateMinutes === null ? '' : String(task.estimateMinutes)}
          onSave={(text) =>
            save('estimateMinutes', {
              estimateMinutes: text.trim() === '' ? null : Number(text.trim()),
            })
          }
          error={errors.estimateMinutes}
          placeholder="No estimate"
        />
        <SelectField
          label="Milestone"
          options={milestoneOptions}
          value={task.milestoneId ?? NONE}
          onChange={(id) => void save('milestoneId', { milestoneId: id === NONE ? null : id })}
          error={errors.milestoneId}
        />
      </div>
      <InlineTextField
        label="Labels"
        name="labels"
        value={task.labels.join(', ')}
        description="Separate labels with commas, for example: design, client"
        onSave={(text) =>
          save('labels', {
            labels: [
              ...new Set(
                text
                  .split(',')
                  .map((label) => label.trim())
                  .filter(Boolean),
              ),
            ],
          })
        }
        error={errors.labels}
      />
      <section aria-labelledby="task-checklist" className="flex flex-col gap-2">
        <h3 id="task-checklist" className="text-sm font-semibold text-fg">
          Checklist{' '}
          {task.checklist.length > 0 ? (
            <span className="font-normal text-fg-muted">
              ({doneCount} of {task.checklist.length} done)
            </span>
          ) : null}
        </h3>
        {task.checklist.length === 0 ? (
          <p className="text-sm text-fg-muted">
            Break the task into steps: add them below and tick them off as you go.
          </p>
        ) : (
          <ul className="flex flex-col gap-1">
            {task.checklist.map((item) => (
              <li key={item.id} className="flex items-center gap-2">
                <Checkbox
                  isSelected={item.done}
                  onChange={(isDone) =>
                    void saveChecklist(
                      task.checklist.map((other) =>
                        other.id === item.id ? { ...other, done: isDone } : other,
                      ),
                    )
                  }
                  className="group flex min-h-11 flex-1 cursor-pointer items-center gap-2 text-sm sm:min-h-9"
                >
                  <span
                    aria-hidden="true"
                    className="grid size-5 shrink-0 place-items-center rounded border border-border-strong bg-surface text-on-brand group-data-focus-visible:ring-2 group-data-focus-visible:ring-ring group-data-selected:border-brand group-data-selected:bg-brand"
                  >
                    {item.done ? '✓' : ''}
                  </span>
                  <span className={item.done ? 'text-fg-muted line-through' : ''}>{item.text}</span>
                </Checkbox>
                <AriaButton
                  aria-label={`Remove “${item.text}” from the checklist`}
                  onPress={() =>
                    void saveChecklist(task.checklist.filter((other) => other.id !== item.id))
                  }
                  className="grid size-11 shrink-0 cursor-pointer place-items-center rounded-lg text-fg-muted outline-none hover:bg-surface-muted hover:text-fg data-focus-visible:ring-2 data-focus-visible:ring-ring sm:size-8"
                >
                  <X aria-hidden="true" size={16} />
                </AriaButton>
              </li>
            ))}
          </ul>
        )}
        <form
          className="flex gap-2"
          onSubmit={(event) => {
            event.preventDefault();
            void addItem();
          }}
        >
          <TextField
            aria-label="New checklist item"
            value={newItem}
            onChange={setNewItem}
            className="min-w-0 flex-1"
          >
            <Input placeholder="Add a step" className={inputClassName} />
          </TextField>
          <Button type="submit" variant="secondary">
            <Plus aria-hidden="true" size={16} />
            Add
          </Button>
        </form>
        {errors.checklist ? (
          <p role="alert" className="text-sm font-medium text-danger">
            {errors.checklist}
          </p>
        ) : null}
      </section>
      <div className="border-t border-border pt-4">
        <Button variant="danger" onPress={() => void remove()}>
          <Trash aria-hidden="true" size={16} />
          Delete task
        </Button>
      </div>
    </div>
  );
}
