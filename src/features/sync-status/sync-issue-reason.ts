import type { SyncIssue } from '../../db/sync-issue.ts';

/** Why a change could not be saved, in the user's words. */
export function describeSyncIssueReason(reason: SyncIssue['reason']): string {
  switch (reason) {
    case 'validation':
      return 'The server did not accept these values.';
    case 'forbidden':
      return "You don't have permission to make this change.";
    case 'not_found':
      return 'It was deleted, here or on another device.';
    case 'conflict':
      return 'It clashes with another change.';
    case 'access_revoked':
      return 'You no longer have access to this workspace.';
    case 'stuck':
      return 'Still not saved after many tries. Satchel keeps trying.';
    case 'update_required':
      return 'Update Satchel to save this change.';
    case 'server_error':
      return 'The server failed on this change every time it tried. It has been reported; retry later or keep a copy.';
  }
}

/** The values an "Edit and retry" form offers: the plain text and number fields of the change. */
export function editableSyncIssueFields(issue: SyncIssue): [string, string | number][] {
  if (issue.payload.op === 'delete') return [];
  return Object.entries(issue.payload.args).filter(
    (entry): entry is [string, string | number] =>
      !['id', 'workspaceId', 'clientId'].includes(entry[0]) &&
      (typeof entry[1] === 'string' || typeof entry[1] === 'number'),
  );
}
