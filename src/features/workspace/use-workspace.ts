/**
 * The workspace the screens show. A user owns one workspace (created at registration) and may be a
 * member of others; the one chosen on this device comes first (an accepted invitation, the header's
 * switcher), then the owned one, then the oldest. Read from the local database, which holds every
 * workspace the user belongs to, so each is there offline; on a first sign-in it appears once the
 * first pull lands. The choice is reactive (preferred-workspace.ts): switching re-renders at once.
 */
import type { WorkspaceRole } from '#contract/entities/workspace.ts';
import type { LocalMember, LocalWorkspace } from '../../db/app-database.ts';
import { useLiveQuery } from '../../db/live-query.ts';
import { usePreferredWorkspace } from '../members/preferred-workspace.ts';
import { useSync } from './sync-context.tsx';

export type WorkspaceState =
  { status: 'loading' } | { status: 'missing' } | { status: 'ready'; workspace: LocalWorkspace };

export interface WorkspaceChoice {
  workspace: LocalWorkspace;
  /** The user's role there; null while their member row has not arrived yet. */
  role: WorkspaceRole | null;
}

/**
 * Every workspace on the device with the user's role, in the order the switcher lists them (owned
 * first, then the oldest), and the one the screens show: the preferred one while it is here,
 * else the first.
 */
export function orderWorkspaces(
  workspaces: readonly LocalWorkspace[],
  members: readonly Pick<LocalMember, 'id' | 'workspaceId' | 'role'>[],
  userId: string,
  preferred: string | null,
): { choices: WorkspaceChoice[]; current: LocalWorkspace | null } {
  const roles = new Map(
    members
      .filter((member) => member.id === userId)
      .map((member) => [member.workspaceId, member.role]),
  );
  const choices = workspaces
    .map((workspace) => ({ workspace, role: roles.get(workspace.id) ?? null }))
    .sort(
      (a, b) =>
        Number(b.role === 'owner') - Number(a.role === 'owner') ||
        a.workspace.createdAt.localeCompare(b.workspace.createdAt) ||
        a.workspace.id.localeCompare(b.workspace.id),
    );
  const current =
    choices.find((choice) => choice.workspace.id === preferred)?.workspace ??
    choices[0]?.workspace ??
    null;
  return { choices, current };
}

/** Every workspace on the device and the current one; undefined while loading. */
export function useWorkspaceChoices():
  { choices: WorkspaceChoice[]; current: LocalWorkspace | null } | undefined {
  const { handle, userId } = useSync();
  const db = handle.db;
  const preferred = usePreferredWorkspace(userId);
  // The rows are read live; the choice applies in render, so a switch shows on the same frame
  // (a query keyed on the choice would answer a tick later, flashing the gate's loading state).
  const rows = useLiveQuery(
    () => Promise.all([db.workspaces.toArray(), db.members.toArray()]),
    [db],
  );
  if (rows === undefined) return undefined;
  return orderWorkspaces(rows[0], rows[1], userId, preferred);
}

export function useWorkspaceState(): WorkspaceState {
  const result = useWorkspaceChoices();
  if (result === undefined) return { status: 'loading' };
  if (result.current === null) return { status: 'missing' };
  return { status: 'ready', workspace: result.current };
}
