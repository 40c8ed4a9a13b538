/**
 * Client writes for the screens. Each call validates with the contract's schema (so a mistake
 * shows at once instead of becoming a sync issue), then writes the row and its outbox entry in one
 * transaction (src/db/local-write.ts) and wakes sync. Works the same online and offline.
 */
import { v7 as uuidv7 } from 'uuid';
import * as v from 'valibot';
import { createClientInputSchema, updateClientInputSchema } from '#contract/entities/client.ts';
import type { LocalClient } from '../../db/app-database.ts';
import {
  LocalWriteError,
  writeCreate,
  writeDelete,
  writePatch,
  type LocalWriteContext,
} from '../../db/local-write.ts';

export type NewClientInput = Omit<v.InferInput<typeof createClientInputSchema>, 'id'> & {
  id?: string;
};
export type ClientPatch = v.InferInput<typeof updateClientInputSchema>;

/** Contract issues as the form shows them: dotted field path and message. */
export function parseOrThrow<S extends v.GenericSchema>(
  schema: S,
  input: unknown,
): v.InferOutput<S> {
  const result = v.safeParse(schema, input);
  if (result.success) return result.output;
  const issues = result.issues.map((issue) => ({
    path: issue.path?.map((item) => String(item.key)).join('.') ?? '',
    message: issue.message,
  }));
  throw new LocalWriteError('invalid', issues[0]?.message ?? 'Invalid input.', { issues });
}

function context(ctx: LocalWriteContext) {
  return { now: ctx.now?.() ?? Date.now(), mutationId: (ctx.newId ?? uuidv7)() };
}

export async function createClient(
  ctx: LocalWriteContext,
  input: NewClientInput,
): Promise<LocalClient> {
  const base = context(ctx);
  const body = parseOrThrow(createClientInputSchema, {
    ...input,
    id: input.id ?? (ctx.newId ?? uuidv7)(),
  });
  const at = new Date(base.now).toISOString();
  const row = {
    ...body,
    archived: false,
    createdAt: at,
    createdBy: ctx.userId,
    updatedAt: at,
    updatedBy: ctx.userId,
    version: 0,
  };
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
  return { ...row, _v: 0, _pending: 1, _deleted: false, _base: {} };
}

/** Saves the changed fields only; resolves false when nothing changed (nothing is queued). */
export async function updateClient(
  ctx: LocalWriteContext,
  id: string,
  patch: ClientPatch,
): Promise<boolean> {
  const body = parseOrThrow(updateClientInputSchema, patch);
  const result = await writePatch(ctx.db, {
    ...context(ctx),
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
  options: { cascade?: boolean } = {},
): Promise<void> {
  await writeDelete(ctx.db, {
    ...context(ctx),
    userId: ctx.userId,
    resource: 'client',
    operation: 'delete-client',
    entity: 'client',
    id,
    cascade: options.cascade ?? false,
  });
  ctx.onQueued?.();
}
