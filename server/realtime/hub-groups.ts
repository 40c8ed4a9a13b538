/**
 * Group names on the notification hub. One place builds them, so the publisher and
 * join-notification-group can never disagree about where a user or a workspace listens.
 */
export function userGroup(userId: string): string {
  return `user:${userId}`;
}

export function workspaceGroup(workspaceId: string): string {
  return `workspace:${workspaceId}`;
}
