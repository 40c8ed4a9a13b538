/**
 * The server's typed way to push hub events. Call it only after the change it announces has
 * committed (afterCommit, or the operation runner's publishInvalidation). It never rejects: a
 * push that fails (Redis down) is logged, because the change itself already happened and clients
 * recover by pulling on reconnect.
 */
import * as v from 'valibot';
import type { Notification } from '#contract/entities/notification.ts';
import {
  hubEvents,
  hubEventSchemas,
  type HubEventName,
  type HubEventPayload,
} from '#contract/realtime.ts';
import type { Logger } from '../logger.ts';
import { userGroup, workspaceGroup } from './hub-groups.ts';
import type { NotificationHub } from './notification-hub.ts';

export interface TablesInvalidated {
  workspaceId: string;
  tables: readonly string[];
  seq: number;
  originClientId: string | null;
}

export interface RealtimePublisher {
  /** `tablesInvalidated` to the workspace's group: its members pull once if `seq` is new to them. */
  publishTablesInvalidated(change: TablesInvalidated): Promise<void>;
  /** A live entity's committed rows to the workspace's group (rowsChanged). */
  publishRowsChanged(change: HubEventPayload<'rowsChanged'>): Promise<void>;
  /** subscriptionChanged to the workspace's group: its open apps read the plan again. */
  publishSubscriptionChanged(workspaceId: string): Promise<void>;
  /** accountDeleted to the user's group: their other devices sign out and drop the data. */
  publishAccountDeleted(userId: string): Promise<void>;
  notificationReceived(userId: string, notification: Notification): Promise<void>;
  notificationCountUpdated(userId: string, unreadCount: number): Promise<void>;
}

export function createRealtimePublisher(deps: {
  hub: Pick<NotificationHub, 'sendToGroup'>;
  logger: Logger;
}): RealtimePublisher {
  const log = deps.logger.child({ component: 'realtime-publisher' });

  async function publish<E extends HubEventName>(
    group: string,
    event: E,
    payload: HubEventPayload<E>,
  ): Promise<void> {
    try {
      // The payload is checked against the contract the app parses with, before it leaves.
      const checked = v.parse(hubEventSchemas[event], payload);
      await deps.hub.sendToGroup(group, event, [checked]);
    } catch (error) {
      log.error({ err: error, event, group }, 'hub push failed');
    }
  }

  return {
    publishTablesInvalidated: (change) =>
      publish(workspaceGroup(change.workspaceId), hubEvents.tablesInvalidated, {
        workspaceId: change.workspaceId,
        tables: [...change.tables],
        seq: change.seq,
        originClientId: change.originClientId,
      }),
    publishRowsChanged: (change) =>
      publish(workspaceGroup(change.workspaceId), hubEvents.rowsChanged, change),
    publishSubscriptionChanged: (workspaceId) =>
      publish(workspaceGroup(workspaceId), hubEvents.subscriptionChanged, { workspaceId }),
    publishAccountDeleted: (userId) =>
      publish(userGroup(userId), hubEvents.accountDeleted, { userId }),
    notificationReceived: (userId, notification) =>
      publish(userGroup(userId), hubEvents.notificationReceived, { notification }),
    notificationCountUpdated: (userId, unreadCount) =>
      publish(userGroup(userId), hubEvents.notificationCountUpdated, { unreadCount }),
  };
}
