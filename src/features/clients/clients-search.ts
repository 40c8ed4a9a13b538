/**
 * The /clients URL state: search, filters and sort live in the query string, so a filtered list
 * can be bookmarked and restored with Back. Bad values fall back to "not set".
 */
import * as v from 'valibot';
import { clientStatuses } from '#contract/entities/client.ts';
import { optionalSearch as optional, searchBoolean } from '../shell/search-values.ts';

export const clientSorts = ['name', 'recent'] as const;
export type ClientSort = (typeof clientSorts)[number];

export const clientsSearchSchema = v.object({
  q: optional(v.pipe(v.string(), v.maxLength(200))),
  status: optional(v.picklist(clientStatuses)),
  tag: optional(v.pipe(v.string(), v.maxLength(40))),
  sort: optional(v.picklist(clientSorts)),
  /** `archived=true` also lists archived clients. */
  archived: optional(searchBoolean),
});
export type ClientsSearch = v.InferOutput<typeof clientsSearchSchema>;
