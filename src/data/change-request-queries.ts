/**
 * Change request reads for the change request center, from the local database (offline, live).
 * A workspace holds tens to a few hundred requests, so the screen reads them all once and filters
 * in memory: the same rows give the list, the counts and the project filter's choices. Rows hidden
 * by a pending delete (their own or their project's cascade) are never returned.
 */
import {
  changeRequestClosed,
  type ChangeRequestStatus,
} from '#contract/entities/change-request.ts';
import type { AppDatabase, LocalRow } from '../db/app-database.ts';
import { useLiveQuery } from '../db/live-query.ts';

export type LocalChangeRequest = LocalRow<'change-request'>;

/** The status filter: the open ones (someone waits on a member), one status, or every request. */
export type ChangeRequestStatusFilter = 'open' | 'all' | ChangeRequestStatus;

export interface ChangeRequestFilter {
  status: ChangeRequestStatusFilter;
  projectId?: string | undefined;
}

/** Newest first, as the server lists them (created_at DESC, id). */
function newestFirst(a: LocalChangeRequest, b: LocalChangeRequest): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? 1 : -1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

export async function listChangeRequests(
  db: AppDatabase,
  workspaceId: string,
): Promise<LocalChangeRequest[]> {
  const rows = await db.changeRequests.where('workspaceId').equals(workspaceId).toArray();
  return rows.filter((row) => !row._deleted).sort(newestFirst);
}

export function matchesChangeRequestFilter(
  request: Pick<LocalChangeRequest, 'status' | 'projectId'>,
  filter: ChangeRequestFilter,
): boolean {
  if (filter.projectId !== undefined && request.projectId !== filter.projectId) return false;
  if (filter.status === 'all') return true;
  if (filter.status === 'open') return !changeRequestClosed(request.status);
  return request.status === filter.status;
}

export function useChangeRequests(
  db: AppDatabase,
  workspaceId: string,
): LocalChangeRequest[] | undefined {
  return useLiveQuery(() => listChangeRequests(db, workspaceId), [db, workspaceId]);
}

/** A project's requests still waiting on a member, and all of them (the project overview). */
export async function countProjectChangeRequests(
  db: AppDatabase,
  workspaceId: string,
  projectId: string,
): Promise<{ open: number; total: number }> {
  const rows = (
    await db.changeRequests
      .where('[workspaceId+projectId]')
      .equals([workspaceId, projectId])
      .toArray()
  ).filter((row) => !row._deleted);
  return {
    open: rows.filter((row) => !changeRequestClosed(row.status)).length,
    total: rows.length,
  };
}

export function useProjectChangeRequestCount(
  db: AppDatabase,
  workspaceId: string,
  projectId: string,
): { open: number; total: number } | undefined {
  return useLiveQuery(
    () => countProjectChangeRequests(db, workspaceId, projectId),
    [db, workspaceId, projectId],
  );
}
