/**
 * `METHOD /api/<resource>?endpoint=<operation>`: resolves the operation from the contract, then
 * checks, in this order: method (405), identity (401), body (415/400), input schemas (400),
 * Idempotency-Key (replay / 422); runs the handler inside one transaction together with its
 * idempotency record, and only after commit runs the handler's side effects.
 */
import type { Context } from 'hono';
import type { EndpointDefinition } from '#contract/define-endpoint.ts';
import { endpointRegistry } from '#contract/endpoint-registry.ts';
import { answersFile, type FileAnswer } from '#contract/file-answer.ts';
import { contentDispositionHeader } from '../files/content-disposition-header.ts';
import type { Identity, VerifyAccessToken } from '../auth/identity.ts';
import type { Database } from '../db/database.ts';
import { refuseCrossSite, requirePortalSession } from '../portal/portal-request.ts';
import type { PortalIdentity } from '../portal/portal-sessions.ts';
import type { AppEnv } from './app-env.ts';
import { AppError, ErrorCode } from './app-error.ts';
import { bearerToken, SECOND_FACTOR_PENDING_MESSAGE } from './bearer-identity.ts';
import {
  findStoredResponse,
  parseIdempotencyKey,
  requestHash,
  storeResponse,
  type StoredResponse,
} from './idempotency.ts';
import { parseJsonBody, queryObject } from './request-input.ts';
import type { OperationRunner } from './run-operation.ts';

export interface DispatcherDeps {
  db: Database;
  runner: OperationRunner;
  verifyAccessToken: VerifyAccessToken;
  /** The app's own origin: portal calls from any other page are refused (CSRF). */
  publicUrl: string;
}

/** The portal's resource: its calls ride on a cookie, so they get the cross-site checks. */
const PORTAL_RESOURCE = 'client-portal';

const UNIQUE_VIOLATION = '23505';

/**
 * User operations an aal1 token of an account with a verified second factor may call. The app
 * calls none before the code step (it reads the public config, then /auth/v1 for the MFA
 * challenge and sign-out; registration, sync and the hub start once the session is aal2), so none.
 */
const SECOND_FACTOR_PENDING_ALLOWED: ReadonlySet<string> = new Set<string>();

export function createEndpointDispatcher(deps: DispatcherDeps) {
  const byResource = new Map<string, Map<string, EndpointDefinition>>();
  for (const def of endpointRegistry) {
    const ops = byResource.get(def.resource) ?? new Map<string, EndpointDefinition>();
    ops.set(def.operation, def);
    byResource.set(def.resource, ops);
  }
  const { runner } = deps;

  async function dispatchEndpoint(c: Context<AppEnv>): Promise<Response> {
    const url = new URL(c.req.url);
    const resource = c.req.param('resource') ?? '';
    const operation = url.searchParams.get('endpoint');
    const ops = byResource.get(resource);
    const def = operation === null ? undefined : ops?.get(operation);
    if (!ops || !def) {
      throw new AppError(
        ErrorCode.UNKNOWN_ENDPOINT,
        !ops
          ? `Unknown resource '${resource}'.`
          : operation === null
            ? `Missing ?endpoint= for resource '${resource}'.`
            : `Unknown operation '${operation}' for resource '${resource}'.`,
      );
    }
    if (c.req.method !== def.method && !(c.req.method === 'HEAD' && def.method === 'GET')) {
      throw new AppError(
        ErrorCode.METHOD_NOT_ALLOWED,
        `${resource}?endpoint=${def.operation} must be called with ${def.method}.`,
        { headers: { Allow: def.method } },
      );
    }

    if (def.resource === PORTAL_RESOURCE) {
      refuseCrossSite(def.method, { get: (name) => c.req.header(name) }, c.req.url, deps.publicUrl);
    }
    if (def.auth === 'portal') {
      const portal = await requirePortalSession(deps.db, c.req.header('cookie'));
      return serve(c, def, url, null, portal);
    }
    const identity = await identify(c, def, deps.verifyAccessToken);
    return serve(c, def, url, identity, null);
  }

  async function serve(
    c: Context<AppEnv>,
    def: EndpointDefinition,
    url: URL,
    identity: Identity | null,
    portal: PortalIdentity | null,
  ): Promise<Response> {
    const resource = def.resource;
    const responseHeaders = new Headers();

    const rawBody =
      def.body === undefined
        ? undefined
        : parseJsonBody(await c.req.text(), c.req.header('content-type'));
    const rawQuery = queryObject(url);
    const request = {
      def,
      rawQuery,
      rawBody,
      identity,
      portal,
      responseHeaders,
      userAgent: c.req.header('user-agent') ?? '',
      cookieHeader: c.req.header('cookie'),
      requestId: c.get('requestId'),
      clientIp: c.get('clientIp'),
      logger: c.get('logger'),
    };

    const isMutation = def.method !== 'GET';
    // A portal answer sets or clears a cookie, which a stored replay would not, and a secret shown
    // once must not be kept in the clear: neither is replayed.
    const key =
      isMutation && resource !== PORTAL_RESOURCE && !def.secretOutput
        ? parseIdempotencyKey(c.req.header('idempotency-key'))
        : null;
    if (!key || runner.ownsTransactions(def)) {
      const { output } = await runner.run(request);
      responseHeaders.forEach((value, name) => c.header(name, value, { append: true }));
      return respond(c, def, output);
    }

    // Validate before consulting the key, so a bad request never replays or stores anything.
    runner.parse(def, rawQuery, rawBody);
    const scope = identity ? `user:${identity.userId}` : `ip:${c.get('clientIp')}`;
    const hash = requestHash({
      method: def.method,
      resource,
      operation: def.operation,
      query: rawQuery,
      body: rawBody,
    });
    const stored = await findStoredResponse(deps.db, scope, key, hash);
    if (stored) return replay(c, stored);
    try {
      const { output } = await runner.run(request, (tx, result) =>
        storeResponse(tx, { scope, key, hash, status: def.status, body: result.output }),
      );
      return respond(c, def, output);
    } catch (error) {
      // Two requests raced with one key: the loser's work was rolled back; answer as a replay.
      if ((error as { code?: unknown }).code === UNIQUE_VIOLATION) {
        const winner = await findStoredResponse(deps.db, scope, key, hash);
        if (winner) return replay(c, winner);
      }
      throw error;
    }
  }

  return dispatchEndpoint;
}

async function respond(
  c: Context<AppEnv>,
  def: EndpointDefinition,
  output: unknown,
): Promise<Response> {
  if (def.status === 204) return c.body(null, 204);
  if (answersFile(def)) {
    // A file (an invoice's PDF), rendered now that the transaction is over.
    const file = output as FileAnswer;
    const bytes = await file.render();
    c.header('Content-Type', file.contentType);
    c.header('Content-Disposition', contentDispositionHeader(file.fileName, false));
    c.header('Cache-Control', 'private, no-store');
    return c.body(bytes as Uint8Array<ArrayBuffer>, 200);
  }
  return c.json(output as object, def.status);
}

async function identify(
  c: Context<AppEnv>,
  def: EndpointDefinition,
  verifyAccessToken: VerifyAccessToken,
): Promise<Identity | null> {
  const token = bearerToken(c.req.header('authorization'));
  if (token === null) {
    if (def.auth === 'user') {
      throw new AppError(ErrorCode.UNAUTHORIZED, 'Sign in to continue: no bearer token was sent.');
    }
    return null;
  }
  const identity = await verifyAccessToken(token);
  if (
    identity.secondFactorPending &&
    def.auth === 'user' &&
    !SECOND_FACTOR_PENDING_ALLOWED.has(`${def.resource}/${def.operation}`)
  ) {
    throw new AppError(ErrorCode.FORBIDDEN, SECOND_FACTOR_PENDING_MESSAGE);
  }
  return identity;
}

function replay(c: Context<AppEnv>, stored: StoredResponse): Response {
  c.header('Idempotent-Replayed', 'true');
  if (stored.status === 204) return c.body(null, 204);
  return c.json(stored.body as object, stored.status as 200);
}
