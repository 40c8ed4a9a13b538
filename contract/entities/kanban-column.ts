/**
 * The columns of a project's task board (resource `kanban`): renamable and reorderable. A project
 * made in the app starts with DEFAULT_BOARD_COLUMNS, written by the device that creates it (one
 * writer, so two devices never both add them); a column marked done counts its tasks as finished.
 */
import * as v from 'valibot';
import { requiredLine } from './fields.ts';
import { defineSyncedEntity, field } from '../synced-entity.ts';
import { orderKeySchema } from './order-key.ts';

export const DEFAULT_BOARD_COLUMNS = [
  { name: 'To do', isDone: false },
  { name: 'In progress', isDone: false },
  { name: 'Review', isDone: false },
  { name: 'Done', isDone: true },
] as const;

export const kanbanColumnEntity = defineSyncedEntity({
  name: 'kanban-column',
  plural: 'kanban-columns',
  resource: 'kanban',
  sqlTable: 'kanban_column',
  label: 'name',
  parent: { entity: 'project', key: 'projectId', onDelete: 'cascade' },
  activityProject: 'projectId',
  fields: {
    name: field(requiredLine('Name', 60)),
    position: field(orderKeySchema, { word: 'order' }),
    isDone: field(v.boolean(), { default: false, word: 'done column' }),
  },
  indexes: ['[workspaceId+projectId]'],
  list: { scope: 'parent', orderBy: 'position COLLATE "C", id' },
});

export type KanbanColumn = v.InferOutput<typeof kanbanColumnEntity.rowSchema>;
