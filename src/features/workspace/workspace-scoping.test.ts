/**
 * The device holds every workspace its user belongs to, and the header switches between them
 * (issue 17), so every workspace-wide read a screen makes must keep to the workspace it is given.
 * A guard over the reads the screens use (clients, projects, the dashboard's tasks, milestones
 * and money, change requests, invoices, the calendar, files): what they answer for one workspace
 * is the same whether or not another workspace's rows are on the device. The second workspace is
 * the demo's sample data again under other ids, so every table has realistic rows in both.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { allEntities } from '#contract/synced-entities.ts';
import { listCalendarSource } from '../../data/calendar.ts';
import { listChangeRequests } from '../../data/change-request-queries.ts';
import { listClients, listClientTags, listRecentClients } from '../../data/client-queries.ts';
import { listClientFiles } from '../../data/files.ts';
import { listInvoiceViews, moneyFigures } from '../../data/invoices.ts';
import {
  countActiveProjects,
  listFirstProjects,
  listProjects,
  listProjectsDueSoon,
} from '../../data/project-queries.ts';
import { listMilestonesAwaitingApproval, listOpenTasks } from '../../data/project-work.ts';
import { createAppDatabase, type AppDatabase } from '../../db/app-database.ts';
import { buildDemoSeed, demoIds, DEMO_WORKSPACE_ID, type DemoSeed } from '../../demo/demo-seed.ts';

const now = new Date('2026-03-10T09:00:00Z');
const today = '2026-03-10';
const A = DEMO_WORKSPACE_ID;

/** The same sample data as a second workspace: every id (and so every reference) renamed. */
function otherWorkspace(seed: DemoSeed): DemoSeed {
  return JSON.parse(JSON.stringify(seed).replaceAll('de7a0000-', 'be7a0000-')) as DemoSeed;
}

async function put(db: AppDatabase, seed: DemoSeed): Promise<void> {
  await db.workspaces.put({ ...seed.workspace, _v: 1 });
  await db.members.put({ ...seed.member, workspaceId: seed.workspace.id });
  const rows = seed.rows as Record<string, Record<string, unknown>[] | undefined>;
  for (const entity of allEntities()) {
    const local = (rows[entity.table] ?? []).map((row) => ({
      ...row,
      _v: 1,
      _pending: 0,
      _deleted: false,
      _base: {},
    }));
    await db.table(entity.table).bulkPut(local);
  }
}

const ids = (rows: readonly { id: string }[]) => rows.map((row) => row.id).sort();

/** Everything the screens read for workspace A, reduced to ids and figures. */
async function readsOf(db: AppDatabase) {
  const calendar = await listCalendarSource(db, A);
  const invoices = await listInvoiceViews(db, A, today);
  return {
    clients: ids(await listClients(db, A, { includeArchived: true })),
    recentClients: ids(await listRecentClients(db, A, 50)),
    clientTags: await listClientTags(db, A),
    projects: ids(await listProjects(db, A, { includeArchived: true })),
    firstProjects: ids(await listFirstProjects(db, A, 50)),
    activeProjects: await countActiveProjects(db, A),
    dueSoon: ids(await listProjectsDueSoon(db, A, today)),
    openTasks: ids(await listOpenTasks(db, A)),
    awaitingApproval: ids(await listMilestonesAwaitingApproval(db, A)),
    changeRequests: ids(await listChangeRequests(db, A)),
    invoices: invoices.map((view) => view.invoice.id).sort(),
    money: moneyFigures(invoices, today),
    calendar: {
      milestones: ids(calendar.milestones),
      tasks: ids(calendar.tasks),
      projects: ids(calendar.projects),
      events: ids(calendar.events),
      doneColumns: [...calendar.doneColumnIds].sort(),
    },
    clientFiles: (await listClientFiles(db, A, demoIds.client(1))).map((row) => row.file.id).sort(),
  };
}

const opened: AppDatabase[] = [];
function freshDatabase(): AppDatabase {
  const db = createAppDatabase('u1', { name: `test-${crypto.randomUUID()}` });
  opened.push(db);
  return db;
}
afterEach(() => {
  for (const db of opened.splice(0)) db.close();
});

describe('workspace-wide reads keep to their workspace', () => {
  it('answer the same for one workspace with another one on the device', async () => {
    const seed = buildDemoSeed(now);
    const alone = freshDatabase();
    await put(alone, seed);
    const shared = freshDatabase();
    await put(shared, seed);
    await put(shared, otherWorkspace(seed));
    // The second workspace is really there, in every table the reads use.
    expect(await shared.workspaces.count()).toBe(2);
    expect(await shared.tasks.count()).toBe(2 * (seed.rows.tasks?.length ?? 0));

    const expected = await readsOf(alone);
    // Not vacuous: each read finds workspace A's rows.
    expect(expected.clients.length).toBeGreaterThan(0);
    expect(expected.openTasks.length).toBeGreaterThan(0);
    expect(expected.invoices.length).toBeGreaterThan(0);
    expect(expected.calendar.tasks.length).toBeGreaterThan(0);
    expect(expected.clientFiles.length).toBeGreaterThan(0);
    expect(await readsOf(shared)).toEqual(expected);
  });
});
