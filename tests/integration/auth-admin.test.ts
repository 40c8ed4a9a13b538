/**
 * The admin API through supabase-js's `auth.admin`, with the service-role key made as
 * scripts/auth-service-role-key.mjs makes it: users (list with paging, get, create, update incl.
 * ban and email confirmation, delete, soft delete), invitations, generated links, MFA factors,
 * sign-out of a user. Bad credentials and bad input get GoTrue's errors and change nothing.
 */
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import * as OTPAuth from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createAuthTestServer,
  SITE_URL,
  TEST_PASSWORD,
  type AuthTestServer,
} from '../fixtures/create-auth-test-server.ts';

let t: AuthTestServer;
let serviceKey: string;
let foreign: { privateKey: CryptoKey; jwk: Record<string, unknown> };

beforeAll(async () => {
  const pair = await generateKeyPair('RS256', { extractable: true });
  foreign = {
    privateKey: pair.privateKey,
    jwk: { ...(await exportJWK(pair.publicKey)), kid: 'ops-1' },
  };
  t = await createAuthTestServer({ config: { adminJwtKeys: [foreign.jwk] } });
  serviceKey = await t.createServiceRoleKey();
});

afterAll(async () => {
  await t.cleanup();
});

const admin = () => t.createKeyedClient(serviceKey).auth.admin;

async function raw(
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await t.fetch(`${SITE_URL}/auth/v1${path}`, {
    method,
    headers: { 'Content-Type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function userCount(): Promise<number> {
  const { rows } = await t.db.query<{ n: string }>('SELECT count(*)::text AS n FROM auth_user');
  return Number(rows[0]?.n);
}

async function signIn(email: string, password = TEST_PASSWORD) {
  return t.createClient().auth.signInWithPassword({ email, password });
}

describe('credentials', () => {
  it('the anon key is not an admin: 403 not_admin, nothing created', async () => {
    const before = await userCount();
    const answer = await raw(
      'POST',
      '/admin/users',
      { apikey: t.anonKey, Authorization: `Bearer ${t.anonKey}` },
      { email: 'anon-made@example.com', password: TEST_PASSWORD },
    );
    expect(answer.status).toBe(403);
    expect(answer.body).toMatchObject({ code: 'not_admin', message: 'User not allowed' });
    expect(await userCount()).toBe(before);
  });

  it('without a bearer token: 401 no_authorization before the body is read', async () => {
    const answer = await raw('POST', '/admin/users', { apikey: t.anonKey }, 'not json');
    expect(answer.status).toBe(401);
    expect(answer.body.code).toBe('no_authorization');
  });

  it('a user access token is not an admin', async () => {
    await t.registerUser('plain-user@example.com');
    const { data } = await signIn('plain-user@example.com');
    const answer = await raw('GET', '/admin/users', {
      apikey: t.anonKey,
      Authorization: `Bearer ${data.session?.access_token ?? ''}`,
    });
    expect(answer.status).toBe(403);
    expect(answer.body.code).toBe('not_admin');
  });

  it('a forged service-role token is refused as apikey (401) and as bearer (403 bad_jwt)', async () => {
    const pair = await generateKeyPair('ES256');
    const forged = await new SignJWT({ role: 'service_role' })
      .setProtectedHeader({ alg: 'ES256', kid: 'someone-else' })
      .setIssuer(`${SITE_URL}/auth/v1`)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(pair.privateKey);
    const asKey = await raw('GET', '/admin/users', {
      apikey: forged,
      Authorization: `Bearer ${forged}`,
    });
    expect(asKey.status).toBe(401);
    expect(asKey.body.code).toBe('invalid_api_key');
    const asBearer = await raw('GET', '/admin/users', {
      apikey: t.anonKey,
      Authorization: `Bearer ${forged}`,
    });
    expect(asBearer.status).toBe(403);
    expect(asBearer.body.code).toBe('bad_jwt');
  });

  it('an expired or a replaced service-role key is refused', async () => {
    const expired = await t.createServiceRoleKey({
      now: new Date(Date.now() - 11 * 365 * 24 * 3600_000),
      keep: true,
    });
    const expiredAnswer = await raw('GET', '/admin/users', {
      apikey: t.anonKey,
      Authorization: `Bearer ${expired}`,
    });
    expect(expiredAnswer.status).toBe(403);
    expect(String(expiredAnswer.body.message)).toMatch(/^invalid JWT: .*expired/);

    const old = serviceKey;
    serviceKey = await t.createServiceRoleKey();
    const oldAnswer = await raw('GET', '/admin/users', {
      apikey: t.anonKey,
      Authorization: `Bearer ${old}`,
    });
    expect(oldAnswer.status).toBe(403);
    expect(oldAnswer.body.code).toBe('bad_jwt');
    expect((await admin().listUsers()).error).toBeNull();
  });

  it('the service-role key is never a user: /api refuses it, /user too', async () => {
    await expect(t.auth.verifyAccessToken(serviceKey)).rejects.toThrow();
    const answer = await raw('GET', '/user', {
      apikey: t.anonKey,
      Authorization: `Bearer ${serviceKey}`,
    });
    expect(answer.status).toBe(403);
    expect(answer.body.code).toBe('bad_jwt');
  });

  it("an operator key's admin token works; without exp it is refused", async () => {
    const sign = (withExp: boolean) => {
      const jwt = new SignJWT({ role: 'service_role' })
        .setProtectedHeader({ alg: 'RS256', kid: 'ops-1' })
        .setIssuedAt();
      return (withExp ? jwt.setExpirationTime('1h') : jwt).sign(foreign.privateKey);
    };
    const token = await sign(true);
    expect((await t.createKeyedClient(token).auth.admin.listUsers()).error).toBeNull();
    const noExp = await raw('GET', '/admin/users', {
      apikey: t.anonKey,
      Authorization: `Bearer ${await sign(false)}`,
    });
    expect(noExp.status).toBe(403);
    expect(noExp.body.code).toBe('bad_jwt');
  });
});

describe('users', () => {
  it('creates with metadata as given; an existing address is 422 email_exists, nothing created', async () => {
    const { data, error } = await admin().createUser({
      email: 'Created@Example.com',
      password: TEST_PASSWORD,
      email_confirm: true,
      user_metadata: { name: 'Created' },
      app_metadata: { roles: ['editor'] },
    });
    expect(error).toBeNull();
    expect(data.user?.email).toBe('created@example.com');
    expect(data.user?.user_metadata).toEqual({ name: 'Created' });
    expect(data.user?.app_metadata).toMatchObject({ provider: 'email', roles: ['editor'] });
    expect(data.user?.email_confirmed_at).toBeTruthy();
    expect((await signIn('created@example.com')).error).toBeNull();

    const before = await userCount();
    const again = await admin().createUser({
      email: 'created@example.com',
      password: TEST_PASSWORD,
    });
    expect(again.error?.status).toBe(422);
    expect(again.error?.code).toBe('email_exists');
    const invalid = await admin().createUser({ email: 'xx:;x@x.x', password: TEST_PASSWORD });
    expect(invalid.error?.message).toBe('Unable to validate email address: invalid format');
    expect(await userCount()).toBe(before);
  });

  it('lists with paging (Link and X-Total-Count); a bad page is an error', async () => {
    for (const n of [1, 2, 3]) {
      await admin().createUser({ email: `page-${n}@example.com`, password: TEST_PASSWORD });
    }
    const total = await userCount();
    const first = await admin().listUsers({ page: 1, perPage: 2 });
    expect(first.error).toBeNull();
    expect(first.data.users).toHaveLength(2);
    expect(first.data).toMatchObject({ aud: 'authenticated', total, nextPage: 2 });
    const last = await admin().listUsers({ page: Math.ceil(total / 2), perPage: 2 });
    expect(last.data.users.length).toBeGreaterThan(0);
    const bad = await admin().listUsers({ page: -1, perPage: 10 });
    expect(bad.error?.status).toBe(400);
    expect(bad.data.users).toEqual([]);
  });

  it('gets by id; an unknown id is 404 user_not_found', async () => {
    const { data } = await admin().createUser({ email: 'get-me@example.com' });
    const found = await admin().getUserById(data.user?.id ?? '');
    expect(found.data.user?.email).toBe('get-me@example.com');
    const missing = await admin().getUserById('83fd9e20-7a80-46e4-bf29-a86e3d6bbf66');
    expect(missing.error?.status).toBe(404);
    expect(missing.error?.code).toBe('user_not_found');
  });

  it('updates email, metadata and confirmation', async () => {
    const { data } = await admin().createUser({
      email: 'update-me@example.com',
      password: TEST_PASSWORD,
      user_metadata: { a: 1, b: 2 },
    });
    const id = data.user?.id ?? '';
    expect(data.user?.email_confirmed_at).toBeFalsy();
    const updated = await admin().updateUserById(id, {
      email: 'updated@example.com',
      email_confirm: true,
      user_metadata: { b: null, c: 3 },
      app_metadata: { plan: 'pro' },
    });
    expect(updated.error).toBeNull();
    expect(updated.data.user?.email).toBe('updated@example.com');
    expect(updated.data.user?.email_confirmed_at).toBeTruthy();
    expect(updated.data.user?.user_metadata).toEqual({ a: 1, c: 3 });
    expect(updated.data.user?.app_metadata).toMatchObject({ plan: 'pro', provider: 'email' });
    expect(updated.data.user?.identities?.[0]?.identity_data?.email).toBe('updated@example.com');
    expect((await signIn('updated@example.com')).error).toBeNull();
  });

  it('bans (ending sessions), refuses a bad duration unchanged, and lifts with "none"', async () => {
    await t.registerUser('banned@example.com');
    const signedIn = await signIn('banned@example.com');
    const session = signedIn.data.session;
    const id = signedIn.data.user?.id ?? '';

    const bad = await admin().updateUserById(id, {
      ban_duration: 'forever',
      user_metadata: { x: 1 },
    });
    expect(bad.error?.status).toBe(400);
    expect(bad.error?.message).toMatch(/^invalid format for ban duration/);
    expect((await admin().getUserById(id)).data.user?.user_metadata).not.toHaveProperty('x');

    const banned = await admin().updateUserById(id, { ban_duration: '24h' });
    expect(banned.error).toBeNull();
    const until = Date.parse(String(banned.data.user?.banned_until));
    expect(until - Date.now()).toBeGreaterThan(23 * 3600_000);
    await expect(t.auth.verifyAccessToken(session?.access_token ?? '')).rejects.toThrow();
    expect((await signIn('banned@example.com')).error?.code).toBe('user_banned');

    const lifted = await admin().updateUserById(id, { ban_duration: 'none' });
    expect(lifted.data.user?.banned_until).toBeUndefined();
    expect((await signIn('banned@example.com')).error).toBeNull();
  });

  it('deletes: hard removes the account, soft keeps an anonymous row', async () => {
    await t.registerUser('hard@example.com');
    const hardId = (await signIn('hard@example.com')).data.user?.id ?? '';
    expect((await admin().deleteUser(hardId)).error).toBeNull();
    expect((await admin().getUserById(hardId)).error?.code).toBe('user_not_found');
    expect((await signIn('hard@example.com')).error?.code).toBe('invalid_credentials');

    await t.registerUser('soft@example.com');
    const soft = await signIn('soft@example.com');
    const softId = soft.data.user?.id ?? '';
    expect((await admin().deleteUser(softId, true)).error).toBeNull();
    const row = await admin().getUserById(softId);
    expect(row.data.user?.deleted_at).toBeTruthy();
    expect(row.data.user?.email).toBe('');
    expect(row.data.user?.identities).toEqual([]);
    await expect(t.auth.verifyAccessToken(soft.data.session?.access_token ?? '')).rejects.toThrow();
    expect((await signIn('soft@example.com')).error?.code).toBe('invalid_credentials');
    const listed = await admin().listUsers({ perPage: 1000 });
    expect(listed.data.users.map((u) => u.id)).not.toContain(softId);
    // The address is free again.
    expect((await admin().createUser({ email: 'soft@example.com' })).error).toBeNull();

    const missing = await admin().deleteUser('83fd9e20-7a80-46e4-bf29-a86e3d6bbf66');
    expect(missing.error?.status).toBe(404);
  });
});

describe('invitations and links', () => {
  it('invites: a user with invited_at and a mail whose link signs them in', async () => {
    const { data, error } = await admin().inviteUserByEmail('invited@example.com', {
      data: { team: 'a' },
      redirectTo: 'http://localhost:5173/welcome',
    });
    expect(error).toBeNull();
    expect(data.user?.invited_at).toBeTruthy();
    expect(data.user?.user_metadata).toEqual({ team: 'a' });
    const mail = await t.lastMailTo('invited@example.com');
    expect(mail.link).toContain('type=invite');
    const followed = await t.fetch(mail.link ?? '', { redirect: 'manual' });
    expect(followed.status).toBe(303);
    const location = followed.headers.get('location') ?? '';
    expect(location).toMatch(/^http:\/\/localhost:5173\/welcome#access_token=/);
    expect(location).toContain('type=invite');

    const again = await admin().inviteUserByEmail('invited@example.com');
    expect(again.error?.code).toBe('email_exists');
    const invalid = await admin().inviteUserByEmail('xx:;x@x.x');
    expect(invalid.error?.message).toBe('Unable to validate email address: invalid format');
  });

  it('generates signup, magic link, recovery and email change links that work, sending no mail', async () => {
    const mailsBefore = (await t.readMails()).length;
    const signup = await admin().generateLink({
      type: 'signup',
      email: 'generated@example.com',
      password: TEST_PASSWORD,
      options: { data: { status: 'alpha' } },
    });
    expect(signup.error).toBeNull();
    expect(signup.data.user?.user_metadata).toEqual({ status: 'alpha' });
    expect(signup.data.properties?.action_link).toMatch(/\/verify\?token=.*type=signup/);
    const confirmed = await t.fetch(signup.data.properties?.action_link ?? '', {
      redirect: 'manual',
    });
    expect(confirmed.headers.get('location')).toContain('#access_token=');

    const magic = await admin().generateLink({ type: 'magiclink', email: 'generated@example.com' });
    const verified = await t.createClient().auth.verifyOtp({
      token_hash: magic.data.properties?.hashed_token ?? '',
      type: 'magiclink',
    });
    expect(verified.error).toBeNull();

    const recovery = await admin().generateLink({
      type: 'recovery',
      email: 'generated@example.com',
    });
    const byCode = await t.createClient().auth.verifyOtp({
      email: 'generated@example.com',
      token: recovery.data.properties?.email_otp ?? '',
      type: 'recovery',
    });
    expect(byCode.error).toBeNull();

    const change = await admin().generateLink({
      type: 'email_change_current',
      email: 'generated@example.com',
      newEmail: 'generated-new@example.com',
    });
    expect(change.data.user?.new_email).toBe('generated-new@example.com');
    expect(change.data.properties?.action_link).toContain('type=email_change');
    await t.fetch(change.data.properties?.action_link ?? '', { redirect: 'manual' });
    expect((await signIn('generated-new@example.com')).error).toBeNull();

    const unknown = await admin().generateLink({ type: 'recovery', email: 'nobody@example.com' });
    expect(unknown.error?.status).toBe(404);
    const invalid = await admin().generateLink({
      type: 'signup',
      email: 'xx:;x@x.x',
      password: TEST_PASSWORD,
    });
    expect(invalid.error?.message).toBe('Unable to validate email address: invalid format');
    expect(invalid.data.properties).toBeNull();
    expect((await t.readMails()).length).toBe(mailsBefore);
  });
});

describe('factors and sign-out', () => {
  it("lists and deletes a user's factors", async () => {
    await t.registerUser('factors@example.com');
    const client = t.createClient();
    const { data: signedIn } = await client.auth.signInWithPassword({
      email: 'factors@example.com',
      password: TEST_PASSWORD,
    });
    const userId = signedIn.user?.id ?? '';
    const enrolled = await client.auth.mfa.enroll({ factorType: 'totp' });
    const secret = enrolled.data?.totp.secret ?? '';
    const code = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) }).generate();
    await client.auth.mfa.challengeAndVerify({ factorId: enrolled.data?.id ?? '', code });

    const listed = await admin().mfa.listFactors({ userId });
    expect(listed.error).toBeNull();
    expect(listed.data?.factors.map((f) => f.status)).toEqual(['verified']);
    const factorId = listed.data?.factors[0]?.id ?? '';
    const deleted = await admin().mfa.deleteFactor({ userId, id: factorId });
    expect(deleted.error).toBeNull();
    expect((await admin().mfa.listFactors({ userId })).data?.factors).toEqual([]);
    const again = await admin().mfa.deleteFactor({ userId, id: factorId });
    expect(again.error?.status).toBe(404);
    const noUser = await admin().mfa.listFactors({
      userId: '83fd9e20-7a80-46e4-bf29-a86e3d6bbf66',
    });
    expect(noUser.error?.status).toBe(404);
  });

  it("signs a user out with their access token; a bad token is 'invalid JWT'", async () => {
    await t.registerUser('signout@example.com');
    const { data } = await signIn('signout@example.com');
    const token = data.session?.access_token ?? '';
    expect((await admin().signOut(token)).error).toBeNull();
    await expect(t.auth.verifyAccessToken(token)).rejects.toThrow();
    const bad = await admin().signOut('this-is-a-bad-token');
    expect(bad.error?.message).toMatch(/^invalid JWT/);
  });

  it('admin features not offered answer as GoTrue with them off', async () => {
    const custom = await admin().customProviders.listProviders();
    expect(custom.error?.message).toBe('Custom OAuth providers are disabled');
  });
});
