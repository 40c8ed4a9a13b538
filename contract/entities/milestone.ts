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
