/**
 * The /change-requests URL state: the status and project filters live in the query string, so a
 * filtered list can be bookmarked, linked to from a project (`?projectId=…`) and restored with
 * Back. Bad values fall back to "not set" instead of failing the page. No status means the open
 * requests (new or quoted): what waits on a member. `request` opens one request's panel (the
 * link a notification carries), whatever the filters.
 */
import * as v from 'valibot';
import { changeRequestStatuses } from '#contract/entities/change-request.ts';
import { optionalSearch as optional } from '../shell/search-values.ts';

export const changeRequestStatusFilters = ['open', 'all', ...changeRequestStatuses] as const;

export const changeRequestsSearchSchema = v.object({
  status: optional(v.picklist(changeRequestStatusFilters)),
  projectId: optional(v.pipe(v.string(), v.trim(), v.nonEmpty(), v.maxLength(128))),
  request: optional(v.pipe(v.string(), v.trim(), v.nonEmpty(), v.maxLength(128))),
});

export type ChangeRequestsSearch = v.InferOutput<typeof changeRequestsSearchSchema>;
