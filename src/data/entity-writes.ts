/**
 * Create, update and delete for any declared synced entity (contract/synced-entities.ts), as the
 * screens call them: validated with the entity's contract schemas, written with their outbox
 * entry in one transaction (src/db/local-write.ts), then sync is woken. Works the same online and
 * offline. Invariants:
 * - Nothing is written or queued unless the contract's schema accepts the input; a refusal is a
 *   LocalWriteError 'invalid' with field issues, shown beside the field at once.
 * - A patch is checked once more on the row it would make, with the entity's cross-field rules
 *   (the server checks the same inside its locked update), so a valid patch of a valid row never
 *   becomes a sync issue for that reason.
 * - A row points only at a parent that exists here, and its entry waits for that parent's
 *   unapplied create (dependsOn), so the two reach the server in order.
 * - Resource and operation come from `entity.endpoints` and the inputs are typed by those
 *   operations' bodies: no operation string is typed by hand.
 */
import type { EndpointBody } from '#contract/define-endpoint.ts';
import { entityNamed, type SyncedEntities } from '#contract/synced-entities.ts';
import type { LocalRowOf } from '../db/app-database.ts';
import {
  newRowStamp,
  parentRefs,
  writeCreateOf,
  writeDeleteOf,
  writePatchOf,
  type LocalWriteContext,
} from '../db/local-write.ts';
import type { EntityName } from '../db/outbox-entry.ts';
import { mutationBase, newId, parseOrThrow } from './mutation-base.ts';

type DeclaredEntity = SyncedEntities[number];
type CreateBody<E extends DeclaredEntity> = EndpointBody<E['endpoints']['create']>;
type UpdateBody<E extends DeclaredEntity> = EndpointBody<E['endpoints']['update']>;

/** What a screen gives to create a row: the create operation's body, the id optional. */
export type NewRowInput<E extends DeclaredEntity> = Omit<CreateBody<E>, 'id'> & { id?: string };
/** A patch: the update operation's body (only the fields that change). */
export type RowPatch<E extends DeclaredEntity> = UpdateBody<E>;

export interface DeleteOptions {
  /** Deletes what hangs below a `confirm` edge too (else 'has_children' is thrown to ask). */
  cascade?: boolean;
  /** The delete waits this long before it is sent, so Undo (cancelQueuedChange) can cancel it. */
  undoWindowMs?: number;
}

export interface EntityWrites<E extends DeclaredEntity> {
  /** Creates a row (a new uuid v7 unless `input.id`); resolves the row as stored here. */
  create(ctx: LocalWriteContext, input: NewRowInput<E>): Promise<LocalRowOf<E>>;
  /** Saves the changed fields only; resolves false when nothing changed (nothing is queued). */
  update(ctx: LocalWriteContext, id: string, patch: RowPatch<E>): Promise<boolean>;
  /** Hides the row and its descendants and queues the delete; resolves the mutation id. */
  delete(ctx: LocalWriteContext, id: string, options?: DeleteOptions): Promise<string>;
}

type Values = { id: string; workspaceId: string } & Record<string, unknown>;

export function entityWrites<E extends DeclaredEntity>(entity: E): EntityWrites<E> {
  const name: EntityName = entity.name;
  // The same declaration seen without its literal types: rules, label and schemas by field name.
  const declared = entityNamed(name);
  const { endpoints } = entity;

  function brokenRule(next: Record<string, unknown>): { path: string; message: string } | null {
    const rule = declared.rules?.find((candidate) => !candidate.test(next));
    return rule ? { path: rule.path, message: rule.message } : null;
  }

  return {
    async create(ctx, input) {
      const base = mutationBase(ctx);
      const body = parseOrThrow(declared.createSchema, {
        ...input,
        id: input.id ?? newId(ctx),
      }) as Values;
      const row = { ...body, ...newRowStamp(ctx.userId, base.now, name) };
      const label = body[declared.label];
      await writeCreateOf<E['endpoints']['create']>(ctx.db, endpoints.create, {
        ...base,
        userId: ctx.userId,
        entity: name,
        row,
        // The body is the output of this operation's own body schema, which the server parses
        // again on replay; the generic entity cannot prove that to the compiler, a cast does.
        args: body as CreateBody<E> & Values,
        label: typeof label === 'string' ? label : '',
        requires: parentRefs(name, body),
      });
      ctx.onQueued?.();
      // The stored row: the create's output, the stamp and the entity's row defaults, which is
      // the entity's row type; the generic entity needs the cast to say so.
      const stored = { ...row, _v: 0, _pending: 1, _deleted: false, _base: {} };
      return stored as unknown as LocalRowOf<E>;
    },

    async update(ctx, id, patch) {
      const body = parseOrThrow(declared.updateSchema, patch) as Record<string, unknown>;
      const result = await writePatchOf<E['endpoints']['update']>(ctx.db, endpoints.update, {
        ...mutationBase(ctx),
        userId: ctx.userId,
        entity: name,
        id,
        patch: body as UpdateBody<E> & Record<string, unknown>,
        validate: brokenRule,
        // Moving the row to another parent: that parent must exist here, and exist first there.
        requires: (changed) => parentRefs(name, changed),
      });
      if (result) ctx.onQueued?.();
      return result !== null;
    },

    async delete(ctx, id, options = {}) {
      const base = mutationBase(ctx);
      await writeDeleteOf(ctx.db, endpoints.delete, {
        ...base,
        ...(options.undoWindowMs ? { holdUntil: base.now + options.undoWindowMs } : {}),
        userId: ctx.userId,
        entity: name,
        id,
        cascade: options.cascade ?? false,
      });
      ctx.onQueued?.();
      return base.mutationId;
    },
  };
}
