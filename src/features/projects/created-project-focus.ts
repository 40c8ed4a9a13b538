/**
 * Where focus goes once "New project" has created one: the dialog is gone and, opened with "n",
 * it had no trigger to hand focus back to. The new project's link when the list or board shows
 * it (the screen's filters let it through), else the "New project" button, to start another.
 */
import type { LocalProject } from '../../db/app-database.ts';
import { projectHref } from './project-summary.tsx';
import type { ProjectsSearch } from './projects-search.ts';

export const NEW_PROJECT_BUTTON = '[data-new-project]';

export function createdProjectFocusTarget(
  project: Pick<LocalProject, 'id' | 'clientId' | 'name' | 'status'>,
  search: Pick<ProjectsSearch, 'status' | 'client'>,
  query: string,
): string {
  const needle = query.trim().toLowerCase();
  const shown =
    (search.status === undefined || search.status === project.status) &&
    (search.client === undefined || search.client === project.clientId) &&
    (needle === '' || project.name.toLowerCase().includes(needle));
  // Ids are uuids: nothing in them needs escaping inside the quotes.
  return shown ? `main a[href="${projectHref(project)}"]` : NEW_PROJECT_BUTTON;
}
