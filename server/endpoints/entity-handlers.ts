/**
 * The five CRUD operations of a synced entity, derived from its declaration. Rules every derived
 * handler keeps:
 * - Access: the caller must be a member of the row's workspace; a row in a workspace the caller
 *   cannot see answers exactly like a missing one (404), so ids cannot be probed.
 * - A child's parent must be a row of the same workspace (on create and on a move), else a 422
 *   naming the field.
 * - Every write records its change in the same transaction (change-recorder.ts), and entity hooks
 *   (plan limits) run after that record, whose row lock orders the workspace's writers.
 * - An update locks the row, checks the declaration's cross-field rules on the row it would make,
 *   and compares the patched fields with the values the device saw (sync spec b.8.2: detect,
 *   don't block; the patch still applies).
 * - A delete takes the row's descendants with it, deepest first, each recorded, so every device
 *   drops them; an edge declared `confirm` needs `cascade=true` when it has rows.
 * Special rules of one entity stay explicit, in that entity's hooks.
 */
import type { PushConflict } from '#contract/sync.ts';
import type { AnySyncedEntity } from '#contract/synced-entity.ts';
import { childrenOf, entityNamed } from '#contract/synced-entities.ts';
import type { WorkspaceRole } from '#contract/entities/workspace.ts';
import type { Identity } from '../auth/identity.ts';
import type { Queryable } from '../db/database.ts';
import { AppError, ErrorCode } from '../http/app-error.ts';
import { batchWritesOf, DeferredOutput } from '../sync/batch-writes.ts';
import type { ChangeRecorder } from '../sync/change-recorder.ts';
import { entitySql, type EntitySql } from './entity-sql.ts';
import { requireWorkspaceRole } from './workspace-access.ts';
import { sameJson } from '../http/stable-json.ts';

type Row = Record<string, unknown>;

const ACTIVITY_VALUE_CHARS = 500;

export interface EntityHooks {
  /**
   * After the parent check and the change record, before the insert. May answer the row it wrote
   * itself instead (as stored, with `seq` as its version): a create that meets its own earlier row
   * (a read marker two devices start) becomes that row's update, not a conflict.
   */
  beforeCreate?: (ctx: {
    tx: Queryable;
    body: Row;
    identity: Identity;
    /** The change-log sequence recorded for this create. */
    seq: number;
    afterCommit: (effect: () => Promise<void>) => void;
  }) => Promise<Row | undefined | void>;
  /**
   * After the lock, the rules and the change record, before the update. May answer the patch to
   * write instead (a note's merged body).
   */
  beforeUpdate?: (ctx: {
    tx: Queryable;
    current: Row;
    patch: Row;
    identity: Identity;
    baseValues: Readonly<Row> | undefined;
    /** Mail and other effects of the change, run once it is committed. */
    afterCommit: (effect: () => Promise<void>) => void;
  }) => Promise<Row | undefined | void>;
  /** After the lock and the role check, before the row's descendants go. */
  beforeDelete?: (ctx: {
    tx: Queryable;
    current: Row;
    identity: Identity;
    changes: ChangeRecorder;
  }) => Promise<void>;
}

const ACTIVITY_INSERT =
  'INSERT INTO project_activity (workspace_id, seq, project_id, actor_id, entity, entity_id, label, op, changes, actor_name)';
const ACTIVITY_CASTS = ['', '', '', '', '', '', '', '', '::jsonb', ''];

/** What an activity line says happened. */
export type ActivityOp = 'create' | 'update' | 'delete' | 'sign-off';

/**
 * One line of a project's activity, written with the change it describes (same transaction, same
 * seq), so the log can never miss a change made through an entity's operations. In a batch's fast
 * path it is queued with the batch's writes (sync/batch-writes.ts), still before its commit.
 */
export async function writeActivity(
  tx: Queryable,
  entity: AnySyncedEntity,
  entry: {
    workspaceId: string;
    seq: number;
    row: Row;
    actorId: string;
    /** Set only when the actor is not a member (the client in the portal): their name then. */
    actorName?: string;
    op: ActivityOp;
    changes?: Record<string, { from: unknown; to: unknown }>;
  },
): Promise<void> {
  const projectKey = entity.activityProject;
  // A row of no project (a calendar event without one) is in no project's activity.
  if (!projectKey || entry.row[projectKey] == null) return;
  const values = [
    entry.workspaceId,
    entry.seq,
    entry.row[projectKey],
    entry.actorId,
    entity.name,
    entry.row.id,
    typeof entry.row[entity.label] === 'string' ? entry.row[entity.label] : '',
    entry.op,
    JSON.stringify(entry.changes ?? {}, (_key, value: unknown) =>
      // History says what changed, not every character of a long text.
      typeof value === 'string' && value.length > ACTIVITY_VALUE_CHARS
        ? `${value.slice(0, ACTIVITY_VALUE_CHARS)}…`
        : value,
    ),
    entry.actorName ?? null,
  ];
  const batch = batchWritesOf(tx);
  if (batch) {
    batch.insert({ into: ACTIVITY_INSERT, casts: ACTIVITY_CASTS, values });
    return;
  }
  await tx.query(
    `${ACTIVITY_INSERT} VALUES (${ACTIVITY_CASTS.map((cast, index) => `$${index + 1}${cast}`).join(', ')})`,
    values,
  );
}

/**
 * A line in a project's activity for an event that changes no synced row (a share link made or
 * used, the portal turned on). It takes the workspace's next sequence number like a change does
 * (activity is keyed by it), without a change-log row: devices have nothing to pull, and pull
 * reads the log, where gaps are normal.
 */
export async function writeEventActivity(
  tx: Queryable,
  line: {
    workspaceId: string;
    projectId: string;
    actorId: string;
    entity: 'file' | 'project';
    entityId: string;
    label: string;
    op: 'share' | 'unshare' | 'download' | 'portal';
    changes: Record<string, { from: unknown; to: unknown }>;
  },
): Promise<void> {
  await tx.query(
    `WITH next AS (
       INSERT INTO workspace_seq (workspace_id, seq) VALUES ($1::uuid, 1)
       ON CONFLICT (workspace_id) DO UPDATE SET seq = workspace_seq.seq + 1
       RETURNING seq
     )
     INSERT INTO project_activity (workspace_id, seq, project_id, actor_id, entity, entity_id, label, op, changes)
     SELECT $1::uuid, seq, $2::uuid, $3::uuid, $4, $5::uuid, $6, $7, $8::jsonb FROM next`,
    [
      line.workspaceId,
      line.projectId,
      line.actorId,
      line.entity,
      line.entityId,
      line.label,
      line.op,
      JSON.stringify(line.changes),
    ],
  );
}

interface Context {
  afterCommit: (effect: () => Promise<void>) => void;
  query: Record<string, string | undefined>;
  body: Row;
  identity: Identity;
  tx: Queryable;
  changes: ChangeRecorder;
  baseValues?: Readonly<Row> | undefined;
  reportConflict?: (conflict: PushConflict) => void;
}

type Handler = (ctx: Context) => Promise<unknown>;

const plural = (entity: AnySyncedEntity) => entity.plural.replace(/-/g, ' ');

/** JSON equality for field values (strings, numbers, null, arrays, objects). */
/** Key order aside: jsonb hands back an object's keys in its own order (invoice lines). */
const sameValue = sameJson;

async function requireParent(
  tx: Queryable,
  entity: AnySyncedEntity,
  parentId: string,
  workspaceId: string,
): Promise<void> {
  const parent = entity.parent;
  if (!parent) return;
  const table = entityNamed(parent.entity).sqlTable;
  // A batch remembers a parent it created or checked (a board's tasks all name one project).
  const batch = batchWritesOf(tx);
  if (batch?.knows(table, parentId, workspaceId)) return;
  const { rowCount } = await tx.query(
    `SELECT 1 FROM ${table} WHERE id = $1 AND workspace_id = $2`,
    [parentId, workspaceId],
  );
  if (rowCount > 0) batch?.remember(table, parentId, workspaceId);
  if (rowCount === 0) {
    const word = parent.entity.replace(/-/g, ' ');
    throw new AppError(ErrorCode.BUSINESS_RULE, `The ${word} does not exist in this workspace.`, {
      details: [{ path: `body.${parent.key}`, message: `Unknown ${word}` }],
    });
  }
}

/** Descendant rows of one row, by entity, deepest level last (parents before children). */
async function descendants(
  tx: Queryable,
  entity: AnySyncedEntity,
  ids: readonly string[],
): Promise<{ entity: AnySyncedEntity; ids: string[]; edge: 'cascade' | 'confirm' }[]> {
  const found: { entity: AnySyncedEntity; ids: string[]; edge: 'cascade' | 'confirm' }[] = [];
  for (const child of childrenOf(entity.name)) {
    const parent = child.parent;
    if (!parent || ids.length === 0) continue;
    const sql = entitySql(child);
    const { rows } = await tx.query<{ id: string }>(
      `SELECT id FROM ${sql.table} WHERE ${sql.column(parent.key)?.column ?? ''} = ANY($1::uuid[]) ORDER BY id FOR UPDATE`,
      [ids],
    );
    const childIds = rows.map((row) => row.id);
    if (childIds.length === 0) continue;
    found.push({ entity: child, ids: childIds, edge: parent.onDelete });
    found.push(...(await descendants(tx, child, childIds)));
  }
  return found;
}

/**
 * Sync spec b.8.2, detect, don't block: a patched field whose stored value differs from the value
 * the device saw was changed by someone else meanwhile. The patch still applies; the device is
 * told, with their values for a one-click revert. A field a hook rewrote (a merged note body)
 * kept both writers' work, so it is no conflict.
 */
function reportConflict(ctx: Context, current: Row, body: Row, patch: Row): void {
  const base = ctx.baseValues;
  if (!base || !ctx.reportConflict) return;
  const fields = Object.keys(body).filter(
    (key) => key in base && !sameValue(current[key], base[key]) && sameValue(patch[key], body[key]),
  );
  if (fields.length === 0) return;
  ctx.reportConflict({
    fields,
    theirs: Object.fromEntries(fields.map((key) => [key, current[key] ?? null])),
    by: typeof current.updatedBy === 'string' ? current.updatedBy : null,
  });
}

/** Sends committed rows of a live entity to the workspace's open apps (realtime-publisher.ts). */
export type PublishRows = (change: {
  workspaceId: string;
  table: string;
  rows: Record<string, unknown>[];
}) => Promise<void>;

export function createEntityHandlers(
  declared: { readonly name: string; readonly table: string },
  hooks: EntityHooks = {},
  publishRows?: PublishRows,
): Record<string, Handler> {
  // Typed loosely on purpose: one handler set serves every declaration (ResourceHandlers types
  // the result per resource at the call site).
  const entity = declared as unknown as AnySyncedEntity;
  const sql: EntitySql = entitySql(entity);
  const { resource, word } = entity;
  const notFound = `No such ${word}.`;
  const parentKey = entity.parent?.key;
  const one = (row: Row) => ({ [entity.oneKey]: sql.toRow(row) });
  /** A live entity's written row goes to the hub once its transaction has committed. */
  const pushLive = (
    afterCommit: (effect: () => Promise<void>) => void,
    workspaceId: string,
    row: Row,
  ) => {
    if (!entity.live || !publishRows) return;
    afterCommit(() => publishRows({ workspaceId, table: entity.table, rows: [row] }));
  };

  /** The row locked for this transaction, after checking the caller may see it. */
  async function lockRow(
    tx: Queryable,
    id: string,
    userId: string,
  ): Promise<{ row: Row; role: WorkspaceRole }> {
    const { rows } = await tx.query<Row>(
      `SELECT ${sql.select} FROM ${sql.table} WHERE id = $1 FOR UPDATE`,
      [id],
    );
    const row = rows[0];
    if (!row) throw new AppError(ErrorCode.NOT_FOUND, notFound);
    try {
      return { row, role: await requireWorkspaceRole(tx, String(row.workspace_id), userId) };
    } catch {
      throw new AppError(ErrorCode.NOT_FOUND, notFound);
    }
  }

  function checkRules(next: Row): void {
    for (const rule of entity.rules ?? []) {
      if (rule.test(next)) continue;
      throw new AppError(ErrorCode.VALIDATION_FAILED, `${rule.message}.`, {
        details: [{ path: `body.${rule.path}`, message: rule.message }],
      });
    }
  }

  const insertKeys = ['id', 'workspaceId', ...(parentKey ? [parentKey] : []), ...entity.createKeys];
  const insertColumns = [
    ...insertKeys.map((key) => sql.column(key)?.column ?? key),
    'created_by',
    'updated_by',
    'version',
  ];
  const insertInto = `INSERT INTO ${sql.table} (${insertColumns.join(', ')})`;
  // Each value's cast as `sql.param` writes it (`$1::jsonb`), for a batch's multi-row insert.
  const insertCasts = [
    ...insertKeys.map((key) => sql.param(key, 1).slice('$1'.length)),
    '',
    '',
    '',
  ];
  const insertTail = `ON CONFLICT (id) DO NOTHING RETURNING ${sql.select}`;
  const taken = () => new AppError(ErrorCode.CONFLICT, `A ${word} with this id already exists.`);

  const create: Handler = async ({ body, identity, tx, changes, afterCommit }) => {
    const workspaceId = String(body.workspaceId);
    await requireWorkspaceRole(tx, workspaceId, identity.userId);
    if (parentKey) await requireParent(tx, entity, String(body[parentKey]), workspaceId);
    const seq = await changes.record({
      workspaceId,
      table: entity.table as never,
      entityId: String(body.id),
      op: 'upsert',
    });
    const replaced = await hooks.beforeCreate?.({ tx, body, identity, seq, afterCommit });
    if (replaced) {
      const row = sql.toRow(replaced);
      pushLive(afterCommit, workspaceId, row);
      return { [entity.oneKey]: row };
    }
    const values = [
      ...insertKeys.map((key) => sql.encode(key, body[key])),
      identity.userId,
      identity.userId,
      seq,
    ];
    const written = async (row: Row | undefined): Promise<Row> => {
      // An id taken anywhere (whichever workspace holds it) is a conflict, never an overwrite;
      // DO NOTHING answers it in the insert itself, with no read before every create.
      if (!row) throw taken();
      const created = sql.toRow(row);
      pushLive(afterCommit, workspaceId, created);
      await writeActivity(tx, entity, {
        workspaceId,
        seq,
        row: created,
        actorId: identity.userId,
        op: 'create',
      });
      return { [entity.oneKey]: created };
    };
    const batch = batchWritesOf(tx);
    if (batch) {
      // A batch's fast path: queued, and written with the creates around it in one statement.
      let output: Row | undefined;
      batch.insert({
        into: insertInto,
        casts: insertCasts,
        values,
        tail: insertTail,
        id: String(body.id),
        done: async (row) => {
          output = await written(row);
        },
      });
      batch.remember(sql.table, String(body.id), workspaceId);
      return new DeferredOutput(() => {
        if (!output) throw new Error(`${word} create completed before its insert was written`);
        return output;
      });
    }
    const { rows } = await tx.query<Row>(
      `${insertInto} VALUES (${values.map((_, index) => `$${index + 1}${insertCasts[index] ?? ''}`).join(', ')}) ${insertTail}`,
      values,
    );
    return written(rows[0]);
  };

  const update: Handler = async (ctx) => {
    const { query, body, identity, tx, changes } = ctx;
    const id = String(query.id);
    const locked = await lockRow(tx, id, identity.userId);
    const current = sql.toRow(locked.row);
    const workspaceId = String(current.workspaceId);
    if (parentKey && typeof body[parentKey] === 'string' && body[parentKey] !== current[parentKey])
      await requireParent(tx, entity, body[parentKey], workspaceId);
    checkRules({ ...current, ...body });
    const seq = await changes.record({
      workspaceId,
      table: entity.table as never,
      entityId: id,
      op: 'upsert',
    });
    const patch =
      (await hooks.beforeUpdate?.({
        tx,
        current,
        patch: body,
        identity,
        baseValues: ctx.baseValues,
        afterCommit: ctx.afterCommit,
      })) ?? body;
    reportConflict(ctx, current, body, patch);
    // Keys come from the declaration's column list, in its order; the body only says which.
    const keys = sql.columns.map((column) => column.key).filter((key) => key in patch);
    const sets = keys.map(
      (key, index) => `${sql.column(key)?.column ?? key} = ${sql.param(key, index + 4)}`,
    );
    const { rows } = await tx.query<Row>(
      `UPDATE ${sql.table} SET ${[...sets, 'updated_at = now()', 'updated_by = $2', 'version = $3'].join(', ')}
       WHERE id = $1 RETURNING ${sql.select}`,
      [id, identity.userId, seq, ...keys.map((key) => sql.encode(key, patch[key]))],
    );
    const updated = sql.toRow(rows[0] as Row);
    pushLive(ctx.afterCommit, workspaceId, updated);
    const changed = Object.fromEntries(
      keys
        .filter((key) => !sameValue(current[key], updated[key]))
        .map((key) => [key, { from: current[key] ?? null, to: updated[key] ?? null }]),
    );
    await writeActivity(tx, entity, {
      workspaceId,
      seq,
      row: updated,
      actorId: identity.userId,
      op: 'update',
      changes: changed,
    });
    return { [entity.oneKey]: updated };
  };

  const remove: Handler = async ({ query, identity, tx, changes }) => {
    const id = String(query.id);
    const { row, role } = await lockRow(tx, id, identity.userId);
    const workspaceId = String(row.workspace_id);
    if (entity.deleteRole === 'admin' && role === 'member') {
      throw new AppError(
        ErrorCode.FORBIDDEN,
        `Only a workspace owner or admin can delete ${plural(entity)}.`,
      );
    }
    await hooks.beforeDelete?.({ tx, current: sql.toRow(row), identity, changes });
    const below = await descendants(tx, entity, [id]);
    const asked = below.find(
      (level) => level.edge === 'confirm' && level.entity.parent?.entity === entity.name,
    );
    if (asked && query.cascade !== 'true') {
      const count = asked.ids.length;
      const noun = count === 1 ? asked.entity.word : plural(asked.entity);
      throw new AppError(
        ErrorCode.CONFLICT,
        `This ${word} has ${count} ${noun}; delete them too with cascade=true.`,
        { details: { [`${asked.entity.oneKey}Count`]: count } },
      );
    }
    // Deepest first: a child row never outlives its parent, even for a moment.
    for (const level of [...below].reverse()) {
      const childSql = entitySql(level.entity);
      for (const childId of level.ids) {
        await changes.record({
          workspaceId,
          table: level.entity.table as never,
          entityId: childId,
          op: 'delete',
        });
      }
      await tx.query(`DELETE FROM ${childSql.table} WHERE id = ANY($1::uuid[])`, [level.ids]);
    }
    const seq = await changes.record({
      workspaceId,
      table: entity.table as never,
      entityId: id,
      op: 'delete',
    });
    await tx.query(`DELETE FROM ${sql.table} WHERE id = $1`, [id]);
    await writeActivity(tx, entity, {
      workspaceId,
      seq,
      row: sql.toRow(row),
      actorId: identity.userId,
      op: 'delete',
    });
    return { deleted: true, id };
  };

  const filters = entity.list.filters ?? [];
  const list: Handler = async ({ query, identity, tx }) => {
    let workspaceId = query.workspaceId;
    if (entity.list.scope === 'parent' && parentKey && entity.parent) {
      const parentSql = entitySql(entityNamed(entity.parent.entity));
      const { rows } = await tx.query<{ workspace_id: string }>(
        `SELECT workspace_id FROM ${parentSql.table} WHERE id = $1`,
        [query[parentKey]],
      );
      workspaceId = rows[0]?.workspace_id;
      const missing = `No such ${entity.parent.entity.replace(/-/g, ' ')}.`;
      if (!workspaceId) throw new AppError(ErrorCode.NOT_FOUND, missing);
      try {
        await requireWorkspaceRole(tx, workspaceId, identity.userId);
      } catch {
        throw new AppError(ErrorCode.NOT_FOUND, missing);
      }
    } else {
      await requireWorkspaceRole(tx, String(workspaceId), identity.userId);
    }
    const conditions = ['workspace_id = $1'];
    const params: unknown[] = [workspaceId];
    for (const key of [...(parentKey ? [parentKey] : []), ...filters]) {
      const value = query[key];
      if (value === undefined) continue;
      params.push(value);
      conditions.push(`${sql.column(key)?.column ?? key} = ${sql.param(key, params.length)}`);
    }
    const page = entity.list.page;
    if (page) {
      // The newest page below the cursor, read backwards on the index, answered oldest first.
      const column = sql.column(page.column)?.column ?? page.column;
      if (query.before !== undefined) {
        params.push(query.before);
        conditions.push(`${column} < $${params.length}::bigint`);
      }
      params.push(query.limit === undefined ? page.limit : Number(query.limit));
      const { rows } = await tx.query<Row>(
        `SELECT ${sql.select} FROM ${sql.table} WHERE ${conditions.join(' AND ')}
         ORDER BY ${column} DESC, id DESC LIMIT $${params.length}`,
        params,
      );
      return { [entity.manyKey]: rows.reverse().map((row) => sql.toRow(row)) };
    }
    const { rows } = await tx.query<Row>(
      `SELECT ${sql.select} FROM ${sql.table} WHERE ${conditions.join(' AND ')} ORDER BY ${entity.list.orderBy}`,
      params,
    );
    return { [entity.manyKey]: rows.map((row) => sql.toRow(row)) };
  };

  const get: Handler = async ({ query, identity, tx }) => {
    const { rows } = await tx.query<Row>(`SELECT ${sql.select} FROM ${sql.table} WHERE id = $1`, [
      query.id,
    ]);
    const row = rows[0];
    if (!row) throw new AppError(ErrorCode.NOT_FOUND, notFound);
    try {
      await requireWorkspaceRole(tx, String(row.workspace_id), identity.userId);
    } catch {
      throw new AppError(ErrorCode.NOT_FOUND, notFound);
    }
    return one(row);
  };

  const { endpoints } = entity;
  return {
    [`${resource}/${endpoints.create.operation}`]: create,
    [`${resource}/${endpoints.update.operation}`]: update,
    [`${resource}/${endpoints.delete.operation}`]: remove,
    [`${resource}/${endpoints.list.operation}`]: list,
    [`${resource}/${endpoints.get.operation}`]: get,
  };
}
