/**
 * Project writes for the screens: the generic entity writes (entity-writes.ts), which also check
 * the contract's date rule on the row a patch would make, and make a project whose client was
 * created offline wait for that client on the server (dependsOn), so the two arrive in order.
 */
import { projectEntity } from '#contract/entities/project.ts';
import type { LocalProject } from '../db/app-database.ts';
import type { LocalWriteContext } from '../db/local-write.ts';
import { entityWrites, type NewRowInput, type RowPatch } from './entity-writes.ts';

const projects = entityWrites(projectEntity);

export type NewProjectInput = NewRowInput<typeof projectEntity>;
export type ProjectPatch = RowPatch<typeof projectEntity>;

export function createProject(
  ctx: LocalWriteContext,
  input: NewProjectInput,
): Promise<LocalProject> {
  return projects.create(ctx, input);
}

export function updateProject(
  ctx: LocalWriteContext,
  id: string,
  patch: ProjectPatch,
): Promise<boolean> {
  return projects.update(ctx, id, patch);
}

export function archiveProject(
  ctx: LocalWriteContext,
  id: string,
  archived = true,
): Promise<boolean> {
  return updateProject(ctx, id, { archived });
}

/** Deletes a project; with `undoWindowMs` the delete waits that long, so Undo can cancel it. */
export function deleteProject(
  ctx: LocalWriteContext,
  id: string,
  options: { undoWindowMs?: number } = {},
): Promise<string> {
  return projects.delete(ctx, id, options);
}
