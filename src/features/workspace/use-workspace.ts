/**
 * The workspace the screens show. A user owns one workspace (created at registration) and may be a
 * member of others later; the owned one comes first, then the oldest. Read from the local database,
 * so it is there offline; on a first sign-in it appears once the first pull lands.
 */
import type { LocalWorkspace } from '../../db/app-database.ts';
import { useLiveQuery } from '../../db/live-query.ts';
import { readPreferredWorkspace } from '../members/preferred-workspace.ts';
import { useSync } from './sync-context.tsx';

export type WorkspaceState =
  { status: 'loading' } | { status: 'missing' } | { status: 'ready'; workspace: LocalWorkspace };

export function useWorkspaceState(): WorkspaceState {
  const { handle, userId } = useSync();
  const db = handle.db;
  // The workspace chosen on this device (an accepted invitation) comes first, while it is here.
  const preferred = readPreferredWorkspace(userId);
  const result = useLiveQuery(async () => {
    const workspaces = await db.workspaces.toArray();
    if (workspaces.length === 0) return null;
    const owned = new Set(
      (await db.members.toArray())
        .filter((member) => member.id === userId && member.role === 'owner')
        .map((member) => member.workspaceId),
    );
    workspaces.sort(
      (a, b) =>
        Number(b.id === preferred) - Number(a.id === preferred) ||
        Number(owned.has(b.id)) - Number(owned.has(a.id)) ||
        a.createdAt.localeCompare(b.createdAt),
    );
    return workspaces[0] ?? null;
  }, [db, userId, preferred]);
  if (result === undefined) return { status: 'loading' };
  if (result === null) return { status: 'missing' };
  return { status: 'ready', workspace: result };
}
