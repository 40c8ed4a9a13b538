import { DEFAULT_PULL_LIMIT } from '#contract/sync.ts';
import type { ResourceHandlers } from '../http/endpoint-handler.ts';
import { pullChanges } from '../sync/pull-changes.ts';
import { pushMutations } from '../sync/push-mutations.ts';

export function createSyncHandlers(): ResourceHandlers<'sync'> {
  return {
    // Runs outside a request transaction (OWN_TRANSACTION_OPERATIONS): one per mutation.
    'sync/push': ({ body, identity, runner, requestId, clientIp, logger }) =>
      pushMutations({
        clientId: body.clientId,
        mutations: body.mutations,
        identity,
        runner,
        requestId,
        clientIp,
        logger,
      }),

    'sync/pull': ({ query, identity, tx }) =>
      pullChanges(tx, {
        workspaceId: query.workspaceId,
        userId: identity.userId,
        cursor: query.cursor,
        limit: query.limit ?? DEFAULT_PULL_LIMIT,
      }),
  };
}
