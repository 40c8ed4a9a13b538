/**
 * Client writes for the screens: the generic entity writes (entity-writes.ts: validated with the
 * contract's schemas, written with their outbox entry in one transaction, sync woken) plus the
 * multi-select archive. Works the same online and offline.
 */
import { clientEntity } from '#contract/entities/client.ts';
import type { LocalClient } from '../db/app-database.ts';
import type { LocalWriteContext } from '../db/local-write.ts';
import { entityWrites, type NewRowInput, type RowPatch } from './entity-writes.ts';

const clients = entityWrites(clientEntity);

export type NewClientInput = NewRowInput<typeof clientEntity>;
export type ClientPatch = RowPatch<typeof clientEntity>;

export function createClient(ctx: LocalWriteContext, input: NewClientInput): Promise<LocalClient> {
  return clients.create(ctx, input);
}

/** Saves the changed fields only; resolves false when nothing changed (nothing is queued). */
export function updateClient(
  ctx: LocalWriteContext,
  id: string,
  patch: ClientPatch,
): Promise<boolean> {
  return clients.update(ctx, id, patch);
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
export function deleteClient(
  ctx: LocalWriteContext,
  id: string,
  options: { cascade?: boolean; undoWindowMs?: number } = {},
): Promise<string> {
  return clients.delete(ctx, id, options);
}
