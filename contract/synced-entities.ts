/**
 * Every synced entity, in parent order (a parent before its children): the snapshot of a pull,
 * the device's tables, cascades and purges all follow this list. Adding an entity: declare it
 * (contract/entities/<name>.ts), list it here, write its migration and a Dexie schema version,
 * then its queries and screens (ARCHITECTURE.md "Adding a synced entity").
 */
import { calendarEventEntity } from './entities/calendar-event.ts';
import { changeRequestEntity } from './entities/change-request.ts';
import { chatMessageEntity, chatReactionEntity, chatReadEntity } from './entities/chat.ts';
import { clientEntity } from './entities/client.ts';
import { fileEntity } from './entities/file.ts';
import { invoiceEntity, invoicePaymentEntity } from './entities/invoice.ts';
import { kanbanColumnEntity } from './entities/kanban-column.ts';
import { milestoneEntity } from './entities/milestone.ts';
import { clientNoteEntity, noteEntity } from './entities/note.ts';
import { projectEntity } from './entities/project.ts';
import { taskEntity } from './entities/task.ts';
import type { AnySyncedEntity } from './synced-entity.ts';

export const syncedEntities = [
  clientEntity,
  projectEntity,
  milestoneEntity,
  kanbanColumnEntity,
  taskEntity,
  noteEntity,
  clientNoteEntity,
  fileEntity,
  changeRequestEntity,
  calendarEventEntity,
  chatMessageEntity,
  chatReactionEntity,
  chatReadEntity,
  invoiceEntity,
  invoicePaymentEntity,
] as const;

export type SyncedEntities = typeof syncedEntities;
export type SyncedEntityName = SyncedEntities[number]['name'];
export type SyncedEntityTable = SyncedEntities[number]['table'];

const byName = new Map<string, AnySyncedEntity>(
  syncedEntities.map((entity) => [entity.name, entity as unknown as AnySyncedEntity]),
);
const byTable = new Map<string, AnySyncedEntity>(
  syncedEntities.map((entity) => [entity.table, entity as unknown as AnySyncedEntity]),
);

/** The declaration of an entity name (throws for a name nobody declared: a programming error). */
export function entityNamed(name: string): AnySyncedEntity {
  const entity = byName.get(name);
  if (!entity) throw new Error(`No synced entity is named "${name}".`);
  return entity;
}

export function entityOfTable(table: string): AnySyncedEntity | undefined {
  return byTable.get(table);
}

/** Entities whose parent is `name`, in list order. */
export function childrenOf(name: string): AnySyncedEntity[] {
  return allEntities().filter((entity) => entity.parent?.entity === name);
}

export function allEntities(): AnySyncedEntity[] {
  return syncedEntities as unknown as AnySyncedEntity[];
}
