/**
 * The server side of the contract: one handler per registered operation, typed from its
 * declaration, so a contract change that the server does not follow fails to compile.
 */
import type * as v from 'valibot';
import type { RegisteredEndpoint } from '#contract/endpoint-registry.ts';
import type { PushConflict } from '#contract/sync.ts';
import type { Identity } from '../auth/identity.ts';
import type { Queryable } from '../db/database.ts';
import type { Logger } from '../logger.ts';
import type { PortalIdentity } from '../portal/portal-sessions.ts';
import type { ChangeRecorder } from '../sync/change-recorder.ts';
import type { OperationRunner } from './run-operation.ts';

export interface HandlerContext<E extends RegisteredEndpoint> {
  query: v.InferOutput<E['query']>;
  body: E['body'] extends v.GenericSchema ? v.InferOutput<E['body']> : undefined;
  /** Always set for `user` operations; for `public` ones only when a valid token was sent. */
  identity: E['auth'] extends 'user' ? Identity : Identity | null;
  /** Set for `portal` operations only: the project a valid portal cookie opens. */
  portal: E['auth'] extends 'portal' ? PortalIdentity : null;
  /** Adds a header to the response (the portal's Set-Cookie); sync push drops them. */
  setResponseHeader: (name: string, value: string) => void;
  /** The request's User-Agent ('' when none, or in a sync push). */
  userAgent: string;
  /** The request's Cookie header (the portal's sign-out reads its own cookie). */
  cookieHeader: string | undefined;
  /** The request's transaction: every read and write of the handler goes through it. */
  tx: Queryable;
  requestId: string;
  clientIp: string;
  logger: Logger;
  /** Runs other operations; sync push replays each mutation through it. */
  runner: OperationRunner;
  /** Every write to a synced table records its change here, in the same transaction. */
  changes: ChangeRecorder;
  /** Runs after the transaction commits (mail, hub pushes); never when it rolls back. */
  afterCommit: (effect: () => Promise<void>) => void;
  /** A pushed patch's fields as the device last saw them (sync spec b.8.2); direct calls: none. */
  baseValues: Readonly<Record<string, unknown>> | undefined;
  /** Says the patch replaced another writer's change of these fields (it still applies). */
  reportConflict: (conflict: PushConflict) => void;
}

export type EndpointHandler<E extends RegisteredEndpoint> = (
  ctx: HandlerContext<E>,
) => Promise<v.InferInput<E['output']>>;

type HandlerKey<E extends RegisteredEndpoint> = `${E['resource']}/${E['operation']}`;

/** Exactly one handler for every registered operation, keyed `resource/operation`. */
export type EndpointHandlers = {
  [K in RegisteredEndpoint as HandlerKey<K>]: EndpointHandler<K>;
};

/** One resource's share of the handlers (server/endpoints/<resource>.ts exports one of these). */
export type ResourceHandlers<R extends RegisteredEndpoint['resource']> = {
  [K in Extract<RegisteredEndpoint, { resource: R }> as HandlerKey<K>]: EndpointHandler<K>;
};
