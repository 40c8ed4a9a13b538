/**
 * The CRUD operations of every declared synced entity (contract/synced-entities.ts), derived, with
 * each entity's own rules as hooks. A new entity without special rules needs nothing here.
 */
import {
  allEntities,
  type SyncedEntities,
  type SyncedEntityName,
} from '#contract/synced-entities.ts';
import type { ResourceHandlers } from '../http/endpoint-handler.ts';
import { calendarEventHooks, unlinkClientEvents, unlinkProjectEvents } from './calendar-event.ts';
import { createChangeRequestHooks, type ChangeRequestDeps } from './change-request.ts';
import { createEntityHandlers, type EntityHooks } from './entity-handlers.ts';
import { fileHooks } from './file.ts';
import { projectHooks } from './project.ts';
import { columnHooks, milestoneHooks, noteHooks, taskHooks } from './project-work.ts';

export function createSyncedEntityHandlers(
  deps: ChangeRequestDeps,
): ResourceHandlers<SyncedEntities[number]['resource']> {
  const hooks: { readonly [N in SyncedEntityName]?: EntityHooks } = {
    // A deleted project (or a client with its projects) leaves its calendar events, unlinked.
    client: { beforeDelete: unlinkClientEvents },
    project: { ...projectHooks, beforeDelete: unlinkProjectEvents },
    milestone: milestoneHooks,
    'kanban-column': columnHooks,
    task: taskHooks,
    note: noteHooks,
    'client-note': noteHooks,
    file: fileHooks,
    'change-request': createChangeRequestHooks(deps),
    'calendar-event': calendarEventHooks,
  };
  const handlers = Object.assign(
    {},
    ...allEntities().map((entity) =>
      createEntityHandlers(entity, hooks[entity.name as SyncedEntityName]),
    ),
  ) as object;
  // One handler per derived operation; the registry's types cannot see through the loop.
  return handlers as ResourceHandlers<SyncedEntities[number]['resource']>;
}
