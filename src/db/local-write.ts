/**
 * The only write path for synced entities (sync spec b.1): the row change and its outbox entry in
 * ONE Dexie transaction, so a crash leaves both or neither. The row is visible at once (live
 * queries); the entry carries the exact request the server will replay. Inputs are validated by
 * the caller against the contract schemas before they get here.
 */
import type { Transaction } from 'dexie';
import { syncedTable, type AppDatabase, type SyncedRow } from './app-database.ts';
import { diffPatch, overlayPatch } from './entity-overlay.ts';
import {
  MUTATION_SCHEMA_VERSION,
  type EntityName,
  type MutationOp,
  type OutboxEntry,
} from './outbox-entry.ts';
import { allocateClientSeq } from './sync-state.ts';

export const ENTITY_TABLE = { client: 'clients', project: 'projects' } as const;

export type LocalWriteErrorCode = 'invalid' | 'not_found' | 'has_children';

/** What the screens' write functions need: the user's database, and a way to wake sync. */
export interface LocalWriteContext {
  db: AppDatabase;
  userId: string;
  /** Called after each queued change (the sync client's notifyOutboxChanged). */
  onQueued?: () => void;
  now?: () => number;
  /** Id generator (uuid v7 by default in the features). */
  newId?: () => string;
}

/** A write the local data refuses before anything is queued (the screen shows it at once). */
export class LocalWriteError extends Error {
  readonly code: LocalWriteErrorCode;
  readonly details: Record<string, unknown>;
  constructor(code: LocalWriteErrorCode, message: string, details: Record<string, unknown> = {}) {
    super(message);
    this.name = 'LocalWriteError';
    this.code = code;
    this.details = details;
  }
}

export interface EntityRef {
  entity: EntityName;
  id: string;
}

interface MutationBase {
  userId: string;
  mutationId: string;
  resource: string;
  operation: string;
  now: number;
  /**
   * Not sent before this time: the undo window of a delete. The entry is in the outbox from the
   * start (a closed tab still sends it later); Undo within the window cancels it locally.
   */
  holdUntil?: number;
}

function writeScope(db: AppDatabase) {
  return [db.clients, db.projects, db.outbox, db.syncState];
}

/**
 * dependsOn: the not-yet-applied creates of the rows referred to (a project's client made
 * offline). Only creates: the server needs the row to exist, not the client's pending rename, and
 * a refused rename must not take the project down with it.
 */
async function unappliedCreates(db: AppDatabase, refs: readonly EntityRef[]): Promise<string[]> {
  const ids: string[] = [];
  for (const ref of refs) {
    const entries = await db.outbox
      .where('[entity+entityId]')
      .equals([ref.entity, ref.id])
      .toArray();
    for (const entry of entries) {
      if (entry.op === 'create' && entry.status !== 'acked') ids.push(entry.mutationId);
    }
  }
  return ids;
}

async function requireVisible(db: AppDatabase, ref: EntityRef): Promise<SyncedRow> {
  const row = await syncedTable(db, ref.entity).get(ref.id);
  if (!row || row._deleted) {
    throw new LocalWriteError('not_found', `This ${ref.entity} no longer exists on this device.`, {
      entity: ref.entity,
      id: ref.id,
    });
  }
  return row;
}

async function appendEntry(
  tx: Transaction,
  db: AppDatabase,
  base: MutationBase,
  entry: {
    workspaceId: string;
    entity: EntityName;
    entityId: string;
    op: MutationOp;
    query: Record<string, string>;
    args: Record<string, unknown>;
    label: string;
    dependsOn: string[];
    baseVersion?: number;
    baseValues?: Record<string, unknown>;
    cascadeIds?: string[];
  },
): Promise<void> {
  const { clientId, clientSeq } = await allocateClientSeq(tx);
  const record: Omit<OutboxEntry, 'seq'> = {
    ...entry,
    mutationId: base.mutationId,
    clientId,
    clientSeq,
    userId: base.userId,
    resource: base.resource,
    operation: base.operation,
    schemaVersion: MUTATION_SCHEMA_VERSION,
    createdAt: base.now,
    status: 'pending',
    attempts: 0,
    nextAttemptAt: base.holdUntil ?? 0,
  };
  await db.outbox.add(record);
}

/**
 * The server-owned fields of a row created on this device, as the server will first store them
 * (version 0 until it has the row). One place, so every create path agrees.
 */
export function newRowStamp(userId: string, now: number) {
  const at = new Date(now).toISOString();
  return {
    archived: false,
    createdAt: at,
    createdBy: userId,
    updatedAt: at,
    updatedBy: userId,
    version: 0,
  };
}

/** Create: the full row (server shape, version 0) plus a create entry whose body is `args`. */
export async function writeCreate(
  db: AppDatabase,
  input: MutationBase & {
    entity: EntityName;
    /** The row as the server will hold it (version 0 until then), without local fields. */
    row: { id: string; workspaceId: string; name: string } & Record<string, unknown>;
    args: Record<string, unknown>;
    label: string;
    /** Rows that must exist locally (a project's client). */
    requires?: readonly EntityRef[];
  },
): Promise<void> {
  await db.transaction('rw', writeScope(db), async (tx) => {
    for (const ref of input.requires ?? []) await requireVisible(db, ref);
    const dependsOn = await unappliedCreates(db, input.requires ?? []);
    await syncedTable(db, input.entity).add({
      ...input.row,
      _v: 0,
      _pending: 1,
      _deleted: false,
      _base: {},
    });
    await appendEntry(tx, db, input, {
      workspaceId: input.row.workspaceId,
      entity: input.entity,
      entityId: input.row.id,
      op: 'create',
      query: {},
      args: input.args,
      label: input.label,
      dependsOn,
    });
  });
}

/**
 * Patch: only fields whose value really changes are written and queued (with their previous
 * values as baseValues). Returns null when nothing changed, so no empty mutation is ever queued.
 */
export async function writePatch(
  db: AppDatabase,
  input: MutationBase & {
    entity: EntityName;
    id: string;
    patch: Record<string, unknown>;
    /** Rows the patch refers to, checked and depended on (a project's new client). */
    requires?: (changed: Record<string, unknown>) => EntityRef[];
    /** Checks the row as it would be (rules across fields); a message refuses the write. */
    validate?: (next: Record<string, unknown>) => { path: string; message: string } | null;
  },
): Promise<{ changed: Record<string, unknown>; before: Record<string, unknown> } | null> {
  return db.transaction('rw', writeScope(db), async (tx) => {
    const row = await requireVisible(db, { entity: input.entity, id: input.id });
    const { changed, before } = diffPatch(row, input.patch);
    if (Object.keys(changed).length === 0) return null;
    const problem = input.validate?.({ ...row, ...changed });
    if (problem) throw new LocalWriteError('invalid', problem.message, { issues: [problem] });
    const refs = input.requires?.(changed) ?? [];
    for (const ref of refs) await requireVisible(db, ref);
    const dependsOn = await unappliedCreates(db, refs);
    await syncedTable(db, input.entity).put({
      ...overlayPatch(row, changed),
      // Shown locally at once; the server's own timestamps replace these on the next pull.
      updatedAt: new Date(input.now).toISOString(),
      updatedBy: input.userId,
    });
    await appendEntry(tx, db, input, {
      workspaceId: row.workspaceId,
      entity: input.entity,
      entityId: input.id,
      op: 'patch',
      query: { id: input.id },
      args: changed,
      label: row.name,
      dependsOn,
      baseVersion: row._v,
      baseValues: before,
    });
    return { changed, before };
  });
}

/**
 * Delete: the row is hidden (`_deleted`) until the server's deletion is pulled, and restored if
 * the server refuses. A client with projects needs `cascade` (as on the server); its projects are
 * hidden with it and listed on the entry so a rejection can bring them back.
 */
export async function writeDelete(
  db: AppDatabase,
  input: MutationBase & { entity: EntityName; id: string; cascade?: boolean },
): Promise<void> {
  await db.transaction('rw', writeScope(db), async (tx) => {
    const row = await requireVisible(db, { entity: input.entity, id: input.id });
    let cascadeIds: string[] | undefined;
    if (input.entity === 'client') {
      const children = await db.projects
        .where('[workspaceId+clientId]')
        .equals([row.workspaceId, row.id])
        .filter((project) => !project._deleted)
        .toArray();
      if (children.length > 0 && !input.cascade) {
        throw new LocalWriteError(
          'has_children',
          `This client has ${children.length} project${children.length === 1 ? '' : 's'}; delete them too?`,
          { projectCount: children.length },
        );
      }
      if (children.length > 0) {
        cascadeIds = children.map((child) => child.id);
        await db.projects.bulkPut(
          children.map((child) => ({
            ...child,
            _deleted: true,
            _pending: child._pending + 1,
            _cascadeOf: [...(child._cascadeOf ?? []), input.mutationId],
          })),
        );
      }
    }
    await syncedTable(db, input.entity).put({
      ...row,
      _deleted: true,
      _pending: row._pending + 1,
    });
    await appendEntry(tx, db, input, {
      workspaceId: row.workspaceId,
      entity: input.entity,
      entityId: input.id,
      op: 'delete',
      query: input.cascade ? { id: input.id, cascade: 'true' } : { id: input.id },
      args: {},
      label: row.name,
      dependsOn: [],
      baseVersion: row._v,
      ...(cascadeIds ? { cascadeIds } : {}),
    });
  });
}
