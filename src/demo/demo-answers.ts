/**
 * What the demo's API client answers to the reads that server-backed panels make (the invoice's
 * business details, the project's activity, Settings' profile, members, plan, storage and
 * version, the notification list): sample values drawn from the demo's own database, so every
 * screen of /demo shows what it would for a real account instead of an error. Writes and
 * anything not listed here still answer "not available in the demo" (demo-api.ts).
 */
import * as v from 'valibot';
import type { ActivityEntry, ActivityKind } from '#contract/endpoints/project-activity.ts';
import type { WorkspaceSubscription } from '#contract/endpoints/subscription.ts';
import { billingIntervals, getPlan, isActiveProject, planIds } from '#contract/entities/plan.ts';
import type { AppDatabase } from '../db/app-database.ts';
import { DEMO_USER_ID } from './demo-mode.ts';
import { DEMO_WORKSPACE_ID } from './demo-seed.ts';

export interface DemoQuery {
  workspaceId?: string;
  projectId?: string;
  before?: string;
  kind?: ActivityKind;
}

type Answer = (query: DemoQuery, db: AppDatabase) => Promise<unknown>;

const demoPlan = getPlan('pro');
const MIB = 1024 ** 2;

const withoutLocalFields = <T extends object>(row: T) =>
  Object.fromEntries(Object.entries(row).filter(([key]) => !key.startsWith('_')));

async function activityOf(db: AppDatabase, query: DemoQuery): Promise<ActivityEntry[]> {
  const projectId = query.projectId ?? '';
  const key = [DEMO_WORKSPACE_ID, projectId];
  const project = await db.projects.get(projectId);
  const sources: [ActivityKind, { id: string; createdAt: string; label: string }[]][] = [
    ['project', project ? [{ ...project, label: project.name }] : []],
    ...(
      await Promise.all([
        db.milestones.where('[workspaceId+projectId]').equals(key).toArray(),
        db.tasks.where('[workspaceId+projectId]').equals(key).toArray(),
        db.notes.where('[workspaceId+projectId]').equals(key).toArray(),
        db.files.where('[workspaceId+projectId]').equals(key).toArray(),
        db.changeRequests.where('[workspaceId+projectId]').equals(key).toArray(),
      ])
    ).map((rows, index): [ActivityKind, { id: string; createdAt: string; label: string }[]] => [
      (['milestone', 'task', 'note', 'file', 'change-request'] as const)[index] ?? 'task',
      rows
        .filter((row) => !row._deleted)
        .map((row) => ({
          id: row.id,
          createdAt: row.createdAt,
          label: 'name' in row ? row.name : row.title,
        })),
    ]),
  ];
  const entries = sources
    .flatMap(([kind, rows]) => rows.map((row) => ({ kind, row })))
    .sort((a, b) => a.row.createdAt.localeCompare(b.row.createdAt))
    .map(({ kind, row }, index): ActivityEntry => ({
      seq: index + 1,
      at: row.createdAt,
      actorId: DEMO_USER_ID,
      actorName: 'Demo Visitor',
      actorKind: 'member',
      kind,
      entityId: row.id,
      label: row.label,
      op: 'create',
      changes: {},
    }));
  const before = query.before === undefined ? Infinity : Number(query.before);
  return entries
    .filter(
      (entry) => entry.seq < before && (query.kind === undefined || entry.kind === query.kind),
    )
    .reverse();
}

async function subscriptionOf(db: AppDatabase): Promise<WorkspaceSubscription> {
  const projects = await db.projects.where('workspaceId').equals(DEMO_WORKSPACE_ID).toArray();
  const periodEnd = new Date(Date.now() + 20 * 86_400_000).toISOString();
  return {
    workspaceId: DEMO_WORKSPACE_ID,
    plan: demoPlan.id,
    subscription: {
      plan: demoPlan.id,
      interval: 'month',
      status: 'active',
      cancelAtPeriodEnd: false,
      currentPeriodEnd: periodEnd,
    },
    usage: {
      activeProjects: {
        used: projects.filter((project) => !project._deleted && isActiveProject(project)).length,
        max: demoPlan.limits.activeProjects,
      },
      members: { used: 1, max: demoPlan.limits.members },
      storageBytes: { used: await storedBytes(db), max: demoPlan.limits.storageBytes },
    },
    paymentsConfigured: true,
    canManage: true,
    onSale: planIds
      .filter((plan) => plan !== 'free')
      .flatMap((plan) => billingIntervals.map((interval) => ({ plan, interval }))),
  };
}

async function storedBytes(db: AppDatabase): Promise<number> {
  const files = await db.files.where('workspaceId').equals(DEMO_WORKSPACE_ID).toArray();
  return files.filter((file) => !file._deleted).reduce((sum, file) => sum + file.size, 0);
}

/** Keyed by operation; the demo has one workspace and one user, so queries name only those. */
export const demoAnswers: Readonly<Record<string, Answer>> = {
  'get-workspace-settings': async (query, db) => {
    const workspace = await db.workspaces.get(query.workspaceId ?? DEMO_WORKSPACE_ID);
    return { workspace: workspace ? withoutLocalFields(workspace) : undefined };
  },
  'get-workspace-members': async (_, db) => ({
    members: (await db.members.where('workspaceId').equals(DEMO_WORKSPACE_ID).toArray()).map(
      ({ workspaceId: _workspaceId, ...member }) => member,
    ),
  }),
  'get-workspace-invites': () => Promise.resolve({ invites: [] }),
  'get-user-profile': () =>
    Promise.resolve({
      user: {
        id: DEMO_USER_ID,
        email: 'demo@satchel.example',
        firstName: 'Demo',
        lastName: 'Visitor',
        profilePictureUrl: null,
      },
    }),
  'get-calendar-feed': () => Promise.resolve({ feed: null }),
  'get-subscription': (_, db) => subscriptionOf(db),
  'get-file-storage': async (_, db) => ({
    workspaceId: DEMO_WORKSPACE_ID,
    usedBytes: await storedBytes(db),
    limitBytes: demoPlan.limits.storageBytes,
    plan: demoPlan.id,
    fileCount: await db.files.where('workspaceId').equals(DEMO_WORKSPACE_ID).count(),
    maxFileBytes: 100 * MIB,
  }),
  'get-version': () => Promise.resolve({ version: 'Demo (no server)', schemaVersion: null }),
  'get-project-activity': async (query, db) => ({
    activity: await activityOf(db, query),
    nextBefore: null,
  }),
  'get-notifications': () => Promise.resolve({ notifications: [] }),
  'get-unread-count': () => Promise.resolve({ unreadCount: 0 }),
};

/** The demo's answer to a read, checked against the endpoint's output; undefined when none. */
export async function answerInDemo(
  endpoint: { operation: string; output: v.GenericSchema },
  query: DemoQuery,
  db: AppDatabase,
): Promise<unknown> {
  const answer = demoAnswers[endpoint.operation];
  if (!answer) return undefined;
  return v.parse(endpoint.output, await answer(query, db));
}
