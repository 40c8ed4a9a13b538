import * as v from 'valibot';
import { text } from '../text.ts';
import { defineEndpoint } from '../define-endpoint.ts';
import { idSchema } from '../entities/ids.ts';

export const PROJECT_ACTIVITY_PAGE = 50;

/** Kinds of entries a reader may filter by: the entity a change was made to. */
export const activityKinds = [
  'project',
  'milestone',
  'kanban-column',
  'task',
  'note',
  'file',
  'change-request',
  'calendar-event',
] as const;
export type ActivityKind = (typeof activityKinds)[number];

export const activityEntrySchema = v.object({
  seq: v.number(),
  at: text(),
  actorId: text(),
  /**
   * A member's name as their profile says now ('' when the profile is gone), or, for the client
   * acting in the portal, the client's name then.
   */
  actorName: text(),
  /** member: a signed-in member; client: the project's client, in the portal. */
  actorKind: v.picklist(['member', 'client']),
  kind: v.picklist(activityKinds),
  entityId: text(),
  /** The row's name or title at the time of the change. */
  label: text(),
  /**
   * share, unshare and download: a file's share links (contract/endpoints/file-share-link.ts);
   * sign-off: the client's decision on a milestone; portal: the project's portal turned on or off
   * or its password changed.
   */
  op: v.picklist([
    'create',
    'update',
    'delete',
    'share',
    'unshare',
    'download',
    'sign-off',
    'portal',
  ]),
  /** Changed fields with their values before and after (long texts clipped). */
  changes: v.record(text(), v.object({ from: v.unknown(), to: v.unknown() })),
});
export type ActivityEntry = v.InferOutput<typeof activityEntrySchema>;

export const getProjectActivity = defineEndpoint({
  resource: 'project-activity',
  operation: 'get-project-activity',
  method: 'GET',
  auth: 'user',
  summary:
    "Who did what in a project, newest first, in pages: pass the previous page's nextBefore as before.",
  query: v.strictObject({
    projectId: idSchema,
    before: v.optional(v.pipe(text(), v.regex(/^\d{1,18}$/, 'before is a sequence number'))),
    kind: v.optional(v.picklist(activityKinds, 'Unknown kind')),
  }),
  output: v.object({
    activity: v.array(activityEntrySchema),
    /** Sequence to ask `before` for the next (older) page; null at the start of the history. */
    nextBefore: v.nullable(v.number()),
  }),
});
