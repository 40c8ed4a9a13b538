import { describe, expect, it } from 'vitest';
import { createAppDatabase } from '../db/app-database.ts';
import type { LocalWriteContext } from '../db/local-write.ts';
import { createClient } from './client-mutations.ts';
import {
  ACCEPTED_IS_FINAL,
  answerChangeRequest,
  applyChangeRequest,
  createChangeRequest,
} from './change-request-mutations.ts';
import {
  countProjectChangeRequests,
  listChangeRequests,
  matchesChangeRequestFilter,
  type LocalChangeRequest,
} from './change-request-queries.ts';
import { createProject } from './project-mutations.ts';
import { listMilestones, milestoneWrites } from './project-work.ts';

const WS = '0190a000-0000-7000-8000-000000000001';

async function setup() {
  const ctx: LocalWriteContext = {
    db: createAppDatabase('u1', { name: `test-${crypto.randomUUID()}` }),
    userId: 'u1',
  };
  const client = await createClient(ctx, { workspaceId: WS, name: 'Acme' });
  const project = await createProject(ctx, {
    workspaceId: WS,
    clientId: client.id,
    name: 'Website',
    currency: 'EUR',
  });
  return { ctx, project };
}

/** A request as a pull brings it (the server's row, nothing pending here). */
async function putPulled(
  ctx: LocalWriteContext,
  projectId: string,
  values: Partial<LocalChangeRequest>,
): Promise<LocalChangeRequest> {
  const row: LocalChangeRequest = {
    id: crypto.randomUUID(),
    workspaceId: WS,
    projectId,
    title: 'French version',
    description: null,
    desiredDate: null,
    attachmentFileIds: [],
    status: 'submitted',
    costImpact: null,
    currency: 'EUR',
    scheduleImpactDays: null,
    answer: null,
    source: 'portal',
    requestedBy: 'Dana Client',
    clientDecision: null,
    appliedAt: null,
    createdAt: '2026-03-01T10:00:00.000Z',
    createdBy: 'portal',
    updatedAt: '2026-03-01T10:00:00.000Z',
    updatedBy: 'portal',
    version: 3,
    _v: 3,
    _pending: 0,
    _deleted: false,
    _base: {},
    ...values,
  };
  await ctx.db.changeRequests.put(row);
  return row;
}

const operations = async (ctx: LocalWriteContext) =>
  (await ctx.db.outbox.toArray()).map((entry) => entry.operation);

describe('change request mutations', () => {
  it('records a request a member writes down, as a new one', async () => {
    const { ctx, project } = await setup();
    const created = await createChangeRequest(ctx, {
      workspaceId: WS,
      projectId: project.id,
      title: 'Add a blog',
      desiredDate: '2026-05-01',
      currency: 'EUR',
    });
    expect(created).toMatchObject({ status: 'submitted', source: 'member', requestedBy: '' });
    expect((await ctx.db.outbox.toArray()).at(-1)).toMatchObject({
      operation: 'create-change-request',
      args: { title: 'Add a blog', desiredDate: '2026-05-01', projectId: project.id },
    });
  });

  it('answers with one patch of what changed, and never after the client accepted', async () => {
    const { ctx, project } = await setup();
    const request = await putPulled(ctx, project.id, {});
    const before = await ctx.db.outbox.count();
    expect(
      await answerChangeRequest(ctx, request.id, {
        status: 'quoted',
        costImpact: -25050,
        scheduleImpactDays: 5,
        answer: null,
      }),
    ).toBe(true);
    const entries = await ctx.db.outbox.toArray();
    expect(entries).toHaveLength(before + 1);
    expect(entries.at(-1)).toMatchObject({
      operation: 'update-change-request',
      query: { id: request.id },
      args: { status: 'quoted', costImpact: -25050, scheduleImpactDays: 5 },
    });
    // The contract's limits, beside the field, and nothing queued.
    await expect(
      answerChangeRequest(ctx, request.id, {
        status: 'approved',
        costImpact: null,
        scheduleImpactDays: 5000,
        answer: null,
      }),
    ).rejects.toMatchObject({
      details: { issues: [{ path: 'scheduleImpactDays', message: 'That is more than ten years' }] },
    });

    const accepted = await putPulled(ctx, project.id, { status: 'accepted' });
    const count = await ctx.db.outbox.count();
    await expect(
      answerChangeRequest(ctx, accepted.id, {
        status: 'declined',
        costImpact: null,
        scheduleImpactDays: null,
        answer: null,
      }),
    ).rejects.toMatchObject({ message: ACCEPTED_IS_FINAL });
    expect(await ctx.db.outbox.count()).toBe(count);
  });

  it('applies a change: a milestone at the end, moved due dates, then appliedAt', async () => {
    const { ctx, project } = await setup();
    const first = await milestoneWrites.create(ctx, {
      workspaceId: WS,
      projectId: project.id,
      title: 'Design',
      dueDate: '2026-03-12',
      position: 'a0',
    });
    const second = await milestoneWrites.create(ctx, {
      workspaceId: WS,
      projectId: project.id,
      title: 'Launch',
      dueDate: '2026-04-28',
      position: 'a1',
    });
    const request = await putPulled(ctx, project.id, {
      status: 'accepted',
      costImpact: 120000,
      scheduleImpactDays: 5,
    });
    const queued = await ctx.db.outbox.count();

    const result = await applyChangeRequest(
      ctx,
      request.id,
      {
        milestone: { title: 'French version', amount: 120000, dueDate: '2026-05-01' },
        moveMilestoneIds: [first.id, second.id],
      },
      new Date('2026-03-02T09:00:00.000Z'),
    );
    expect(result.moved).toBe(2);

    const milestones = await listMilestones(ctx.db, WS, project.id);
    expect(milestones.map((m) => [m.title, m.dueDate])).toEqual([
      ['Design', '2026-03-17'],
      ['Launch', '2026-05-03'],
      ['French version', '2026-05-01'],
    ]);
    const entries = (await ctx.db.outbox.toArray()).slice(queued);
    expect(entries.map((entry) => entry.operation)).toEqual([
      'create-milestone',
      'update-milestone',
      'update-milestone',
      'update-change-request',
    ]);
    expect(entries[0]?.args).toMatchObject({ amount: 120000, currency: 'EUR' });
    expect(entries[1]?.args).toEqual({ dueDate: '2026-03-17' });
    expect(entries[3]?.args).toEqual({ appliedAt: '2026-03-02T09:00:00.000Z' });

    await expect(
      applyChangeRequest(ctx, request.id, { milestone: null, moveMilestoneIds: [] }),
    ).rejects.toMatchObject({ message: 'This change was already applied to the milestones.' });
  });

  it('applies all or nothing, and only a change that goes ahead', async () => {
    const { ctx, project } = await setup();
    const milestone = await milestoneWrites.create(ctx, {
      workspaceId: WS,
      projectId: project.id,
      title: 'Design',
      dueDate: '2026-03-12',
      position: 'a0',
    });
    const quoted = await putPulled(ctx, project.id, { status: 'quoted', scheduleImpactDays: 2 });
    await expect(
      applyChangeRequest(ctx, quoted.id, { milestone: null, moveMilestoneIds: [milestone.id] }),
    ).rejects.toMatchObject({ code: 'invalid' });

    const approved = await putPulled(ctx, project.id, {
      status: 'approved',
      scheduleImpactDays: 2,
    });
    const queued = await operations(ctx);
    // A refused title: nothing is written.
    await expect(
      applyChangeRequest(ctx, approved.id, {
        milestone: { title: ' ', amount: null, dueDate: null },
        moveMilestoneIds: [milestone.id],
      }),
    ).rejects.toMatchObject({ details: { issues: [{ path: 'title' }] } });
    // The milestone is added and one date moved before a chosen milestone turns out gone:
    // none of it stays.
    await expect(
      applyChangeRequest(ctx, approved.id, {
        milestone: { title: 'Extra page', amount: null, dueDate: null },
        moveMilestoneIds: [milestone.id, '0190a000-0000-7000-8000-00000000dead'],
      }),
    ).rejects.toMatchObject({ code: 'not_found' });
    expect(await operations(ctx)).toEqual(queued);
    expect((await listMilestones(ctx.db, WS, project.id)).map((m) => m.title)).toEqual(['Design']);
    expect((await ctx.db.milestones.get(milestone.id))?.dueDate).toBe('2026-03-12');
    expect((await ctx.db.changeRequests.get(approved.id))?.appliedAt).toBeNull();
  });
});

describe('change request queries', () => {
  it('lists newest first without deleted rows, and filters by status and project', async () => {
    const { ctx, project } = await setup();
    const older = await putPulled(ctx, project.id, { createdAt: '2026-01-01T00:00:00.000Z' });
    const newer = await putPulled(ctx, project.id, {
      createdAt: '2026-02-01T00:00:00.000Z',
      status: 'approved',
    });
    await putPulled(ctx, project.id, { _deleted: true });
    const rows = await listChangeRequests(ctx.db, WS);
    expect(rows.map((row) => row.id)).toEqual([newer.id, older.id]);

    expect(matchesChangeRequestFilter(older, { status: 'open' })).toBe(true);
    expect(matchesChangeRequestFilter(newer, { status: 'open' })).toBe(false);
    expect(matchesChangeRequestFilter(newer, { status: 'approved' })).toBe(true);
    expect(matchesChangeRequestFilter(newer, { status: 'all', projectId: 'other' })).toBe(false);
    expect(await countProjectChangeRequests(ctx.db, WS, project.id)).toEqual({
      open: 1,
      total: 2,
    });
  });
});
