/**
 * Client writes for the screens. Each call validates with the contract's schema (so a mistake
 * shows at once instead of becoming a sync issue), then writes the row and its outbox entry in one
 * transaction (src/db/local-write.ts) and wakes sync. Works the same online and offline.
 */
import type * as v from 'valibot';
import { createClientInputSchema, updateClientInputSchema } from '#contract/entities/client.ts';
import type { LocalClient } from '../../db/app-database.ts';
import {
  newRowStamp,
  writeCreate,
  writeDelete,
  writePatch,
  type LocalWriteContext,
} from '../../db/local-write.ts';
import { mutationBase, newId, parseOrThrow } from '../workspace/mutation-base.ts';

export type NewClientInput = Omit<v.InferInput<typeof createClientInputSchema>, 'id'> & {
  id?: string;
};
export type ClientPatch = v.InferInput<typeof updateClientInputSchema>;

export async function createClient(
  ctx: LocalWriteContext,
  input: NewClientInput,
): Promise<LocalClient> {
  const base = mutationBase(ctx);
  const body = parseOrThrow(createClientInputSchema, {
    ...input,
    id: input.id ?? newId(ctx),
  });
  const row = { ...body, ...newRowStamp(ctx.userId, base.now, 'client') };
  await writeCreate(ctx.db, {
    ...base,
    userId: ctx.userId,
    resource: 'client',
    operation: 'create-client',
    entity: 'client',
    row,
    args: body,
    label: body.name,
  });
  ctx.onQueued?.();
  return { ...row, _v: 0, _pending: 1, _deleted: false, _base: {} } as LocalClient;
}

/** Saves the changed fields only; resolves false when nothing changed (nothing is queued). */
export async function updateClient(
  ctx: LocalWriteContext,
  id: string,
  patch: ClientPatch,
): Promise<boolean> {
  const body = parseOrThrow(updateClientInputSchema, patch);
  const result = await writePatch(ctx.db, {
    ...mutationBase(ctx),
    userId: ctx.userId,
    resource: 'client',
    operation: 'update-client',
    entity: 'client',
    id,
    patch: body,
  });
  if (result) ctx.onQueued?.();
  return result !== null;
}

/** Multi-select archive (or restore with `archived: false`); one queued change per client. */
export async function archiveClients(
  ctx: LocalWriteContext,
  ids: readonly string[],
  archived = true,
): Promise<number> {
  let changed = 0;
  for (const id of ids) if (await updateClient(ctx, id, { archived })) changed += 1;
  return changed;
}

/**
 * Deletes a client. With projects, `cascade` must be true (as on the server); otherwise this
 * throws LocalWriteError 'has_children' with `details.projectCount`, so the screen can ask.
 */
export async function deleteClient(
  ctx: LocalWriteContext,
  id: string,
  options: { cascade?: boolean; undoWindowMs?: number } = {},
): Promise<string> {
  const base = mutationBase(ctx);
  await writeDelete(ctx.db, {
    ...base,
    ...(options.undoWindowMs ? { holdUntil: base.now + options.undoWindowMs } : {}),
    userId: ctx.userId,
    resource: 'client',
    operation: 'delete-client',
    entity: 'client',
    id,
    cascade: options.cascade ?? false,
  });
  ctx.onQueued?.();
  return base.mutationId;
}
