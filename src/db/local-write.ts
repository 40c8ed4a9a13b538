/**
 * The only write path for synced entities (sync spec b.1): the row change and its outbox entry in
 * ONE Dexie transaction, so a crash leaves both or neither. The row is visible at once (live
 * queries); the entry carries the exact request the server will replay. Inputs are validated by
 * the caller against the contract schemas before they get here.
 *
 * Entity-blind: tables, labels, parents and cascades come from the contract's declarations
 * (contract/synced-entities.ts). Invariants:
 * - A delete hides the row and every live descendant (children, grandchildren...) in the same
 *   transaction; the descendants' ids go on the entry as `cascadeIds` (ids are UUIDs, unique
 *   across tables) and each hidden row carries the entry's mutation id in `_cascadeOf`.
 * - A `confirm` edge with live children anywhere below the row refuses the delete without
 *   `cascade` ('has_children'), as the server does.
 */
import type { Table, Transaction } from 'dexie';
import type { EndpointBody, EndpointDefinition } from '#contract/define-endpoint.ts';
import { childrenOf, entityNamed } from '#contract/synced-entities.ts';
import type { AnySyncedEntity } from '#contract/synced-entity.ts';
import { entityTables, syncedTable, type AppDatabase, type SyncedRow } from './app-database.ts';
import { diffPatch, overlayPatch } from './entity-overlay.ts';
import {
  MUTATION_SCHEMA_VERSION,
  type EntityName,
  type MutationOp,
  type OutboxEntry,
} from './outbox-entry.ts';
import { allocateClientSeq } from './sync-state.ts';

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

/**
 * The parent a row's values point at (`[{entity: 'client', id: values.clientId}]` for a project),
 * or none: an entity without a parent, or values without the key (a patch not moving the row).
 */
export function parentRefs(entity: EntityName, values: Record<string, unknown>): EntityRef[] {
  const parent = entityNamed(entity).parent;
  const id = parent ? values[parent.key] : undefined;
  // The registry lists a parent before its children, so its name is a declared entity name.
  return parent && typeof id === 'string' ? [{ entity: parent.entity as EntityName, id }] : [];
}

/** The words naming a row ("Acme"): the value of the entity's label field. */
function labelOf(entity: AnySyncedEntity, row: Record<string, unknown>): string {
  const label = row[entity.label];
  return typeof label === 'string' ? label : '';
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
  return [...entityTables(db), db.outbox, db.syncState];
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
    throw new LocalWriteError(
      'not_found',
      `This ${entityNamed(ref.entity).word} no longer exists on this device.`,
      { entity: ref.entity, id: ref.id },
    );
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
 * (version 0 until it has the row), plus the fields a create does not take (the entity's
 * `rowDefaults`, e.g. `archived: false`). One place, so every create path agrees.
 */
export function newRowStamp(
  userId: string,
  now: number,
  entity: EntityName,
): Record<string, unknown> & {
  createdAt: string;
  createdBy: string;
  updatedAt: string;
  updatedBy: string;
  version: number;
} {
  const at = new Date(now).toISOString();
  return {
    // A copy: a default array or object must never be shared between rows.
    ...structuredClone(entityNamed(entity).rowDefaults),
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
    row: { id: string; workspaceId: string } & Record<string, unknown>;
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
      label: labelOf(entityNamed(input.entity), row),
      dependsOn,
      baseVersion: row._v,
      baseValues: before,
    });
    return { changed, before };
  });
}

/** A row found below the deleted one, with the entity whose table holds it. */
interface Descendant {
  entity: AnySyncedEntity;
  row: SyncedRow;
}

/**
 * The live (not hidden) children of `parents`, all rows of `parentEntity` in one workspace, for
 * each child entity: one query per child entity, by the `[workspaceId+<key>]` index when the
 * child declares it, else by an index on the key, else by workspace and a filter.
 */
async function liveChildren(
  db: AppDatabase,
  parentEntity: AnySyncedEntity,
  parents: readonly SyncedRow[],
): Promise<Descendant[]> {
  const [first] = parents;
  if (!first) return [];
  const ids = parents.map((parent) => parent.id);
  const found: Descendant[] = [];
  for (const child of childrenOf(parentEntity.name)) {
    const key = child.parent?.key;
    if (!key) continue;
    const table: Table<SyncedRow, string> = db.table(child.table);
    const compound = `[workspaceId+${key}]`;
    const rows = table.schema.idxByName[compound]
      ? await table
          .where(compound)
          .anyOf(ids.map((id) => [first.workspaceId, id]))
          .toArray()
      : table.schema.idxByName[key]
        ? await table.where(key).anyOf(ids).toArray()
        : (await table.where('workspaceId').equals(first.workspaceId).toArray()).filter(
            (row) => typeof row[key] === 'string' && ids.includes(row[key]),
          );
    for (const row of rows) if (!row._deleted) found.push({ entity: child, row });
  }
  return found;
}

/** Every live descendant of a row, level by level (children, then grandchildren...). */
async function liveDescendants(
  db: AppDatabase,
  entity: AnySyncedEntity,
  row: SyncedRow,
): Promise<Descendant[]> {
  const all: Descendant[] = [];
  let level: Descendant[] = [{ entity, row }];
  while (level.length > 0) {
    const next: Descendant[] = [];
    for (const parentEntity of new Set(level.map((item) => item.entity))) {
      const parents = level.filter((item) => item.entity === parentEntity).map((item) => item.row);
      next.push(...(await liveChildren(db, parentEntity, parents)));
    }
    all.push(...next);
    level = next;
  }
  return all;
}

const plural = (entity: AnySyncedEntity) => entity.plural.replace(/-/g, ' ');

function inWords(parts: readonly string[]): string {
  return parts.length <= 1
    ? (parts[0] ?? '')
    : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1) ?? ''}`;
}

/**
 * The question a delete needs answered first: rows behind a `confirm` edge ("This client has 2
 * projects; delete them too?", details `{projectCount: 2}`), or null when nothing needs asking.
 */
function confirmationNeeded(
  entity: AnySyncedEntity,
  descendants: readonly Descendant[],
): LocalWriteError | null {
  const counts = new Map<AnySyncedEntity, number>();
  for (const { entity: child } of descendants) {
    if (child.parent?.onDelete === 'confirm') counts.set(child, (counts.get(child) ?? 0) + 1);
  }
  if (counts.size === 0) return null;
  const parts = [...counts].map(([child, n]) => `${n} ${n === 1 ? child.word : plural(child)}`);
  return new LocalWriteError(
    'has_children',
    `This ${entity.word} has ${inWords(parts)}; delete them too?`,
    Object.fromEntries([...counts].map(([child, n]) => [`${child.oneKey}Count`, n])),
  );
}

/**
 * Delete: the row is hidden (`_deleted`) until the server's deletion is pulled, and restored if
 * the server refuses. Its live descendants go with it (the declarations' parent edges): hidden in
 * the same transaction and listed on the entry, so a rejection brings them back. A `confirm` edge
 * with rows needs `cascade` (as on the server), otherwise this throws 'has_children'.
 */
export async function writeDelete(
  db: AppDatabase,
  input: MutationBase & { entity: EntityName; id: string; cascade?: boolean },
): Promise<void> {
  const entity = entityNamed(input.entity);
  await db.transaction('rw', writeScope(db), async (tx) => {
    const row = await requireVisible(db, { entity: input.entity, id: input.id });
    const descendants = await liveDescendants(db, entity, row);
    const question = input.cascade ? null : confirmationNeeded(entity, descendants);
    if (question) throw question;
    for (const table of new Set(descendants.map((item) => item.entity))) {
      await syncedTable(db, table.name as EntityName).bulkPut(
        descendants
          .filter((item) => item.entity === table)
          .map(({ row: child }) => ({
            ...child,
            _deleted: true,
            _pending: child._pending + 1,
            _cascadeOf: [...(child._cascadeOf ?? []), input.mutationId],
          })),
      );
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
      label: labelOf(entity, row),
      dependsOn: [],
      baseVersion: row._v,
      ...(descendants.length > 0 ? { cascadeIds: descendants.map((item) => item.row.id) } : {}),
    });
  });
}

/** The resource and operation an entry replays, from the contract's endpoint declaration. */
export function operationOf(endpoint: EndpointDefinition): {
  resource: string;
  operation: string;
} {
  return { resource: endpoint.resource, operation: endpoint.operation };
}

type Untargeted<T> = Omit<T, 'resource' | 'operation'>;

/**
 * writeCreate for a declared operation: the entry's resource and operation come from `endpoint`
 * and its body must be that operation's body, so the outbox replays what the contract accepts.
 */
export function writeCreateOf<Ep extends EndpointDefinition>(
  db: AppDatabase,
  endpoint: Ep,
  input: Untargeted<Omit<Parameters<typeof writeCreate>[1], 'args'>> & {
    args: EndpointBody<Ep> & Record<string, unknown>;
  },
): Promise<void> {
  return writeCreate(db, { ...input, ...operationOf(endpoint) });
}

/** writePatch for a declared operation: the patch is that operation's body. */
export function writePatchOf<Ep extends EndpointDefinition>(
  db: AppDatabase,
  endpoint: Ep,
  input: Untargeted<Omit<Parameters<typeof writePatch>[1], 'patch'>> & {
    patch: EndpointBody<Ep> & Record<string, unknown>;
  },
): ReturnType<typeof writePatch> {
  return writePatch(db, { ...input, ...operationOf(endpoint) });
}

/** writeDelete for a declared operation (a delete has no body; its query is `{id, cascade}`). */
export function writeDeleteOf(
  db: AppDatabase,
  endpoint: EndpointDefinition,
  input: Untargeted<Parameters<typeof writeDelete>[1]>,
): Promise<void> {
  return writeDelete(db, { ...input, ...operationOf(endpoint) });
}
