/**
 * Conformance: tokens (protocols.md A7 items 4, 5, 9, 13): refresh rotation and the reuse window,
 * retry on 503, PKCE exchange rules, expired / tampered / foreign-signed access tokens on
 * /auth/v1 and on /api, getClaims against the JWKS, and signing keys that survive a restart.
 */
import { CompactSign, decodeJwt, exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpointRegistry } from '#contract/endpoint-registry.ts';
import { createAuthService } from '../../server/auth/create-auth-service.ts';
import { createLogger } from '../../server/logger.ts';
import {
  createAuthTestServer,
  SITE_URL,
  TEST_PASSWORD,
  type AuthTestServer,
} from '../fixtures/create-auth-test-server.ts';

let t: AuthTestServer;

beforeAll(async () => {
  t = await createAuthTestServer();
});

afterAll(async () => {
  await t.cleanup();
});

async function signedIn(email: string) {
  await t.registerUser(email);
  const client = t.createClient();
  const { data, error } = await client.auth.signInWithPassword({ email, password: TEST_PASSWORD });
  if (error || !data.session) throw error ?? new Error('no session');
  return { client, session: data.session };
}

async function rawRefresh(refreshToken: string): Promise<Response> {
  return t.fetch(`${SITE_URL}/auth/v1/token?grant_type=refresh_token`, {
    method: 'POST',
    headers: { apikey: t.anonKey, 'Content-Type': 'application/json' },
    body: JSON.stringify({ refresh_token: refreshToken }),
  });
}

describe('refresh-token rotation', () => {
  it('rotates, gives the active token to a reused parent inside the window, revokes after it', async () => {
    const { client, session } = await signedIn('rotation@example.com');
    const rt0 = session.refresh_token;
    const first = await client.auth.refreshSession();
    const rt1 = first.data.session?.refresh_token ?? '';
    expect(first.error).toBeNull();
    expect(rt1).not.toBe(rt0);

    // A second tab still holding rt0 gets the active session, not an error.
    const tab2 = t.createClient();
    const reused = await tab2.auth.refreshSession({ refresh_token: rt0 });
    expect(reused.error).toBeNull();
    expect(reused.data.session?.refresh_token).toBe(rt1);

    const second = await client.auth.refreshSession();
    const rt2 = second.data.session?.refresh_token ?? '';
    expect(rt2).not.toBe(rt1);
    // Two generations back, still inside the window: the chain leads to the active token.
    expect(
      ((await (await rawRefresh(rt0)).json()) as { refresh_token: string }).refresh_token,
    ).toBe(rt2);

    t.clock.advance(11_000);
    const late = await t.createClient().auth.refreshSession({ refresh_token: rt0 });
    expect(late.error).toMatchObject({ status: 400, code: 'refresh_token_already_used' });
    // The whole family is gone: the active token and the session's access token too.
    const after = await rawRefresh(rt2);
    expect(after.status).toBe(400);
    expect(((await after.json()) as { code: string }).code).toBe('refresh_token_not_found');
    expect((await client.auth.getUser()).error?.name).toBe('AuthSessionMissingError');
  });

  it('two concurrent refreshes with one token both succeed with the same new token', async () => {
    const { session } = await signedIn('concurrent@example.com');
    const [a, b] = await Promise.all([
      rawRefresh(session.refresh_token),
      rawRefresh(session.refresh_token),
    ]);
    const bodyA = (await a.json()) as { refresh_token: string };
    const bodyB = (await b.json()) as { refresh_token: string };
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(bodyA.refresh_token).toBe(bodyB.refresh_token);
  });

  it('unknown and malformed refresh tokens', async () => {
    const unknown = await t.createClient().auth.refreshSession({ refresh_token: 'x'.repeat(43) });
    expect(unknown.error).toMatchObject({ status: 400, code: 'refresh_token_not_found' });
    const short = await rawRefresh('short');
    expect(short.status).toBe(400);
    expect(((await short.json()) as { code: string }).code).toBe('validation_failed');
  });

  it('the client retries a refresh answered with 503 and keeps the session', async () => {
    const { session } = await signedIn('retry@example.com');
    let refreshCalls = 0;
    const flaky: typeof fetch = (input, init) => {
      if (
        String(input instanceof Request ? input.url : input).includes('grant_type=refresh_token')
      ) {
        refreshCalls += 1;
        if (refreshCalls <= 2) return Promise.resolve(new Response('busy', { status: 503 }));
      }
      return t.fetch(input, init);
    };
    const client = t.createClient({ fetch: flaky });
    await client.auth.setSession({
      access_token: session.access_token,
      refresh_token: session.refresh_token,
    });
    const { data, error } = await client.auth.refreshSession();
    expect(error).toBeNull();
    expect(refreshCalls).toBe(3);
    expect(data.session?.refresh_token).not.toBe(session.refresh_token);
  });
});

describe('PKCE', () => {
  it('sign-up link answers ?code=, exchanged once; a wrong verifier or a second use fails', async () => {
    const store = new Map<string, string>();
    const client = t.createClient({ flowType: 'pkce', store });
    await client.auth.signUp({
      email: 'pkce@example.com',
      password: TEST_PASSWORD,
      options: { emailRedirectTo: `${SITE_URL}/auth/confirm-registration` },
    });
    const stored = [...store.entries()].find(([key]) => key.endsWith('-code-verifier'))?.[1];
    const verifier = JSON.parse(stored ?? 'null') as string | null;
    expect(verifier).toMatch(/^[0-9a-f]{112}$/);
    const mail = await t.lastMailTo('pkce@example.com');
    const response = await t.fetch(mail.link ?? '', { redirect: 'manual' });
    const code = new URL(response.headers.get('location') ?? '').searchParams.get('code') ?? '';

    const exchange = (codeVerifier: string) =>
      t.fetch(`${SITE_URL}/auth/v1/token?grant_type=pkce`, {
        method: 'POST',
        headers: { apikey: t.anonKey, 'Content-Type': 'application/json' },
        body: JSON.stringify({ auth_code: code, code_verifier: codeVerifier }),
      });
    const wrong = await exchange('f'.repeat(112));
    expect(wrong.status).toBe(400);
    expect(((await wrong.json()) as { code: string }).code).toBe('bad_code_verifier');

    const { data, error } = await client.auth.exchangeCodeForSession(code);
    expect(error).toBeNull();
    expect(data.session?.user.email_confirmed_at).toBeTruthy();
    const amr = decodeJwt(data.session?.access_token ?? '').amr as { method: string }[];
    expect(amr[0]?.method).toBe('email/signup');

    const second = await exchange(verifier ?? '');
    expect(second.status).toBe(404);
    expect(((await second.json()) as { code: string }).code).toBe('flow_state_not_found');
  });

  it('an unexchanged code expires after 5 minutes', async () => {
    await t.registerUser('pkce-late@example.com');
    const store = new Map<string, string>();
    const client = t.createClient({ flowType: 'pkce', store });
    await client.auth.signInWithOtp({ email: 'pkce-late@example.com' });
    const response = await t.fetch((await t.lastMailTo('pkce-late@example.com')).link ?? '', {
      redirect: 'manual',
    });
    const code = new URL(response.headers.get('location') ?? '').searchParams.get('code') ?? '';
    t.clock.advance(6 * 60_000);
    const { error } = await client.auth.exchangeCodeForSession(code);
    expect(error).toMatchObject({ status: 422, code: 'flow_state_expired' });
  });
});

describe('access tokens', () => {
  const userEndpoint = endpointRegistry.find((e) => e.auth === 'user' && e.method === 'GET');

  async function apiCall(token: string) {
    if (!userEndpoint) throw new Error('the contract has no user GET endpoint');
    const response = await t.fetch(
      `${SITE_URL}/api/${userEndpoint.resource}?endpoint=${userEndpoint.operation}`,
      { headers: { Authorization: `Bearer ${token}` } },
    );
    return {
      status: response.status,
      body: (await response.json()) as { error?: { code: string; message: string } },
    };
  }

  it('carry the GoTrue claims and verify on /api', async () => {
    const { session } = await signedIn('claims@example.com');
    const header = JSON.parse(
      Buffer.from(session.access_token.split('.')[0] ?? '', 'base64url').toString(),
    ) as Record<string, unknown>;
    expect(header).toMatchObject({ alg: 'ES256', typ: 'JWT' });
    expect(header.kid).toBe(t.auth.jwks.keys[0]?.kid);
    const claims = decodeJwt(session.access_token);
    expect(claims).toMatchObject({
      iss: `${SITE_URL}/auth/v1`,
      sub: session.user.id,
      aud: 'authenticated',
      email: 'claims@example.com',
      phone: '',
      role: 'authenticated',
      aal: 'aal1',
      is_anonymous: false,
      app_metadata: { provider: 'email', providers: ['email'] },
    });
    expect(typeof claims.session_id).toBe('string');
    expect((claims.exp ?? 0) - (claims.iat ?? 0)).toBe(3600);
    const identity = await t.auth.verifyAccessToken(session.access_token);
    expect(identity).toMatchObject({
      userId: session.user.id,
      email: 'claims@example.com',
      role: 'authenticated',
      aal: 'aal1',
    });
    const anon = await t.auth.verifyAccessToken(t.anonKey).catch((error: unknown) => error);
    expect(anon).toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('tampered, foreign-signed and expired tokens are refused on /auth/v1 and /api', async () => {
    const { session } = await signedIn('tamper@example.com');
    const [head, payload, signature] = session.access_token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<
      string,
      unknown
    >;
    const forged = `${head}.${Buffer.from(JSON.stringify({ ...claims, role: 'service_role' })).toString('base64url')}.${signature}`;

    const client = t.createClient();
    const tampered = await client.auth.getUser(forged);
    expect(tampered.error).toMatchObject({
      status: 403,
      code: 'bad_jwt',
      message: 'Invalid JWT signature',
    });
    expect(await apiCall(forged)).toMatchObject({
      status: 401,
      body: { error: { code: 'UNAUTHORIZED', message: 'Invalid JWT signature' } },
    });

    // Same claims and kid, another key.
    const other = await generateKeyPair('ES256');
    const foreign = await new SignJWT(claims)
      .setProtectedHeader({
        alg: 'ES256',
        kid: String(JSON.parse(Buffer.from(head, 'base64url').toString()).kid),
        typ: 'JWT',
      })
      .sign(other.privateKey);
    expect((await apiCall(foreign)).body.error?.message).toBe('Invalid JWT signature');
    // alg none / HS256 confusion attempts never verify.
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${payload}.`;
    expect((await apiCall(none)).status).toBe(401);
    const hs = await new CompactSign(new TextEncoder().encode(JSON.stringify(claims)))
      .setProtectedHeader({ alg: 'HS256' })
      .sign(new TextEncoder().encode(JSON.stringify(await exportJWK(other.publicKey))));
    expect((await apiCall(hs)).status).toBe(401);

    t.clock.advance(2 * 3600_000);
    const expired = await client.auth.getUser(session.access_token);
    expect(expired.error).toMatchObject({ status: 403, code: 'bad_jwt' });
    expect(await apiCall(session.access_token)).toMatchObject({
      status: 401,
      body: { error: { code: 'UNAUTHORIZED', message: 'Invalid JWT: token has expired' } },
    });
  });

  it('getClaims verifies locally with one JWKS fetch and no /user call', async () => {
    const { session } = await signedIn('getclaims@example.com');
    const seen: string[] = [];
    const client = t.createClient({
      fetch: (input, init) => {
        seen.push(new URL(String(input instanceof Request ? input.url : input)).pathname);
        return t.fetch(input, init);
      },
    });
    await client.auth.setSession({
      access_token: session.access_token,
      refresh_token: session.refresh_token,
    });
    seen.length = 0;
    const first = await client.auth.getClaims();
    const second = await client.auth.getClaims();
    expect(first.error).toBeNull();
    expect(second.data?.claims.sub).toBe(session.user.id);
    expect(seen).toEqual(['/auth/v1/.well-known/jwks.json']);
  });

  it('keys and the anon key survive a restart of the service on the same database', async () => {
    const { session } = await signedIn('restart@example.com');
    const again = await createAuthService({
      db: t.db,
      logger: createLogger({ level: 'silent' }),
      mailer: { send: () => Promise.resolve() },
      sms: { send: () => Promise.resolve() },
      config: {
        siteUrl: SITE_URL,
        autoconfirm: false,
        jwtExpirySeconds: 3600,
        mfaIssuer: 'x',
        additionalRedirectUrls: [],
        captcha: null,
        google: null,
        logMailLinks: false,
      },
      now: t.clock.now,
      argon2Options: { memoryCost: 1024, timeCost: 1, parallelism: 1 },
    });
    expect(again.anonKey).toBe(t.anonKey);
    expect(again.jwks).toEqual(t.auth.jwks);
    expect((await again.verifyAccessToken(session.access_token)).userId).toBe(session.user.id);
    expect(decodeJwt(t.anonKey)).toMatchObject({ role: 'anon', iss: `${SITE_URL}/auth/v1` });
  });
});
