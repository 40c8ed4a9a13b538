/**
 * The counts behind the header's sync status: changes the server has not applied yet (waiting)
 * and changes that need the user (failed: refused, lost access, or stuck). Small index reads; the
 * issues table stays small because resolved issues are deleted or marked.
 */
import type { AppDatabase } from './app-database.ts';
import { WAITING_STATUSES } from './outbox-entry.ts';

export interface SyncCounts {
  waiting: number;
  failed: number;
}

export async function readSyncCounts(db: AppDatabase): Promise<SyncCounts> {
  // One equality count per status: anyOf walks a cursor with jumps, slow on large stores.
  const [failed, ...waiting] = await Promise.all([
    db.syncIssues.filter((issue) => !issue.resolved && !issue.overwrote).count(),
    ...WAITING_STATUSES.map((status) => db.outbox.where('status').equals(status).count()),
  ]);
  return { waiting: waiting.reduce((sum, n) => sum + n, 0), failed };
}
