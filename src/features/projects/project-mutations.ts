/**
 * Project writes for the screens: validated with the contract's schemas, written with their outbox
 * entry in one transaction, then sync is woken. A project whose client was created offline waits
 * for that client on the server (dependsOn), so the two always arrive in order.
 */
import type * as v from 'valibot';
import { createProjectInputSchema, updateProjectInputSchema } from '#contract/entities/project.ts';
import type { LocalProject } from '../../db/app-database.ts';
import {
  newRowStamp,
  writeCreate,
  writeDelete,
  writePatch,
  type LocalWriteContext,
} from '../../db/local-write.ts';
import { mutationBase, newId, parseOrThrow } from '../workspace/mutation-base.ts';

export type NewProjectInput = Omit<v.InferInput<typeof createProjectInputSchema>, 'id'> & {
  id?: string;
};
export type ProjectPatch = v.InferInput<typeof updateProjectInputSchema>;

/** The server checks dates against the stored row too, so the merged row is checked here. */
function datesInOrder(next: Record<string, unknown>) {
  const { startDate, dueDate } = next;
  return typeof startDate === 'string' && typeof dueDate === 'string' && startDate > dueDate
    ? { path: 'dueDate', message: 'The due date must not be before the start date' }
    : null;
}

export async function createProject(
  ctx: LocalWriteContext,
  input: NewProjectInput,
): Promise<LocalProject> {
  const base = mutationBase(ctx);
  const body = parseOrThrow(createProjectInputSchema, {
    ...input,
    id: input.id ?? newId(ctx),
  });
  const row = { ...body, ...newRowStamp(ctx.userId, base.now, 'project') };
  await writeCreate(ctx.db, {
    ...base,
    userId: ctx.userId,
    resource: 'project',
    operation: 'create-project',
    entity: 'project',
    row,
    args: body,
    label: body.name,
    requires: [{ entity: 'client', id: body.clientId }],
  });
  ctx.onQueued?.();
  return { ...row, _v: 0, _pending: 1, _deleted: false, _base: {} } as LocalProject;
}

export async function updateProject(
  ctx: LocalWriteContext,
  id: string,
  patch: ProjectPatch,
): Promise<boolean> {
  const body = parseOrThrow(updateProjectInputSchema, patch);
  const result = await writePatch(ctx.db, {
    ...mutationBase(ctx),
    userId: ctx.userId,
    resource: 'project',
    operation: 'update-project',
    entity: 'project',
    id,
    patch: body,
    validate: datesInOrder,
    requires: (changed) =>
      typeof changed.clientId === 'string' ? [{ entity: 'client', id: changed.clientId }] : [],
  });
  if (result) ctx.onQueued?.();
  return result !== null;
}

export async function archiveProject(
  ctx: LocalWriteContext,
  id: string,
  archived = true,
): Promise<boolean> {
  return updateProject(ctx, id, { archived });
}

/** Deletes a project; with `undoWindowMs` the delete waits that long, so Undo can cancel it. */
export async function deleteProject(
  ctx: LocalWriteContext,
  id: string,
  options: { undoWindowMs?: number } = {},
): Promise<string> {
  const base = mutationBase(ctx);
  await writeDelete(ctx.db, {
    ...base,
    ...(options.undoWindowMs ? { holdUntil: base.now + options.undoWindowMs } : {}),
    userId: ctx.userId,
    resource: 'project',
    operation: 'delete-project',
    entity: 'project',
    id,
  });
  ctx.onQueued?.();
  return base.mutationId;
}
