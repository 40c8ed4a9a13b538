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
import { chatReactionHooks, chatReadHooks, createChatMessageHooks } from './chat.ts';
import { createEntityHandlers, type EntityHooks, type PublishRows } from './entity-handlers.ts';
import type { NotificationStore } from '../realtime/notification-store.ts';
import { fileHooks } from './file.ts';
import {
  invoiceHooks,
  invoicePaymentHooks,
  keepClientsWithSentInvoices,
  unlinkProjectInvoices,
} from './invoice.ts';
import { projectHooks } from './project.ts';
import { columnHooks, milestoneHooks, noteHooks, taskHooks } from './project-work.ts';

export interface SyncedEntityDeps extends ChangeRequestDeps {
  /** Mentions in chat; absent, nobody is told. */
  notifications?: Pick<NotificationStore, 'createNotification'>;
  /** Live entities' rows to the hub after commit; absent, they are only announced. */
  publishRows?: PublishRows;
}

export function createSyncedEntityHandlers(
  deps: SyncedEntityDeps,
): ResourceHandlers<SyncedEntities[number]['resource']> {
  const hooks: { readonly [N in SyncedEntityName]?: EntityHooks } = {
    // A deleted project (or a client with its projects) leaves its calendar events, unlinked.
    // ...and a client with sent invoices is kept: they are numbered records.
    client: {
      beforeDelete: async (ctx) => {
        await keepClientsWithSentInvoices(ctx);
        await unlinkClientEvents(ctx);
      },
    },
    project: {
      ...projectHooks,
      beforeDelete: async (ctx) => {
        await unlinkProjectEvents(ctx);
        await unlinkProjectInvoices(ctx);
      },
    },
    milestone: milestoneHooks,
    'kanban-column': columnHooks,
    task: taskHooks,
    note: noteHooks,
    'client-note': noteHooks,
    file: fileHooks,
    'change-request': createChangeRequestHooks(deps),
    'calendar-event': calendarEventHooks,
    'chat-message': createChatMessageHooks(deps.notifications ?? null),
    'chat-reaction': chatReactionHooks,
    'chat-read': chatReadHooks,
    invoice: invoiceHooks,
    'invoice-payment': invoicePaymentHooks,
  };
  const handlers = Object.assign(
    {},
    ...allEntities().map((entity) =>
      createEntityHandlers(entity, hooks[entity.name as SyncedEntityName], deps.publishRows),
    ),
  ) as object;
  // One handler per derived operation; the registry's types cannot see through the loop.
  return handlers as ResourceHandlers<SyncedEntities[number]['resource']>;
}
