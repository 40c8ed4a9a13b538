/**
 * Project reads for the list, the board, the project header and the dashboard, from the local
 * database (offline, live). Rows hidden by a pending delete (their own or their client's
 * cascade) are never returned.
 */
import { isActiveProject } from '#contract/entities/plan.ts';
import type { ProjectStatus } from '#contract/entities/project.ts';
import { workspaceKeyRange, type AppDatabase, type LocalProject } from '../db/app-database.ts';
import { useLiveQuery } from '../db/live-query.ts';

export interface ProjectListOptions {
  status?: ProjectStatus;
  clientId?: string;
  includeArchived?: boolean;
  search?: string;
}

/** "Projects due soon" on the dashboard: overdue or due within this many days. */
export const DUE_SOON_DAYS = 14;
const OPEN_STATUSES: ReadonlySet<ProjectStatus> = new Set(['planned', 'active', 'on_hold']);
const byName = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });

const visible = (project: LocalProject, includeArchived = false) =>
  !project._deleted && (includeArchived || !project.archived);

export async function listProjects(
  db: AppDatabase,
  workspaceId: string,
  options: ProjectListOptions = {},
): Promise<LocalProject[]> {
  const needle = options.search?.trim().toLowerCase() ?? '';
  const [lower, upper] = workspaceKeyRange(workspaceId);
  const collection =
    options.clientId !== undefined
      ? db.projects.where('[workspaceId+clientId]').equals([workspaceId, options.clientId])
      : options.status !== undefined
        ? db.projects.where('[workspaceId+status]').equals([workspaceId, options.status])
        : db.projects.where('[workspaceId+name]').between(lower, upper);
  // getAll then a plain filter: faster than a filtering cursor over thousands of rows.
  const rows = (await collection.toArray()).filter(
    (project) =>
      visible(project, options.includeArchived) &&
      (options.status === undefined || project.status === options.status) &&
      (needle === '' || project.name.toLowerCase().includes(needle)),
  );
  return rows.sort((a, b) => byName.compare(a.name, b.name));
}

/**
 * The first `limit` projects by name straight off the `[workspaceId+name]` index: a cold open
 * paints these while the full list (every row, sorted with the collator) loads. Index order is
 * code-point order, so a mixed-case name may move a little when the full list lands.
 */
export async function listFirstProjects(
  db: AppDatabase,
  workspaceId: string,
  limit: number,
): Promise<LocalProject[]> {
  const [lower, upper] = workspaceKeyRange(workspaceId);
  return db.projects
    .where('[workspaceId+name]')
    .between(lower, upper)
    .filter((project) => visible(project))
    .limit(limit)
    .toArray();
}

/** Projects that take a place in the plan's active-project allowance (pending ones included). */
export async function countActiveProjects(db: AppDatabase, workspaceId: string): Promise<number> {
  const [lower, upper] = workspaceKeyRange(workspaceId);
  return db.projects
    .where('[workspaceId+name]')
    .between(lower, upper)
    .filter((project) => !project._deleted && isActiveProject(project))
    .count();
}

export async function getProject(db: AppDatabase, id: string): Promise<LocalProject | undefined> {
  const project = await db.projects.get(id);
  return project && !project._deleted ? project : undefined;
}

/** The board: projects grouped by status, each column sorted by name. */
export async function listProjectBoard(
  db: AppDatabase,
  workspaceId: string,
  options: Omit<ProjectListOptions, 'status'> = {},
): Promise<Record<ProjectStatus, LocalProject[]>> {
  const board: Record<ProjectStatus, LocalProject[]> = {
    planned: [],
    active: [],
    on_hold: [],
    completed: [],
    cancelled: [],
  };
  for (const project of await listProjects(db, workspaceId, options)) {
    board[project.status].push(project);
  }
  return board;
}

export function addDays(isoDate: string, days: number): string {
  const date = new Date(`${isoDate}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** Open projects overdue or due by `today + days`, soonest first (dashboard). */
export async function listProjectsDueSoon(
  db: AppDatabase,
  workspaceId: string,
  today: string,
  days = DUE_SOON_DAYS,
): Promise<LocalProject[]> {
  const [lower] = workspaceKeyRange(workspaceId);
  const rows = await db.projects
    .where('[workspaceId+dueDate]')
    .between(lower, [workspaceId, addDays(today, days)], true, true)
    .toArray();
  return rows.filter((project) => visible(project) && OPEN_STATUSES.has(project.status));
}

export function useProjects(
  db: AppDatabase,
  workspaceId: string,
  options: ProjectListOptions = {},
  /** False holds the query back (a cold open paints its first page before reading every row). */
  enabled = true,
): LocalProject[] | undefined {
  const { status, clientId, includeArchived, search } = options;
  return useLiveQuery(
    () =>
      enabled
        ? listProjects(db, workspaceId, {
            ...(status === undefined ? {} : { status }),
            ...(clientId === undefined ? {} : { clientId }),
            ...(includeArchived === undefined ? {} : { includeArchived }),
            ...(search === undefined ? {} : { search }),
          })
        : undefined,
    [db, workspaceId, status, clientId, includeArchived, search, enabled],
  );
}

export function useProject(db: AppDatabase, id: string): LocalProject | null | undefined {
  return useLiveQuery(async () => (await getProject(db, id)) ?? null, [db, id]);
}

export function useActiveProjects(
  db: AppDatabase,
  workspaceId: string,
): LocalProject[] | undefined {
  return useLiveQuery(() => listProjects(db, workspaceId, { status: 'active' }), [db, workspaceId]);
}

export function useProjectsDueSoon(
  db: AppDatabase,
  workspaceId: string,
  today: string,
  days = DUE_SOON_DAYS,
): LocalProject[] | undefined {
  return useLiveQuery(
    () => listProjectsDueSoon(db, workspaceId, today, days),
    [db, workspaceId, today, days],
  );
}
