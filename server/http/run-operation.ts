/**
 * Runs one contract operation: parse its input, run its handler inside one transaction with a
 * change recorder, let the caller add its own writes to that transaction (idempotency records),
 * commit, then run side effects and announce changed workspaces. Shared by the direct endpoint
 * dispatcher and by sync push, so a pushed mutation is exactly the direct call.
 */
import * as v from 'valibot';
import type { EndpointDefinition } from '#contract/define-endpoint.ts';
import { endpointKey } from '#contract/endpoint-registry.ts';
import type { SyncedTable } from '#contract/sync.ts';
import type { Identity } from '../auth/identity.ts';
import type { Database, Queryable } from '../db/database.ts';
import type { Logger } from '../logger.ts';
import { createChangeRecorder } from '../sync/change-recorder.ts';
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
  requestId: string;
  clientIp: string;
  logger: Logger;
  /** The device that caused the change, echoed in invalidations so it can skip its own. */
  originClientId?: string | null;
}

export interface OperationOutcome {
  output: unknown;
  /** Highest change-log sequence written, or null when nothing synced changed. */
  seq: number | null;
}

type AnyHandler = (ctx: HandlerContext<never>) => Promise<unknown>;

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

  async function run(
    request: OperationRequest,
    beforeCommit?: (tx: Queryable, result: OperationOutcome) => Promise<void>,
  ): Promise<OperationOutcome> {
    const { def } = request;
    const handler = handlers[endpointKey(def)];
    if (!handler) throw new Error(`No handler for ${endpointKey(def)}`);
    const { query, body } = parse(def, request.rawQuery, request.rawBody);

    const effects: (() => Promise<void>)[] = [];
    let touched: ReturnType<typeof createChangeRecorder>['touched'] = new Map();
    const inTransaction = <T>(fn: (tx: Queryable) => Promise<T>) =>
      ownTransactions.has(endpointKey(def)) ? fn(deps.db) : deps.db.transaction(fn);
    const outcome = await inTransaction(async (tx) => {
      const changes = createChangeRecorder(tx);
      const result = await handler({
        query,
        body,
        identity: request.identity,
        tx,
        changes,
        runner,
        requestId: request.requestId,
        clientIp: request.clientIp,
        logger: request.logger,
        afterCommit: (effect: () => Promise<void>) => effects.push(effect),
      } as never);
      const output = deps.validateOutput ? v.parse(def.output, result) : result;
      const done: OperationOutcome = { output, seq: changes.lastSeq };
      if (beforeCommit) await beforeCommit(tx, done);
      touched = changes.touched;
      return done;
    });

    // Committed: failed side effects are logged, never turned into a failed request.
    if (effects.length > 0) {
      const results = await Promise.allSettled(effects.map((effect) => effect()));
      for (const result of results) {
        if (result.status === 'rejected')
          request.logger.error({ err: result.reason }, 'after-commit effect failed');
      }
    }
    for (const [workspaceId, { tables, seq }] of touched) {
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
    return outcome;
  }

  const runner: OperationRunner = {
    run,
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
  /** A bare transaction on the runner's database (bookkeeping outside any operation). */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  ownsTransactions(def: EndpointDefinition): boolean;
}
