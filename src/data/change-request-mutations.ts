/**
 * Change request writes for the members' change request center: record a request, answer it
 * (cost, timeline, a note and one of the members' statuses), and apply a change that goes ahead
 * to the project's milestones. Everything is a local write through the outbox (entity-writes.ts),
 * so it works offline. Invariants:
 * - A member never writes the client's statuses ('accepted', 'quote_declined'): the types allow
 *   only `memberChangeRequestStatuses`, and the server's hook refuses the others anyway.
 * - Once the client accepted a quote, its answer is final: answering refuses the write here, on
 *   the row as this device has it, before anything is queued.
 * - Applying is one transaction: the new milestone, the moved due dates and `appliedAt` are all
 *   queued, or nothing is (a refused value leaves no half-applied change behind).
 */
import {
  changeGoesAhead,
  changeRequestEntity,
  type memberChangeRequestStatuses,
} from '#contract/entities/change-request.ts';
import { orderKeyBetween } from '#contract/entities/order-key.ts';
import { entityTables, type AppDatabase } from '../db/app-database.ts';
import { LocalWriteError, type LocalWriteContext } from '../db/local-write.ts';
import type { LocalChangeRequest } from './change-request-queries.ts';
import { entityWrites, type NewRowInput } from './entity-writes.ts';
import { addDays } from './project-queries.ts';
import { listMilestones, milestoneWrites, type LocalMilestone } from './project-work.ts';

export const changeRequestWrites = entityWrites(changeRequestEntity);

export type MemberChangeRequestStatus = (typeof memberChangeRequestStatuses)[number];

/** A request a member writes down (after a call, say): it starts as 'submitted'. */
export type NewChangeRequestInput = Omit<NewRowInput<typeof changeRequestEntity>, 'status'>;

export interface ChangeRequestAnswer {
  status: MemberChangeRequestStatus;
  /** Minor units; negative when the change saves money. */
  costImpact: number | null;
  /** Whole days; negative when the project ends sooner. */
  scheduleImpactDays: number | null;
  answer: string | null;
}

export interface ApplyChangeInput {
  /** A milestone added at the end of the project's list (in the request's currency), or none. */
  milestone: { title: string; amount: number | null; dueDate: string | null } | null;
  /** Milestones whose due date moves by the request's timeline impact. */
  moveMilestoneIds: readonly string[];
}

export interface ApplyChangeResult {
  created: LocalMilestone | null;
  moved: number;
}

export const ACCEPTED_IS_FINAL =
  'The client accepted this quote, so its answer can no longer change.';

/** The same tables every entity write takes, so the writes below join one transaction. */
function writeScope(db: AppDatabase) {
  return [...entityTables(db), db.outbox, db.syncState];
}

function refused(path: string, message: string): LocalWriteError {
  return new LocalWriteError('invalid', message, { issues: [{ path, message }] });
}

async function currentRequest(db: AppDatabase, id: string): Promise<LocalChangeRequest> {
  const row = await db.changeRequests.get(id);
  if (!row || row._deleted) {
    throw new LocalWriteError('not_found', 'This change request no longer exists on this device.');
  }
  return row;
}

export function createChangeRequest(
  ctx: LocalWriteContext,
  input: NewChangeRequestInput,
): Promise<LocalChangeRequest> {
  return changeRequestWrites.create(ctx, input);
}

/** Saves the member's answer; resolves false when nothing changed (nothing is queued). */
export function answerChangeRequest(
  ctx: LocalWriteContext,
  id: string,
  answer: ChangeRequestAnswer,
): Promise<boolean> {
  return ctx.db.transaction('rw', writeScope(ctx.db), async () => {
    const request = await currentRequest(ctx.db, id);
    if (request.status === 'accepted') throw refused('status', ACCEPTED_IS_FINAL);
    return changeRequestWrites.update(ctx, id, answer);
  });
}

/**
 * Applies an approved or accepted change to its project's milestones: adds the milestone (after
 * the last one, as the Milestones tab appends), moves the chosen due dates by the request's
 * `scheduleImpactDays`, and stamps `appliedAt`.
 */
export function applyChangeRequest(
  ctx: LocalWriteContext,
  id: string,
  input: ApplyChangeInput,
  now: Date = new Date(ctx.now?.() ?? Date.now()),
): Promise<ApplyChangeResult> {
  return ctx.db.transaction('rw', writeScope(ctx.db), async () => {
    const request = await currentRequest(ctx.db, id);
    if (!changeGoesAhead(request.status)) {
      throw refused('status', 'Only an approved or accepted change can be applied.');
    }
    if (request.appliedAt !== null) {
      throw refused('appliedAt', 'This change was already applied to the milestones.');
    }
    const days = request.scheduleImpactDays ?? 0;
    if (input.moveMilestoneIds.length > 0 && days === 0) {
      throw refused('form', 'This change has no timeline impact, so no due date moves.');
    }

    let created: LocalMilestone | null = null;
    if (input.milestone) {
      const milestones = await listMilestones(ctx.db, request.workspaceId, request.projectId);
      created = await milestoneWrites.create(ctx, {
        workspaceId: request.workspaceId,
        projectId: request.projectId,
        title: input.milestone.title,
        amount: input.milestone.amount,
        currency: request.currency,
        dueDate: input.milestone.dueDate,
        position: orderKeyBetween(milestones.at(-1)?.position ?? null, null),
      });
    }

    let moved = 0;
    for (const milestoneId of input.moveMilestoneIds) {
      const milestone = await ctx.db.milestones.get(milestoneId);
      if (!milestone || milestone._deleted || milestone.projectId !== request.projectId) {
        throw new LocalWriteError(
          'not_found',
          'A milestone you chose is no longer in this project. Choose again.',
        );
      }
      // Read here, inside the transaction: the date as it is now, not as the screen last saw it.
      if (milestone.dueDate === null) continue;
      const dueDate = addDays(milestone.dueDate, days);
      if (await milestoneWrites.update(ctx, milestone.id, { dueDate })) moved += 1;
    }

    await changeRequestWrites.update(ctx, id, { appliedAt: now.toISOString() });
    return { created, moved };
  });
}
