/**
 * Milestones (product-anchors 1a, 4.3): the stages of a project a client approves, in the
 * project's order, with an amount to invoice. The sign-off record is written by the client portal
 * only (never by `update-milestone`): the client's decision, their name, when and from which address.
 */
import * as v from 'valibot';
import { text } from '../text.ts';
import { defineSyncedEntity, field } from '../synced-entity.ts';
import { currencySchema } from './client.ts';
import { longTextSchema, minorUnitsSchema, titleSchema } from './fields.ts';
import { orderKeySchema } from './order-key.ts';
import { dateSchema } from './project.ts';

export const milestoneStatuses = [
  'planned',
  'in_progress',
  'awaiting_approval',
  'approved',
  'changes_requested',
] as const;
export type MilestoneStatus = (typeof milestoneStatuses)[number];

export const milestoneStatusWords: Readonly<Record<MilestoneStatus, string>> = {
  planned: 'Planned',
  in_progress: 'In progress',
  awaiting_approval: 'Awaiting approval',
  approved: 'Approved',
  changes_requested: 'Changes requested',
};

const signOffSchema = v.nullable(
  v.object({
    decision: v.picklist(['approved', 'changes_requested']),
    by: v.pipe(text(), v.maxLength(200)),
    at: v.pipe(text(), v.maxLength(40)),
    comment: v.nullable(v.pipe(text(), v.maxLength(5000))),
    /** The address the portal session signed off from (absent on records before it was kept). */
    ip: v.optional(v.nullable(v.pipe(text(), v.maxLength(100)))),
  }),
);

export const milestoneEntity = defineSyncedEntity({
  name: 'milestone',
  plural: 'milestones',
  sqlTable: 'milestone',
  label: 'title',
  parent: { entity: 'project', key: 'projectId', onDelete: 'cascade' },
  activityProject: 'projectId',
  fields: {
    title: field(titleSchema),
    description: field(longTextSchema('Description'), { default: null }),
    dueDate: field(dateSchema, { default: null, sql: 'date' }),
    amount: field(minorUnitsSchema, { default: null, sql: 'bigint' }),
    currency: field(currencySchema, { default: 'USD' }),
    status: field(v.picklist(milestoneStatuses, 'Choose a status'), {
      default: 'planned',
      values: milestoneStatusWords,
    }),
    position: field(orderKeySchema, { word: 'order' }),
    /** Shown to the client in the portal (all milestones are, until a member hides one). */
    visibleToClient: field(v.boolean(), { default: true, word: 'shown in the portal' }),
    signOff: field(signOffSchema, {
      default: null,
      create: false,
      editable: false,
      sql: 'jsonb',
      word: 'sign-off',
    }),
  },
  indexes: ['[workspaceId+projectId]', '[workspaceId+dueDate]', '[workspaceId+status]'],
  list: { scope: 'parent', filters: ['status'], orderBy: 'position COLLATE "C", id' },
});

export type Milestone = v.InferOutput<typeof milestoneEntity.rowSchema>;

type SignOffRecord = NonNullable<Milestone['signOff']>;

/**
 * Whether a client's sign-off still speaks for the milestone: it stands while the status is the
 * decision it recorded. A member moving the milestone on (back to In progress, or to Awaiting
 * approval again after changes) ends it; screens show none that does not stand.
 */
export function signOffStands(milestone: {
  status: MilestoneStatus;
  signOff: SignOffRecord | null | undefined;
}): boolean {
  return !!milestone.signOff && milestone.signOff.decision === milestone.status;
}

/**
 * What a member's patch also writes when it ends the client's sign-off, or null when the sign-off
 * stands. A new amount or currency is not what the client approved: the record goes and an
 * approved milestone awaits approval again (unless the patch sets a status itself). A status other
 * than the recorded decision is a new round: the record goes. The activity log keeps both.
 */
export function signOffEndedBy(
  current: Pick<Milestone, 'status' | 'signOff' | 'amount' | 'currency'>,
  patch: Partial<Pick<Milestone, 'status' | 'amount' | 'currency'>>,
): { signOff: null; status?: MilestoneStatus } | null {
  const record = current.signOff;
  if (!record) return null;
  const repriced =
    ('amount' in patch && patch.amount !== current.amount) ||
    ('currency' in patch && patch.currency !== current.currency);
  if (repriced) {
    return patch.status === undefined && record.decision === 'approved'
      ? { signOff: null, status: 'awaiting_approval' }
      : { signOff: null };
  }
  return signOffStands({ status: patch.status ?? current.status, signOff: record })
    ? null
    : { signOff: null };
}
