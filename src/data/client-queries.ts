/**
 * Client reads for the screens, straight from the local database so they work offline and update
 * live (local writes, pulls, other tabs). Plain async functions (testable, reusable) plus hooks.
 * Rows hidden by a pending delete are never returned.
 */
import type { ClientStatus } from '#contract/entities/client.ts';
import { workspaceKeyRange, type AppDatabase, type LocalClient } from '../db/app-database.ts';
import { useLiveQuery } from '../db/live-query.ts';

export interface ClientListOptions {
  status?: ClientStatus;
  includeArchived?: boolean;
  tag?: string;
  /** Instant local search over name, company and email. */
  search?: string;
}

const byName = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });

function matches(client: LocalClient, options: ClientListOptions, needle: string): boolean {
  if (client._deleted) return false;
  if (!options.includeArchived && client.archived) return false;
  if (options.tag !== undefined && !client.tags.includes(options.tag)) return false;
  if (needle === '') return true;
  return [client.name, client.company, client.email].some(
    (text) => text?.toLowerCase().includes(needle) ?? false,
  );
}

export async function listClients(
  db: AppDatabase,
  workspaceId: string,
  options: ClientListOptions = {},
): Promise<LocalClient[]> {
  const needle = options.search?.trim().toLowerCase() ?? '';
  const [lower, upper] = workspaceKeyRange(workspaceId);
  const collection =
    options.status === undefined
      ? db.clients.where('[workspaceId+name]').between(lower, upper)
      : db.clients.where('[workspaceId+status]').equals([workspaceId, options.status]);
  // getAll then a plain filter: faster than a filtering cursor over thousands of rows.
  const rows = (await collection.toArray()).filter((client) => matches(client, options, needle));
  return rows.sort((a, b) => byName.compare(a.name, b.name));
}

export async function getClient(db: AppDatabase, id: string): Promise<LocalClient | undefined> {
  const client = await db.clients.get(id);
  return client && !client._deleted ? client : undefined;
}

/** Most recently changed clients (dashboard). */
export async function listRecentClients(
  db: AppDatabase,
  workspaceId: string,
  limit = 5,
): Promise<LocalClient[]> {
  const [lower, upper] = workspaceKeyRange(workspaceId);
  return db.clients
    .where('[workspaceId+updatedAt]')
    .between(lower, upper)
    .reverse()
    .filter((client) => !client._deleted && !client.archived)
    .limit(limit)
    .toArray();
}

/** Distinct tags in use, for the tag filter. */
export async function listClientTags(db: AppDatabase, workspaceId: string): Promise<string[]> {
  const tags = new Set<string>();
  for (const client of await db.clients.where('workspaceId').equals(workspaceId).toArray()) {
    if (!client._deleted) for (const tag of client.tags) tags.add(tag);
  }
  return [...tags].sort(byName.compare);
}

export function useClients(
  db: AppDatabase,
  workspaceId: string,
  options: ClientListOptions = {},
): LocalClient[] | undefined {
  const { status, includeArchived, tag, search } = options;
  return useLiveQuery(
    () =>
      listClients(db, workspaceId, {
        ...(status === undefined ? {} : { status }),
        ...(includeArchived === undefined ? {} : { includeArchived }),
        ...(tag === undefined ? {} : { tag }),
        ...(search === undefined ? {} : { search }),
      }),
    [db, workspaceId, status, includeArchived, tag, search],
  );
}

export function useClient(db: AppDatabase, id: string): LocalClient | null | undefined {
  // undefined while loading, null when there is no such client here.
  return useLiveQuery(async () => (await getClient(db, id)) ?? null, [db, id]);
}

export function useRecentClients(
  db: AppDatabase,
  workspaceId: string,
  limit = 5,
): LocalClient[] | undefined {
  return useLiveQuery(() => listRecentClients(db, workspaceId, limit), [db, workspaceId, limit]);
}
