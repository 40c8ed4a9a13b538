/**
 * Change requests (product-anchors 3.4 and 4.5): a change to a project's scope, asked for by the
 * client in the portal (or written down by a member), answered by a member with its cost and
 * timeline impact, and approved, declined or sent to the client as a quote the client accepts or
 * declines. An approved or accepted change can then be applied to the project's milestones.
 *
 * Who writes what:
 * - Members: everything but the client's answer, through `create-` and `update-change-request`
 *   (synced like every entity, so a member answers offline too). `status` takes the member's
 *   statuses only (`memberChangeRequestStatuses`); the server's hook refuses the client's.
 * - The client, through the portal only: a new request (`source` 'portal', `requestedBy` the
 *   client's name, `attachmentFileIds` of files it uploaded to the project first) and the answer to a quote (`clientDecision`, with when and from which address;
 *   `status` becomes 'accepted' or 'quote_declined').
 *
 * Invariant: `clientDecision` is set exactly when `status` is 'accepted' or 'quote_declined', or
 * after a member moved a declined quote on to 'approved' or 'declined'; a new quote clears it (the
 * client answers the new one; the earlier answer stays in the project's activity).
 */
import * as v from 'valibot';
import { text } from '../text.ts';
import { defineSyncedEntity, field } from '../synced-entity.ts';
import { currencySchema } from './client.ts';
import { idSchema } from './ids.ts';
import { longTextSchema, titleSchema } from './fields.ts';
import { dateSchema } from './project.ts';

export const changeRequestStatuses = [
  'submitted',
  'quoted',
  'approved',
  'declined',
  'accepted',
  'quote_declined',
] as const;
export type ChangeRequestStatus = (typeof changeRequestStatuses)[number];

/** What a member may set; the other two are the client's answer to a quote. */
export const memberChangeRequestStatuses = ['submitted', 'quoted', 'approved', 'declined'] as const;

export const changeRequestStatusWords: Readonly<Record<ChangeRequestStatus, string>> = {
  submitted: 'New',
  quoted: 'Quote sent',
  approved: 'Approved',
  declined: 'Declined',
  accepted: 'Accepted by client',
  quote_declined: 'Quote declined',
};

/** The change goes ahead: it may be applied to the milestones. */
export function changeGoesAhead(status: ChangeRequestStatus): boolean {
  return status === 'approved' || status === 'accepted';
}

/** No one is waiting on a member: the request was answered and, if quoted, decided. */
export function changeRequestClosed(status: ChangeRequestStatus): boolean {
  return status !== 'submitted' && status !== 'quoted';
}

export const MAX_SCHEDULE_IMPACT_DAYS = 3_650;
/** Files a client may attach to one request (uploaded to the project first). */
export const MAX_CHANGE_REQUEST_ATTACHMENTS = 10;
export const MAX_CHANGE_REQUEST_CHARS = 10_000;

/** Money a change adds (or, negative, takes off), in minor units. */
export const costImpactSchema = v.nullable(
  v.pipe(
    v.number('Enter the cost in minor units (cents)'),
    v.integer('Amounts are whole minor units (cents)'),
    v.minValue(-1_000_000_000_000, 'That amount is too large'),
    v.maxValue(1_000_000_000_000, 'That amount is too large'),
  ),
);

/** Days a change moves the project's end (negative: sooner). */
export const scheduleImpactSchema = v.nullable(
  v.pipe(
    v.number('Enter the timeline impact in days'),
    v.integer('The timeline impact is a whole number of days'),
    v.minValue(-MAX_SCHEDULE_IMPACT_DAYS, 'That is more than ten years'),
    v.maxValue(MAX_SCHEDULE_IMPACT_DAYS, 'That is more than ten years'),
  ),
);

export const clientDecisionSchema = v.nullable(
  v.object({
    decision: v.picklist(['accepted', 'declined']),
    /** The client's name as the project's client record had it. */
    by: v.pipe(text(), v.maxLength(200)),
    at: v.pipe(text(), v.maxLength(40)),
    comment: v.nullable(v.pipe(text(), v.maxLength(5000))),
    /** The address the portal session answered from. */
    ip: v.pipe(text(), v.maxLength(100)),
  }),
);
export type ClientDecision = NonNullable<v.InferOutput<typeof clientDecisionSchema>>;

/** Only the portal writes these. */
const fromPortal = { create: false, editable: false } as const;

export const changeRequestEntity = defineSyncedEntity({
  name: 'change-request',
  plural: 'change-requests',
  sqlTable: 'change_request',
  label: 'title',
  parent: { entity: 'project', key: 'projectId', onDelete: 'cascade' },
  activityProject: 'projectId',
  fields: {
    title: field(titleSchema),
    description: field(longTextSchema('Description', MAX_CHANGE_REQUEST_CHARS), { default: null }),
    /** When the client would like it done. */
    desiredDate: field(dateSchema, { default: null, sql: 'date', word: 'desired date' }),
    status: field(v.picklist(changeRequestStatuses, 'Choose a status'), {
      default: 'submitted',
      values: changeRequestStatusWords,
    }),
    costImpact: field(costImpactSchema, { default: null, sql: 'bigint', word: 'cost' }),
    currency: field(currencySchema, { default: 'USD' }),
    scheduleImpactDays: field(scheduleImpactSchema, { default: null, word: 'timeline impact' }),
    /** The member's answer the client reads with the quote or the decision. */
    answer: field(longTextSchema('The answer', 5000), { default: null, word: 'answer' }),
    source: field(v.picklist(['member', 'portal']), { ...fromPortal, default: 'member' }),
    requestedBy: field(v.pipe(text(), v.maxLength(200)), {
      ...fromPortal,
      default: '',
      word: 'requested by',
    }),
    clientDecision: field(clientDecisionSchema, {
      ...fromPortal,
      default: null,
      sql: 'jsonb',
      word: "client's answer",
    }),
    /**
     * Files the client attached: project files it uploaded through the portal, in the order
     * given (ids; the file rows keep names and bytes, and a deleted file just drops out).
     */
    attachmentFileIds: field(
      v.pipe(
        v.array(idSchema),
        v.maxLength(MAX_CHANGE_REQUEST_ATTACHMENTS, 'At most 10 attachments'),
      ),
      { ...fromPortal, default: [], sql: 'jsonb', word: 'attachments' },
    ),
    /** When a member applied the change to the milestones (null: not yet). */
    appliedAt: field(v.nullable(v.pipe(text(), v.isoTimestamp('Use a date and time'))), {
      default: null,
      create: false,
      word: 'applied',
    }),
  },
  indexes: ['[workspaceId+projectId]', '[workspaceId+status]'],
  list: { scope: 'workspace', filters: ['status'], orderBy: 'created_at DESC, id' },
});

export type ChangeRequest = v.InferOutput<typeof changeRequestEntity.rowSchema>;
