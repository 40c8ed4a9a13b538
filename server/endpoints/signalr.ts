/**
 * Spec section 7's SignalR calls. Identity always comes from the bearer token: `x-user-id` (folded
 * into `userId`), `x-workspace-id` and the body's ids are claims that must match it, else 403.
 */
import { AppError, ErrorCode } from '../http/app-error.ts';
import type { ResourceHandlers } from '../http/endpoint-handler.ts';
import { userGroup, workspaceGroup } from '../realtime/hub-groups.ts';
import type { NotificationHub } from '../realtime/notification-hub.ts';
import { requireWorkspaceRole } from './workspace-access.ts';

export function createSignalrHandlers(deps: {
  hub: Pick<NotificationHub, 'url' | 'issueAccessToken' | 'joinGroup'>;
}): ResourceHandlers<'signalr'> {
  const { hub } = deps;
  return {
    'signalr/notification-connect': async ({ query, identity, tx }) => {
      if (query.userId !== undefined && query.userId !== identity.userId) {
        throw new AppError(ErrorCode.FORBIDDEN, 'x-user-id does not match the signed-in user.');
      }
      if (query.workspaceId !== undefined) {
        await requireWorkspaceRole(tx, query.workspaceId, identity.userId);
      }
      return { url: hub.url, accessToken: await hub.issueAccessToken(identity) };
    },

    'signalr/join-notification-group': async ({ body, identity, tx }) => {
      if (body.userId !== identity.userId) {
        throw new AppError(ErrorCode.FORBIDDEN, 'You can only join groups as yourself.');
      }
      const workspaceId = body.workspaceId ?? null;
      if (body.groupType === 'workspace' && workspaceId === null) {
        throw new AppError(
          ErrorCode.VALIDATION_FAILED,
          'The workspace group needs a workspaceId.',
          {
            details: [{ path: 'body.workspaceId', message: 'Required for groupType workspace' }],
          },
        );
      }
      // A workspace named alongside the user group must be the caller's too: no probing.
      if (workspaceId !== null) await requireWorkspaceRole(tx, workspaceId, identity.userId);
      const group =
        body.groupType === 'workspace' && workspaceId !== null
          ? workspaceGroup(workspaceId)
          : userGroup(identity.userId);
      const result = await hub.joinGroup({
        connectionId: body.connectionId,
        userId: identity.userId,
        group,
      });
      switch (result) {
        case 'joined':
          return { ok: true };
        case 'forbidden':
          throw new AppError(ErrorCode.FORBIDDEN, 'That hub connection belongs to someone else.');
        case 'not-found':
          throw new AppError(
            ErrorCode.NOT_FOUND,
            'No live hub connection has this id; connect again and join with the new id.',
          );
        case 'unavailable':
          throw new AppError(ErrorCode.UNAVAILABLE, 'The hub could not be reached; try again.', {
            headers: { 'Retry-After': '1' },
          });
      }
    },
  };
}
