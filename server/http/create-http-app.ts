/**
 * The HTTP application: request ids and access logs, security headers, /healthz, the API
 * dispatcher and the built PWA. Every error, expected or not, leaves through onError here, the one
 * place failures become the contract's error body.
 */
import { createPortalManifestRoute } from '../portal/portal-manifest.ts';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { getConnInfo } from '@hono/node-server/conninfo';
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { HTTPException } from 'hono/http-exception';
import { secureHeaders } from 'hono/secure-headers';
import { MAX_BODY_BYTES, type ErrorBody } from '#contract/errors.ts';
import type { VerifyAccessToken } from '../auth/identity.ts';
import { checkDatabase } from '../db/create-database.ts';
import { trackDatabase } from '../db/database-activity.ts';
import type { Database } from '../db/database.ts';
import type { Logger } from '../logger.ts';
import type { AppEnv } from './app-env.ts';
import { AppError, ErrorCode, isAppError } from './app-error.ts';
import { databaseErrorToAppError } from './database-error.ts';
import { clientAddress } from './client-address.ts';
import { createEndpointDispatcher } from './dispatch-endpoint.ts';
import type { EndpointHandlers } from './endpoint-handler.ts';
import { createOperationRunner, type PublishInvalidation } from './run-operation.ts';
import { OWN_TRANSACTION_OPERATIONS } from '../sync/push-mutations.ts';
import { contentSecurityPolicy } from './content-security-policy.ts';
import { createOpenApiDocument } from './openapi-document.ts';
import { CALENDAR_FEED_PATH } from '#contract/endpoints/calendar.ts';
import { createCalendarFeedRoute } from '../calendar/calendar-feed.ts';
import { createStaticHandler, isServerPath } from './serve-static.ts';

export interface HttpAppDeps {
  db: Database;
  logger: Logger;
  handlers: EndpointHandlers;
  verifyAccessToken: VerifyAccessToken;
  /** Told after each commit which workspaces changed (the real-time hub). */
  publishInvalidation?: PublishInvalidation;
  version: string;
  publicUrl: string;
  /** Built PWA to serve; null serves the API only (tests of the API). */
  distDir: string | null;
  /** Check every response against its output schema (on in tests; a mismatch is a 500). */
  validateOutput?: boolean;
  /** SUPABASE_URL in hosted mode: the CSP lets the app connect to that project. */
  hostedSupabaseUrl?: string | null;
  /** A captcha site key is configured: the CSP admits hCaptcha's widget. */
  captcha?: boolean;
  /** Files live on another origin (Azure): the CSP lets the app fetch them. */
  fileStorageOrigin?: string | null;
  /**
   * TRUST_PROXY: how many reverse proxies stand in front and append to X-Forwarded-For. 0 (the
   * default) ignores the header, since any client can send one.
   */
  trustProxyHops?: number;
  /** Sub-applications served under a path prefix, e.g. the auth service at /auth/v1. */
  mounts?: { path: string; app: Hono<AppEnv> }[];
}

const REQUEST_ID = /^[\w.-]{1,64}$/;

export function createHttpApp(deps: HttpAppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  // /healthz must see the API's database work to tell a busy database from a dead one.
  const db = trackDatabase(deps.db);
  const runner = createOperationRunner({
    db,
    handlers: deps.handlers,
    validateOutput: deps.validateOutput ?? false,
    ownTransactions: OWN_TRANSACTION_OPERATIONS,
    ...(deps.publishInvalidation ? { publishInvalidation: deps.publishInvalidation } : {}),
  });
  const dispatch = createEndpointDispatcher({
    db,
    runner,
    verifyAccessToken: deps.verifyAccessToken,
    publicUrl: deps.publicUrl,
  });
  const serveStatic = deps.distDir ? createStaticHandler({ distDir: deps.distDir }) : null;
  const openApi = createOpenApiDocument({ version: deps.version, serverUrl: deps.publicUrl });

  app.use(async (c, next) => {
    const incoming = c.req.header('x-request-id');
    const requestId = incoming && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    const logger = deps.logger.child({ requestId });
    c.set('requestId', requestId);
    c.set('logger', logger);
    c.set(
      'clientIp',
      clientAddress({
        socketAddress: socketAddress(c),
        forwardedFor: c.req.header('x-forwarded-for') ?? null,
        trustedHops: deps.trustProxyHops ?? 0,
      }),
    );
    const started = performance.now();
    await next();
    c.header('X-Request-Id', requestId);
    const status = c.res.status;
    logger[status >= 500 ? 'error' : 'info'](
      {
        method: c.req.method,
        path: new URL(c.req.url).pathname,
        endpoint: new URL(c.req.url).searchParams.get('endpoint') ?? undefined,
        status,
        ms: Math.round(performance.now() - started),
      },
      status === CLIENT_CLOSED_REQUEST ? 'client closed request' : 'request',
    );
  });

  app.use(
    secureHeaders({
      // A route's own header wins: served files carry a sandboxing CSP (server/files/download-route.ts).
      overwrite: false,
      contentSecurityPolicy: contentSecurityPolicy({
        hostedSupabaseUrl: deps.hostedSupabaseUrl ?? null,
        captcha: deps.captcha ?? false,
        fileStorageOrigin: deps.fileStorageOrigin ?? null,
      }),
      referrerPolicy: 'strict-origin-when-cross-origin',
      xFrameOptions: 'DENY',
      crossOriginEmbedderPolicy: false,
      strictTransportSecurity: deps.publicUrl.startsWith('https:')
        ? 'max-age=31536000; includeSubDomains'
        : false,
      permissionsPolicy: { camera: [], microphone: [], geolocation: [], payment: [] },
    }),
  );

  app.get('/healthz', async (c) => {
    const database = await checkDatabase(db);
    c.header('Cache-Control', 'no-store');
    return c.json(
      { status: database.ok ? 'ok' : 'unavailable', version: deps.version, database },
      database.ok ? 200 : 503,
    );
  });

  app.get('/api/openapi.json', (c) => c.json(openApi));
  // Each project's client portal installs as its own app (server/portal/portal-manifest.ts).
  app.route('/client', createPortalManifestRoute());
  // The calendar subscription feed: text/calendar for calendar apps, its secret in the URL.
  app.get(CALENDAR_FEED_PATH, createCalendarFeedRoute({ db, publicUrl: deps.publicUrl }));

  for (const mount of deps.mounts ?? []) app.route(mount.path, mount.app);

  app.use(
    '/api/*',
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: () => {
        throw new AppError(ErrorCode.PAYLOAD_TOO_LARGE, 'The request body is larger than 1 MiB.');
      },
    }),
  );
  app.all('/api/:resource', (c) => dispatch(c));
  // Spec section 7 writes the SignalR calls as paths (/api/signalr/notification-connect): the
  // same operation as /api/signalr?endpoint=notification-connect, dispatched the same way.
  app.all('/api/:resource{signalr}/:operation', (c) => {
    const url = new URL(c.req.url);
    url.searchParams.set('endpoint', c.req.param('operation'));
    const raw = c.req.raw;
    // Node's fetch needs `duplex` to forward a streamed body (absent from DOM's RequestInit).
    const init: RequestInit & { duplex: 'half' } = {
      method: raw.method,
      headers: raw.headers,
      body: raw.body,
      duplex: 'half',
      signal: raw.signal,
    };
    c.req.raw = new Request(url, init);
    return dispatch(c);
  });

  app.all('*', async (c) => {
    const pathname = new URL(c.req.url).pathname;
    if (serveStatic && !isServerPath(pathname)) {
      const response = await serveStatic(c);
      if (response) return response;
    }
    if (pathname === '/api' || pathname.startsWith('/api/')) {
      throw new AppError(
        ErrorCode.UNKNOWN_ENDPOINT,
        'API calls look like /api/<resource>?endpoint=<operation>.',
      );
    }
    throw new AppError(ErrorCode.NOT_FOUND, `Nothing is served at ${pathname}.`);
  });

  app.onError((error, c) => errorResponse(error, c));
  return app;
}

/** nginx's status for a request the client abandoned: logged, never seen by anyone. */
const CLIENT_CLOSED_REQUEST = 499;

/**
 * The client hung up before the answer (closed the tab, lost the network mid-upload): the failure
 * it caused (a body read that ends in ECONNRESET, an aborted signal) is not a server error.
 */
function clientClosed(c: Context<AppEnv>): boolean {
  if (c.req.raw.signal.aborted) return true;
  const env = c.env as { incoming?: IncomingMessage; outgoing?: ServerResponse } | undefined;
  if (env?.outgoing?.destroyed === true && !env.outgoing.writableFinished) return true;
  return env?.incoming?.destroyed === true && !env.incoming.complete;
}

function errorResponse(error: unknown, c: Context<AppEnv>): Response {
  const requestId = c.get('requestId');
  if (clientClosed(c)) {
    // Logged once, by the access log, at info level with status 499; nobody reads this answer.
    c.get('logger').debug({ err: error }, 'request failed after the client closed it');
    return c.body(null, CLIENT_CLOSED_REQUEST as 400);
  }
  let appError: AppError;
  let databaseError: AppError | null;
  if (isAppError(error)) {
    appError = error;
  } else if (error instanceof HTTPException && error.status < 500) {
    appError = new AppError(
      error.status === 413 ? ErrorCode.PAYLOAD_TOO_LARGE : ErrorCode.VALIDATION_FAILED,
      error.message || 'The request could not be read.',
    );
  } else if ((databaseError = databaseErrorToAppError(error))) {
    if (databaseError.status >= 500) c.get('logger').warn({ err: error }, 'database unavailable');
    appError = databaseError;
  } else {
    // Security: the body never carries the stack, the SQL or the driver's message.
    c.get('logger').error({ err: error }, 'unhandled error');
    appError = new AppError(
      ErrorCode.INTERNAL,
      'An unexpected error occurred. It has been logged.',
    );
  }
  const body: ErrorBody = {
    error: {
      code: appError.code,
      message: appError.message,
      ...(appError.details === undefined ? {} : { details: appError.details }),
      requestId,
    },
  };
  for (const [name, value] of Object.entries(appError.headers)) c.header(name, value);
  c.header('Cache-Control', 'no-store');
  return c.json(body, appError.status as 400);
}

function socketAddress(c: Context<AppEnv>): string | null {
  try {
    return getConnInfo(c).remote.address ?? null;
  } catch {
    // In-process requests (app.request in tests and benchmarks) have no socket.
    return null;
  }
}
