/**
 * Shared by the realtime-*.test.ts files: the real HTTP app and hub listening on a loopback port
 * (startServer, like production), users registered through the API, and the unmodified
 * @microsoft/signalr client pointed at it. Hub timings are small so keep-alive and timeouts run in
 * milliseconds.
 */
import { randomBytes } from 'node:crypto';
import {
  HttpTransportType,
  HubConnectionBuilder,
  LogLevel,
  type HubConnection,
  type IRetryPolicy,
} from '@microsoft/signalr';
import { runMigrations } from '../../server/db/migrate.ts';
import type { Database } from '../../server/db/database.ts';
import type { Mailer } from '../../server/mail/mailer.ts';
import { createMemoryPgliteDatabase } from '../../server/db/pglite-database.ts';
import { createEndpointHandlers } from '../../server/endpoints/create-endpoint-handlers.ts';
import { createHttpApp } from '../../server/http/create-http-app.ts';
import { createLogger } from '../../server/logger.ts';
import type { Backplane } from '../../server/realtime/backplane.ts';
import { createRealtime, type Realtime } from '../../server/realtime/create-realtime.ts';
import type { HubMethod, HubTimings } from '../../server/realtime/notification-hub.ts';
import { startServer } from '../../server/start-server.ts';
import { WebSocket } from 'ws';
import {
  bearer,
  newTestUser,
  type createTestTokens,
  type TestUser,
} from '../fixtures/test-tokens.ts';

export type Tokens = Awaited<ReturnType<typeof createTestTokens>>;

export const PUBLIC_URL = 'http://localhost:8080';
export const HUB_PATH = '/hubs/notifications';

/** Fast hub clock for tests: ping every 100 ms, drop a silent peer after 400 ms. */
export const FAST_TIMINGS: Partial<HubTimings> = {
  keepAliveIntervalMs: 100,
  clientTimeoutMs: 400,
  handshakeTimeoutMs: 400,
  negotiateTtlMs: 2_000,
  tickMs: 20,
  closeGraceMs: 300,
  joinTimeoutMs: 2_000,
};

export interface HubServer {
  url: string;
  port: number;
  db: Database;
  realtime: Realtime;
  stop(): Promise<void>;
}

export async function createMigratedDb(): Promise<Database> {
  const db = await createMemoryPgliteDatabase();
  await runMigrations(db);
  return db;
}

/**
 * One server process's worth: HTTP app + hub on 127.0.0.1. A shared `db` is not closed on stop
 * (several servers may use it); an own one is.
 */
export async function startHubServer(options: {
  tokens: Tokens;
  db?: Database;
  port?: number;
  redis?: { url: string; prefix: string };
  backplane?: Backplane;
  timings?: Partial<HubTimings>;
  methods?: Readonly<Record<string, HubMethod>>;
  /** Mail sent by the app's operations (a no-op by default). */
  mailer?: Mailer;
}): Promise<HubServer> {
  const db = options.db ?? (await createMigratedDb());
  const logger = createLogger({ level: 'silent' });
  const realtime = await createRealtime({
    db,
    logger,
    publicUrl: PUBLIC_URL,
    timings: options.timings ?? FAST_TIMINGS,
    ...(options.redis ? { redis: options.redis } : {}),
    ...(options.backplane ? { backplane: options.backplane } : {}),
    ...(options.methods ? { methods: options.methods } : {}),
  });
  const app = createHttpApp({
    db,
    logger,
    handlers: createEndpointHandlers({
      version: '0.0.0-test',
      mailer: options.mailer ?? { send: () => Promise.resolve() },
      contactEmail: 'team@test',
      publicConfig: () => ({
        supabaseUrl: PUBLIC_URL,
        supabaseAnonKey: 'anon-test',
        googleEnabled: false,
        captchaSiteKey: null,
      }),
      realtime,
    }),
    verifyAccessToken: options.tokens.verifyAccessToken,
    mounts: realtime.mounts,
    version: '0.0.0-test',
    publicUrl: PUBLIC_URL,
    distDir: null,
    validateOutput: true,
  });
  const ownsDb = options.db === undefined;
  const running = await startServer({
    app,
    db: ownsDb
      ? db
      : {
          kind: db.kind,
          query: db.query.bind(db),
          transaction: db.transaction.bind(db),
          close: () => Promise.resolve(),
        },
    logger,
    port: options.port ?? 0,
    host: '127.0.0.1',
    graceMs: 1_000,
    upgrades: realtime.upgrades,
  });
  return { url: running.url, port: running.port, db, realtime, stop: () => running.stop() };
}

export interface Member {
  user: TestUser;
  token: string;
  /** The workspace registration created for this user (they own it). */
  workspaceId: string;
}

export async function call(
  server: { url: string },
  path: string,
  init: { method?: string; token?: string; headers?: Record<string, string>; body?: unknown } = {},
): Promise<{ status: number; body: any }> {
  const headers: Record<string, string> = {
    ...(init.token ? bearer(init.token) : {}),
    ...(init.body === undefined ? {} : { 'Content-Type': 'application/json' }),
    ...init.headers,
  };
  const response = await fetch(`${server.url}${path}`, {
    method: init.method ?? 'GET',
    headers,
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text === '' ? null : JSON.parse(text) };
}

export async function registerMember(
  server: { url: string },
  tokens: Tokens,
  name: string,
): Promise<Member> {
  const user = newTestUser(name);
  const token = await tokens.sign(user);
  const { status, body } = await call(server, '/api/register?endpoint=register-user', {
    method: 'POST',
    token,
    body: { id: user.id, email: user.email, firstName: name, lastName: 'Test' },
  });
  if (status !== 200) throw new Error(`register failed: ${status} ${JSON.stringify(body)}`);
  return { user, token, workspaceId: body.data.workspace.id };
}

/** Spec section 7 form: POST /api/signalr/notification-connect with the claim headers. */
export async function connectionInfo(
  server: { url: string },
  member: Member,
  workspaceId: string | null = member.workspaceId,
): Promise<{ url: string; accessToken: string }> {
  const { status, body } = await call(server, '/api/signalr/notification-connect', {
    method: 'POST',
    token: member.token,
    headers: {
      'x-user-id': member.user.id,
      ...(workspaceId ? { 'x-workspace-id': workspaceId } : {}),
    },
  });
  if (status !== 200) throw new Error(`notification-connect: ${status} ${JSON.stringify(body)}`);
  return body;
}

export function joinGroup(
  server: { url: string },
  member: Member,
  connectionId: string,
  groupType: 'user' | 'workspace',
  workspaceId: string | null = member.workspaceId,
) {
  return call(server, '/api/signalr/join-notification-group', {
    method: 'POST',
    token: member.token,
    body: { userId: member.user.id, workspaceId, connectionId, groupType },
  });
}

/** A retry policy that keeps trying every `delayMs` (restart tests need more than 4 attempts). */
export function steadyRetry(delayMs: number, attempts: number): IRetryPolicy {
  return {
    nextRetryDelayInMilliseconds: ({ previousRetryCount }) =>
      previousRetryCount < attempts ? delayMs : null,
  };
}

/**
 * The app's way to connect: a fresh hub token from notification-connect for every negotiate
 * (the client calls the factory on each connect and reconnect).
 */
export function buildConnection(
  server: { url: string },
  member: Member,
  options: {
    reconnect?: IRetryPolicy;
    serverTimeoutMs?: number;
    keepAliveMs?: number;
    accessToken?: () => Promise<string>;
  } = {},
): HubConnection {
  let builder = new HubConnectionBuilder()
    .withUrl(`${server.url}${HUB_PATH}`, {
      transport: HttpTransportType.WebSockets,
      accessTokenFactory:
        options.accessToken ?? (async () => (await connectionInfo(server, member)).accessToken),
    })
    .configureLogging(LogLevel.None)
    .withServerTimeout(options.serverTimeoutMs ?? 2_000)
    .withKeepAliveInterval(options.keepAliveMs ?? 100);
  if (options.reconnect) builder = builder.withAutomaticReconnect(options.reconnect);
  return builder.build();
}

/** Starts a connection and joins the user group (and the workspace group when given). */
export async function connectAndJoin(
  server: { url: string },
  member: Member,
  options: Parameters<typeof buildConnection>[2] & { workspace?: boolean } = {},
): Promise<HubConnection> {
  const connection = buildConnection(server, member, options);
  await connection.start();
  const id = connection.connectionId;
  if (!id) throw new Error('no connection id');
  const user = await joinGroup(server, member, id, 'user');
  if (user.status !== 200) throw new Error(`join user: ${user.status}`);
  if (options.workspace) {
    const ws = await joinGroup(server, member, id, 'workspace');
    if (ws.status !== 200) throw new Error(`join workspace: ${ws.status}`);
  }
  return connection;
}

/** Collects every payload of one hub event. */
export function collect<T = any>(connection: HubConnection, event: string): T[] {
  const seen: T[] = [];
  connection.on(event, (payload: T) => seen.push(payload));
  return seen;
}

export function randomPrefix(): string {
  return `satchel-test:${randomBytes(6).toString('hex')}:`;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** POST {hub}/negotiate as the client does; returns the response. */
export async function negotiate(
  server: { url: string },
  hubToken: string | null,
  headers: Record<string, string> = {},
) {
  return call(server, `${HUB_PATH}/negotiate?negotiateVersion=1`, {
    method: 'POST',
    headers: { ...(hubToken ? bearer(hubToken) : {}), ...headers },
  });
}

/**
 * A raw `ws` client speaking the protocol by hand, the way a browser connects: the token in the
 * `access_token` query. Incoming frames are split into records.
 */
export function openRaw(
  server: { url: string },
  query: Record<string, string>,
  options: { headers?: Record<string, string> } = {},
) {
  const target = new URL(`${server.url.replace(/^http/, 'ws')}${HUB_PATH}`);
  for (const [key, value] of Object.entries(query)) target.searchParams.set(key, value);
  const ws = new WebSocket(target, { headers: options.headers ?? {} });
  const records: string[] = [];
  const waiters: (() => void)[] = [];
  ws.on('message', (data: Buffer) => {
    for (const record of data.toString('utf8').split('\x1e')) {
      if (record !== '') records.push(record);
    }
    for (const wake of waiters.splice(0)) wake();
  });
  const opened = new Promise<number>((resolve, reject) => {
    ws.once('open', () => resolve(101));
    ws.once('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
    ws.once('error', reject);
  });
  const closed = new Promise<number>((resolve) =>
    ws.once('close', (code: number) => resolve(code)),
  );
  return {
    ws,
    records,
    /** 101 when upgraded, else the refusing HTTP status. */
    opened,
    closed,
    send: (...messages: unknown[]) =>
      ws.send(messages.map((m) => `${typeof m === 'string' ? m : JSON.stringify(m)}\x1e`).join('')),
    /** Waits until a record matching `predicate` arrived; returns it parsed. */
    async waitFor(predicate: (record: any) => boolean, timeoutMs = 3_000): Promise<any> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = records.map((r) => JSON.parse(r)).find(predicate);
        if (found !== undefined) return found;
        if (Date.now() > deadline)
          throw new Error(`no matching record in ${JSON.stringify(records)}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 50);
        });
      }
    },
  };
}
