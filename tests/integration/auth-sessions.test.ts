/**
 * Sessions end API access at once: a sign-out (local, others, global) refuses that session's
 * access tokens on /api, its hub tokens at negotiate, and closes its live hub connections. MFA is
 * enforced on data: an aal1 token of an account with a verified factor gets 403 on user
 * operations until the session reaches aal2. The real auth service, API and hub on a loopback
 * port; the unmodified supabase-js and SignalR clients.
 */
import { Writable } from 'node:stream';
import type { HubConnection } from '@microsoft/signalr';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { decodeJwt, SignJWT } from 'jose';
import * as OTPAuth from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuthService, type AuthService } from '../../server/auth/create-auth-service.ts';
import { loadSigningKeys } from '../../server/auth/signing-keys.ts';
import type { Database } from '../../server/db/database.ts';
import { createEndpointHandlers } from '../../server/endpoints/create-endpoint-handlers.ts';
import { createHttpApp } from '../../server/http/create-http-app.ts';
import { createLogger } from '../../server/logger.ts';
import { createRealtime, type Realtime } from '../../server/realtime/create-realtime.ts';
import { startServer, type RunningServer } from '../../server/start-server.ts';
import { liftedRateLimits, TEST_PASSWORD } from '../fixtures/create-auth-test-server.ts';
import {
  buildConnection,
  call,
  createMigratedDb,
  FAST_TIMINGS,
  negotiate,
  openRaw,
  type Member,
} from './realtime-harness.ts';

let db: Database;
let auth: AuthService;
let realtime: Realtime;
let running: RunningServer;
let server: { url: string };

beforeAll(async () => {
  db = await createMigratedDb();
  const logger = createLogger({
    level: 'silent',
    destination: new Writable({ write: (_c, _e, done) => done() }),
  });
  const noMail = { send: () => Promise.resolve() };
  auth = await createAuthService({
    db,
    logger,
    mailer: noMail,
    sms: { send: () => Promise.resolve() },
    config: {
      siteUrl: 'http://localhost:8080',
      autoconfirm: true,
      jwtExpirySeconds: 3600,
      mfaIssuer: 'Satchel Test',
      additionalRedirectUrls: [],
      captcha: null,
      google: null,
      logMailLinks: false,
      rateLimits: liftedRateLimits,
    },
    argon2Options: { memoryCost: 1024, timeCost: 1, parallelism: 1 },
  });
  realtime = await createRealtime({
    db,
    logger,
    publicUrl: 'http://localhost:8080',
    timings: FAST_TIMINGS,
    sessions: auth.sessions,
  });
  const app = createHttpApp({
    db,
    logger,
    handlers: createEndpointHandlers({
      version: '0.0.0-test',
      mailer: noMail,
      contactEmail: 'team@test',
      publicConfig: auth.publicConfig,
      realtime,
    }),
    verifyAccessToken: auth.verifyAccessToken,
    mounts: [{ path: '/auth/v1', app: auth.app }, ...realtime.mounts],
    version: '0.0.0-test',
    publicUrl: 'http://localhost:8080',
    distDir: null,
    validateOutput: true,
  });
  running = await startServer({
    app,
    db,
    logger,
    port: 0,
    host: '127.0.0.1',
    graceMs: 1_000,
    upgrades: realtime.upgrades,
  });
  server = { url: running.url };
});

afterAll(async () => {
  await running.stop();
});

function client(): SupabaseClient {
  const store = new Map<string, string>();
  return createClient(server.url, auth.anonKey, {
    auth: {
      persistSession: true,
      autoRefreshToken: false,
      detectSessionInUrl: false,
      storage: {
        getItem: (key) => store.get(key) ?? null,
        setItem: (key, value) => void store.set(key, value),
        removeItem: (key) => void store.delete(key),
      },
    },
    realtime: { transport: NoWebSocket as never },
  });
}

class NoWebSocket {
  constructor() {
    throw new Error('supabase Realtime is not used here');
  }
}

async function signUp(email: string): Promise<void> {
  const { error } = await client().auth.signUp({ email, password: TEST_PASSWORD });
  if (error) throw error;
}

/** A new session (a device): its client and access token. */
async function signIn(email: string): Promise<{ client: SupabaseClient; token: string }> {
  const c = client();
  const { data, error } = await c.auth.signInWithPassword({ email, password: TEST_PASSWORD });
  if (error || !data.session) throw error ?? new Error('no session');
  return { client: c, token: data.session.access_token };
}

async function register(email: string, token: string): Promise<Member> {
  const userId = String(decodeJwt(token).sub);
  const { status, body } = await call(server, '/api/register?endpoint=register-user', {
    method: 'POST',
    token,
    body: { id: userId, email, firstName: 'Sam', lastName: 'Test' },
  });
  if (status !== 200) throw new Error(`register: ${status} ${JSON.stringify(body)}`);
  return { user: { id: userId, email }, token, workspaceId: body.data.workspace.id };
}

const profile = (token: string) =>
  call(server, '/api/workspace?endpoint=get-owned-workspace-id', { token });
const hubToken = (token: string) =>
  call(server, '/api/signalr?endpoint=notification-connect', { method: 'POST', token });

function closedPromise(connection: HubConnection): Promise<Error | undefined> {
  return new Promise((resolve) => connection.onclose((error) => resolve(error)));
}

async function liveHub(member: Member, token: string): Promise<HubConnection> {
  const { status, body } = await hubToken(token);
  if (status !== 200) throw new Error(`notification-connect: ${status}`);
  const connection = buildConnection(server, member, {
    accessToken: () => Promise.resolve(body.accessToken as string),
  });
  await connection.start();
  return connection;
}

describe('sign-out ends API and hub access at once', () => {
  it('scope=local: that session is refused on /api, at notification-connect and at the hub; the others stay', async () => {
    await signUp('local@example.com');
    const a = await signIn('local@example.com');
    const b = await signIn('local@example.com');
    const member = await register('local@example.com', a.token);
    expect((await profile(a.token)).status).toBe(200);
    const hubA = (await hubToken(a.token)).body.accessToken as string;
    const connA = await liveHub(member, a.token);
    const connB = await liveHub(member, b.token);
    const aClosed = closedPromise(connA);

    expect((await a.client.auth.signOut({ scope: 'local' })).error).toBeNull();

    const refused = await profile(a.token);
    expect(refused.status).toBe(401);
    expect(refused.body.error).toMatchObject({
      code: 'UNAUTHORIZED',
      requestId: expect.any(String),
    });
    expect((await hubToken(a.token)).status).toBe(401);
    const error = await aClosed;
    expect(String(error)).toMatch(/signed out/i);
    expect((await negotiate(server, hubA)).status).toBe(401);

    expect((await profile(b.token)).status).toBe(200);
    expect(connB.state).toBe('Connected');
    await connB.stop();
  });

  it('scope=global ends every session of the user, and an upgrade with a negotiated id is refused', async () => {
    await signUp('global@example.com');
    const a = await signIn('global@example.com');
    const b = await signIn('global@example.com');
    const member = await register('global@example.com', a.token);
    const connB = await liveHub(member, b.token);
    const bClosed = closedPromise(connB);
    const hubB = (await hubToken(b.token)).body.accessToken as string;
    const negotiated = await negotiate(server, hubB);
    expect(negotiated.status).toBe(200);

    expect((await a.client.auth.signOut({ scope: 'global' })).error).toBeNull();

    expect((await profile(a.token)).status).toBe(401);
    expect((await profile(b.token)).status).toBe(401);
    await bClosed;
    const raw = openRaw(server, { id: negotiated.body.connectionToken, access_token: hubB });
    expect([401, 404]).toContain(await raw.opened);
  });

  it('scope=others keeps the caller and ends the rest', async () => {
    await signUp('others@example.com');
    const a = await signIn('others@example.com');
    const b = await signIn('others@example.com');
    await register('others@example.com', a.token);
    expect((await a.client.auth.signOut({ scope: 'others' })).error).toBeNull();
    expect((await profile(a.token)).status).toBe(200);
    expect((await profile(b.token)).status).toBe(401);
  });

  it('a token signed by the service that names no session is refused', async () => {
    // Every token the service signs names its session; one without is not accepted on /api.
    const { token } = await signIn('others@example.com');
    const keys = await loadSigningKeys(db, {
      issuer: 'http://localhost:8080/auth/v1',
      now: () => new Date(),
    });
    const claims = decodeJwt(token);
    delete claims.session_id;
    const sessionless = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'ES256', kid: keys.kid, typ: 'JWT' })
      .sign(keys.privateKey);
    const refused = await profile(sessionless);
    expect(refused.status).toBe(401);
    expect(refused.body.error.message).toMatch(/names no session/);
  });
});

describe('two-factor sign-in is enforced on data', () => {
  let secret = '';
  let factorId = '';
  const totp = (steps = 0) =>
    OTPAuth.TOTP.generate({
      secret: OTPAuth.Secret.fromBase32(secret),
      timestamp: Date.now() + steps * 30_000,
    });

  it('an aal1 token of an account with a verified factor gets 403 on user operations', async () => {
    await signUp('mfa@example.com');
    const first = await signIn('mfa@example.com');
    await register('mfa@example.com', first.token);
    expect((await profile(first.token)).status).toBe(200);

    const enrolled = await first.client.auth.mfa.enroll({ factorType: 'totp' });
    if (enrolled.error) throw enrolled.error;
    factorId = enrolled.data.id;
    secret = enrolled.data.totp.secret;
    const verified = await first.client.auth.mfa.challengeAndVerify({ factorId, code: totp() });
    expect(verified.error).toBeNull();
    const aal2Token = verified.data?.access_token ?? '';

    // The same session's earlier aal1 token: the factor is verified now (no waiting for a cache).
    const stale = await profile(first.token);
    expect(stale.status).toBe(403);
    expect(stale.body.error).toMatchObject({
      code: 'FORBIDDEN',
      message: expect.stringMatching(/complete two-factor sign-in/i),
      requestId: expect.any(String),
    });
    expect((await profile(aal2Token)).status).toBe(200);

    const second = await signIn('mfa@example.com');
    expect((await profile(second.token)).status).toBe(403);
    expect((await hubToken(second.token)).status).toBe(403);
    const sync = await call(server, '/api/sync?endpoint=pull', { token: second.token });
    expect(sync.status).toBe(403);
    // Public operations still answer (the app reads its config before the code step).
    const config = await call(server, '/api/config?endpoint=get-public-config', {
      token: second.token,
    });
    expect(config.status).toBe(200);

    const upgraded = await second.client.auth.mfa.challengeAndVerify({
      factorId,
      code: totp(1),
    });
    expect(upgraded.error).toBeNull();
    expect((await profile(upgraded.data?.access_token ?? '')).status).toBe(200);
    expect((await hubToken(upgraded.data?.access_token ?? '')).status).toBe(200);

    // Unenrolled (from an aal2 session): aal1 tokens read again at once.
    const removed = await second.client.auth.mfa.unenroll({ factorId });
    expect(removed.error).toBeNull();
    const third = await signIn('mfa@example.com');
    expect((await profile(third.token)).status).toBe(200);
  });
});
