/**
 * The /projects URL state: view, filters and search live in the query string, so a filtered
 * board can be bookmarked, shared and restored with Back. Bad values fall back to "not set"
 * instead of failing the page (people and other sites type these URLs).
 */
import * as v from 'valibot';
import { projectStatuses } from '#contract/entities/project.ts';
import { optionalSearch as optional, searchBoolean } from '../shell/search-values.ts';

export const projectViews = ['list', 'board'] as const;
export type ProjectView = (typeof projectViews)[number];

export const projectsSearchSchema = v.object({
  view: optional(v.picklist(projectViews)),
  status: optional(v.picklist(projectStatuses)),
  client: optional(v.pipe(v.string(), v.trim(), v.nonEmpty(), v.maxLength(128))),
  q: optional(v.pipe(v.string(), v.maxLength(200))),
  /** `archived=true` also lists archived projects. */
  archived: optional(searchBoolean),
});

export type ProjectsSearch = v.InferOutput<typeof projectsSearchSchema>;
