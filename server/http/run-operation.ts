/**
 * Runs one contract operation: parse its input, run its handler inside one transaction with a
 * change recorder, let the caller add its own writes to that transaction (idempotency records),
 * commit, then run side effects and announce changed workspaces. Shared by the direct endpoint
 * dispatcher and by sync push, so a pushed mutation is exactly the direct call.
 */
import * as v from 'valibot';
import type { EndpointDefinition } from '#contract/define-endpoint.ts';
import { endpointKey } from '#contract/endpoint-registry.ts';
import type { PushConflict, SyncedTable } from '#contract/sync.ts';
import type { Identity } from '../auth/identity.ts';
import type { Database, Queryable } from '../db/database.ts';
import type { Logger } from '../logger.ts';
import type { PortalIdentity } from '../portal/portal-sessions.ts';
import { createBatchWrites, DeferredOutput } from '../sync/batch-writes.ts';
import {
  createChangeLogBuffer,
  createChangeRecorder,
  type ChangeLogBuffer,
} from '../sync/change-recorder.ts';
import type { EndpointHandlers, HandlerContext } from './endpoint-handler.ts';
import { parseInput } from './request-input.ts';

/** Told after commit which workspaces changed (the hub sends `tablesInvalidated`). */
export type PublishInvalidation = (change: {
  workspaceId: string;
  tables: SyncedTable[];
  seq: number;
  originClientId: string | null;
}) => void;

export interface OperationRequest {
  def: EndpointDefinition;
  rawQuery: unknown;
  rawBody: unknown;
  identity: Identity | null;
  /** The portal session of a `portal` operation (set by the dispatcher, never by sync push). */
  portal?: PortalIdentity | null;
  /** Headers the handler adds to the response; absent (sync push) they go nowhere. */
  responseHeaders?: Headers;
  userAgent?: string;
  cookieHeader?: string | undefined;
  requestId: string;
  clientIp: string;
  logger: Logger;
  /** The device that caused the change, echoed in invalidations so it can skip its own. */
  originClientId?: string | null;
  /** A pushed patch's fields as the device saw them; an update reports a conflict against them. */
  baseValues?: Readonly<Record<string, unknown>> | undefined;
}

export interface OperationOutcome {
  output: unknown;
  /** Highest change-log sequence written, or null when nothing synced changed. */
  seq: number | null;
  /** The patch replaced another writer's change of these fields (see `baseValues`). */
  conflict?: PushConflict;
}

type AnyHandler = (ctx: HandlerContext<never>) => Promise<unknown>;

/** What a finished operation leaves for after its commit. */
interface Committed {
  effects: (() => Promise<void>)[];
  touched: ReadonlyMap<string, { tables: Set<SyncedTable>; seq: number }>;
  request: OperationRequest;
}

/** Operations sharing one transaction (see `batch`). */
export interface OperationBatch {
  /** The batch's transaction, for bookkeeping between operations. */
  tx: Queryable;
  /** Whether a failure rolls back to its savepoint (else the whole transaction is lost). */
  savepoints: boolean;
  /** Runs one operation in its own savepoint (if any); a failure rolls back to it and rethrows. */
  run(
    request: OperationRequest,
    beforeCommit?: (tx: Queryable, result: OperationOutcome) => Promise<void>,
  ): Promise<OperationOutcome>;
  /** Any work in its own savepoint, with the same rollback. */
  inSavepoint<R>(work: () => Promise<R>): Promise<R>;
  /**
   * Without savepoints, operations may leave writes queued (sync/batch-writes.ts) and their
   * outcome's `output` unset, and their `beforeCommit` not yet called: this writes them and
   * completes those outcomes (the same objects `run` returned). A failure here fails the batch's
   * attempt. The batch flushes anyway before it commits; a caller reading outputs flushes first.
   */
  flush(): Promise<void>;
}

export function createOperationRunner(deps: {
  db: Database;
  handlers: EndpointHandlers;
  validateOutput: boolean;
  publishInvalidation?: PublishInvalidation;
  /**
   * Operations that run their own transactions (sync push: one per mutation). Their handler gets
   * the database itself as `tx`, outside any transaction, and carries its own idempotency.
   */
  ownTransactions?: ReadonlySet<string>;
}) {
  const ownTransactions = deps.ownTransactions ?? new Set<string>();
  const handlers = deps.handlers as unknown as Record<string, AnyHandler>;

  /** Parses the operation's input; throws VALIDATION_FAILED listing every failing path. */
  function parse(def: EndpointDefinition, rawQuery: unknown, rawBody: unknown) {
    const query = parseInput('query', def.query, rawQuery);
    const body = def.body === undefined ? undefined : parseInput('body', def.body, rawBody);
    return { query, body };
  }

  /** The handler on `tx`, without committing: its output and what to do once committed. */
  async function execute(
    tx: Queryable,
    request: OperationRequest,
    beforeCommit?: (tx: Queryable, result: OperationOutcome) => Promise<void>,
    deferral?: { changeLog: ChangeLogBuffer; completions: (() => Promise<void>)[] },
  ): Promise<{ done: OperationOutcome; committed: Committed }> {
    const { def } = request;
    const handler = handlers[endpointKey(def)];
    if (!handler) throw new Error(`No handler for ${endpointKey(def)}`);
    const { query, body } = parse(def, request.rawQuery, request.rawBody);
    const effects: (() => Promise<void>)[] = [];
    const changes = createChangeRecorder(tx, deferral?.changeLog);
    let conflict: PushConflict | undefined;
    const result = await handler({
      query,
      body,
      identity: request.identity,
      portal: request.portal ?? null,
      setResponseHeader: (name: string, value: string) =>
        request.responseHeaders?.append(name, value),
      userAgent: request.userAgent ?? '',
      cookieHeader: request.cookieHeader,
      tx,
      changes,
      runner,
      requestId: request.requestId,
      clientIp: request.clientIp,
      logger: request.logger,
      afterCommit: (effect: () => Promise<void>) => effects.push(effect),
      baseValues: request.baseValues,
      reportConflict: (found: PushConflict) => {
        conflict = found;
      },
    } as never);
    const validate = (value: unknown) => (deps.validateOutput ? v.parse(def.output, value) : value);
    const done: OperationOutcome = {
      output: undefined,
      seq: changes.lastSeq,
      ...(conflict ? { conflict } : {}),
    };
    const committed = { effects, touched: changes.touched, request };
    if (result instanceof DeferredOutput) {
      // Its writes are queued: the outcome is completed once the batch flushes them.
      if (!deferral) throw new Error(`${endpointKey(def)} deferred its output outside a batch`);
      deferral.completions.push(async () => {
        done.output = validate(result.value());
        if (beforeCommit) await beforeCommit(tx, done);
      });
      return { done, committed };
    }
    done.output = validate(result);
    if (beforeCommit) await beforeCommit(tx, done);
    return { done, committed };
  }

  /** Once committed: side effects (failures logged, never a failed request), then invalidations. */
  async function afterCommit(all: Committed[]): Promise<void> {
    const published = new Map<
      string,
      { tables: Set<SyncedTable>; seq: number; request: OperationRequest }
    >();
    for (const { effects, touched, request } of all) {
      if (effects.length > 0) {
        const results = await Promise.allSettled(effects.map((effect) => effect()));
        for (const result of results) {
          if (result.status === 'rejected')
            request.logger.error({ err: result.reason }, 'after-commit effect failed');
        }
      }
      for (const [workspaceId, { tables, seq }] of touched) {
        const entry = published.get(workspaceId) ?? { tables: new Set(), seq, request };
        for (const table of tables) entry.tables.add(table);
        entry.seq = Math.max(entry.seq, seq);
        published.set(workspaceId, entry);
      }
    }
    // One invalidation per workspace, however many operations a batch ran.
    for (const [workspaceId, { tables, seq, request }] of published) {
      try {
        deps.publishInvalidation?.({
          workspaceId,
          tables: [...tables],
          seq,
          originClientId: request.originClientId ?? null,
        });
      } catch (error) {
        request.logger.error({ err: error }, 'invalidation publish failed');
      }
    }
  }

  async function run(
    request: OperationRequest,
    beforeCommit?: (tx: Queryable, result: OperationOutcome) => Promise<void>,
  ): Promise<OperationOutcome> {
    if (ownTransactions.has(endpointKey(request.def))) {
      const { done, committed } = await execute(deps.db, request, beforeCommit);
      await afterCommit([committed]);
      return done;
    }
    const { done, committed } = await deps.db.transaction((tx) =>
      execute(tx, request, beforeCommit),
    );
    await afterCommit([committed]);
    return done;
  }

  /**
   * Several operations in one transaction. With `savepoints`, each runs inside its own savepoint:
   * a failing one rolls back to it only (the caller decides what its failure means) and the rest
   * commit together. Without, any failure rolls the whole transaction back (the fast path of a
   * caller that can start again carefully: a savepoint costs two statements per operation).
   * Side effects and invalidations run once, after the one commit.
   */
  async function batch<T>(
    fn: (batch: OperationBatch) => Promise<T>,
    options: { savepoints: boolean },
  ): Promise<T> {
    const committed: Committed[] = [];
    const value = await deps.db.transaction(async (rawTx) => {
      // Without savepoints nothing is rolled back partly, so the change log can wait for the end,
      // and inserts can be queued and written several rows a statement (sync/batch-writes.ts).
      const writes = options.savepoints ? undefined : createBatchWrites(rawTx);
      const tx = writes?.tx ?? rawTx;
      const deferral = options.savepoints
        ? undefined
        : { changeLog: createChangeLogBuffer(rawTx), completions: [] as (() => Promise<void>)[] };
      const flush = async () => {
        await writes?.flush();
        for (const complete of deferral?.completions.splice(0) ?? []) await complete();
      };
      let savepoints = 0;
      const inSavepoint = async <R>(work: () => Promise<R>): Promise<R> => {
        if (!options.savepoints) return work();
        const name = `op_${++savepoints}`;
        await tx.query(`SAVEPOINT ${name}`);
        try {
          const result = await work();
          await tx.query(`RELEASE SAVEPOINT ${name}`);
          return result;
        } catch (error) {
          await tx.query(`ROLLBACK TO SAVEPOINT ${name}`);
          throw error;
        }
      };
      const result = await fn({
        tx,
        savepoints: options.savepoints,
        inSavepoint,
        run: (request, beforeCommit) =>
          inSavepoint(async () => {
            const { done, committed: after } = await execute(tx, request, beforeCommit, deferral);
            committed.push(after);
            return done;
          }),
        flush,
      });
      await flush();
      await deferral?.changeLog.flush();
      return result;
    });
    await afterCommit(committed);
    return value;
  }

  const runner: OperationRunner = {
    run,
    batch,
    transaction: (fn) => deps.db.transaction(fn),
    parse,
    ownsTransactions: (def: EndpointDefinition) => ownTransactions.has(endpointKey(def)),
  };
  return runner;
}

export interface OperationRunner {
  run(
    request: OperationRequest,
    beforeCommit?: (tx: Queryable, result: OperationOutcome) => Promise<void>,
  ): Promise<OperationOutcome>;
  parse(
    def: EndpointDefinition,
    rawQuery: unknown,
    rawBody: unknown,
  ): { query: unknown; body: unknown };
  /** Operations in one transaction, each in a savepoint; effects run after the one commit. */
  batch<T>(fn: (batch: OperationBatch) => Promise<T>, options: { savepoints: boolean }): Promise<T>;
  /** A bare transaction on the runner's database (bookkeeping outside any operation). */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  ownsTransactions(def: EndpointDefinition): boolean;
}
