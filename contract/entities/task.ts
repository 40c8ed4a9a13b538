/**
 * Tasks (product-anchors 1b, 4.4): cards on a project's board. `columnId` is a column of the same
 * project, `milestoneId` a milestone of it, `assigneeId` a member of the workspace: the server
 * checks each (task.ts hooks), as the device does before queueing. A move is a one-field patch of
 * `position` (and `columnId` across columns).
 */
import * as v from 'valibot';
import { text } from '../text.ts';
import { defineSyncedEntity, field } from '../synced-entity.ts';
import { longTextSchema, titleSchema } from './fields.ts';
import { idSchema } from './ids.ts';
import { orderKeySchema } from './order-key.ts';
import { dateSchema } from './project.ts';

export const taskPriorities = ['none', 'low', 'medium', 'high', 'urgent'] as const;
export type TaskPriority = (typeof taskPriorities)[number];
export const taskPriorityWords: Readonly<Record<TaskPriority, string>> = {
  none: 'No priority',
  low: 'Low',
  medium: 'Medium',
  high: 'High',
  urgent: 'Urgent',
};

const labelsSchema = v.pipe(
  v.array(
    v.pipe(
      text(),
      v.trim(),
      v.nonEmpty('A label cannot be empty'),
      v.maxLength(40, 'Labels are at most 40 characters'),
    ),
  ),
  v.maxLength(20, 'At most 20 labels'),
);

const checklistSchema = v.pipe(
  v.array(
    v.object({
      id: v.pipe(text(), v.nonEmpty(), v.maxLength(64)),
      text: v.pipe(text(), v.maxLength(500, 'A checklist item is at most 500 characters')),
      done: v.boolean(),
    }),
  ),
  v.maxLength(100, 'At most 100 checklist items'),
);

export const taskEntity = defineSyncedEntity({
  name: 'task',
  plural: 'tasks',
  sqlTable: 'task',
  label: 'title',
  parent: { entity: 'project', key: 'projectId', onDelete: 'cascade' },
  activityProject: 'projectId',
  fields: {
    title: field(titleSchema),
    description: field(longTextSchema('Description'), { default: null }),
    columnId: field(idSchema, { word: 'column' }),
    position: field(orderKeySchema, { word: 'order' }),
    assigneeId: field(v.nullable(idSchema), { default: null, word: 'assignee' }),
    dueDate: field(dateSchema, { default: null, sql: 'date' }),
    priority: field(v.picklist(taskPriorities, 'Choose a priority'), {
      default: 'none',
      values: taskPriorityWords,
    }),
    labels: field(labelsSchema, { default: [], sql: 'jsonb' }),
    estimateMinutes: field(
      v.nullable(
        v.pipe(
          v.number('Enter the estimate in minutes'),
          v.integer('Minutes are whole numbers'),
          v.minValue(0, 'An estimate cannot be negative'),
          v.maxValue(100_000, 'That estimate is too large'),
        ),
      ),
      { default: null, word: 'estimate' },
    ),
    milestoneId: field(v.nullable(idSchema), { default: null, word: 'milestone' }),
    checklist: field(checklistSchema, { default: [], sql: 'jsonb' }),
  },
  // [columnId+position]: a board's first cards per column straight off the index (cold open).
  indexes: [
    '[workspaceId+projectId]',
    '[workspaceId+assigneeId]',
    '[workspaceId+dueDate]',
    '[columnId+position]',
  ],
  list: { scope: 'parent', filters: ['columnId'], orderBy: 'position COLLATE "C", id' },
});

export type Task = v.InferOutput<typeof taskEntity.rowSchema>;
export type ChecklistItem = Task['checklist'][number];
