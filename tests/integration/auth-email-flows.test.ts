/**
 * Conformance: the unmodified supabase-js against the embedded auth service, for the email
 * flows (protocols.md A7 items 1-3, 6-9): sign-up with confirmation from the mail outbox, password
 * sign-in and its errors, verifyOtp by code and by hash, resend, magic link, recovery (implicit
 * and PKCE), updateUser (metadata, password, secure email change), sign-out scopes.
 */
import type { AuthChangeEvent } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createAuthTestServer,
  fragmentParams,
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

async function follow(link: string): Promise<Response> {
  return t.fetch(link, { redirect: 'manual' });
}

describe('sign-up with email confirmation', () => {
  it('returns the bare user without a session, mails a link that confirms and signs in', async () => {
    const client = t.createClient();
    const { data, error } = await client.auth.signUp({
      email: 'Ada@Example.com',
      password: TEST_PASSWORD,
      options: { data: { display_name: 'Ada' }, emailRedirectTo: 'http://localhost:5173/welcome' },
    });
    expect(error).toBeNull();
    expect(data.session).toBeNull();
    expect(data.user).toMatchObject({
      email: 'ada@example.com',
      aud: 'authenticated',
      role: 'authenticated',
      user_metadata: { display_name: 'Ada', email_verified: false },
      app_metadata: { provider: 'email', providers: ['email'] },
    });
    expect(data.user?.email_confirmed_at).toBeUndefined();
    expect(data.user?.identities).toHaveLength(1);

    const mail = await t.lastMailTo('ada@example.com');
    expect(mail.subject).toBe('Confirm your signup');
    expect(mail.otp).toMatch(/^\d{6}$/);
    const link = new URL(mail.link ?? '');
    expect(link.pathname).toBe('/auth/v1/verify');
    expect(link.searchParams.get('type')).toBe('signup');
    expect(link.searchParams.get('redirect_to')).toBe('http://localhost:5173/welcome');

    const response = await follow(link.toString());
    expect(response.status).toBe(303);
    const location = response.headers.get('location') ?? '';
    expect(location.startsWith('http://localhost:5173/welcome#')).toBe(true);
    const params = fragmentParams(location);
    expect(params).toMatchObject({
      token_type: 'bearer',
      type: 'signup',
      expires_in: '3600',
      sb: '',
    });
    // Keys sorted as GoTrue's url.Values.Encode() writes them.
    expect(Object.keys(params)).toEqual([...Object.keys(params)].sort());

    const { data: set, error: setError } = await client.auth.setSession({
      access_token: params.access_token ?? '',
      refresh_token: params.refresh_token ?? '',
    });
    expect(setError).toBeNull();
    expect(set.user?.email_confirmed_at).toBeTruthy();
    const { data: me } = await client.auth.getUser();
    expect(me.user?.user_metadata).toMatchObject({ display_name: 'Ada', email_verified: true });

    // The link is single-use: a second click lands on the error redirect.
    const again = await follow(link.toString());
    expect(fragmentParams(again.headers.get('location') ?? '')).toMatchObject({
      error: 'access_denied',
      error_code: 'otp_expired',
    });
  });

  it('redirects only to allowed targets', async () => {
    const client = t.createClient();
    await client.auth.signUp({
      email: 'mallory-target@example.com',
      password: TEST_PASSWORD,
      options: { emailRedirectTo: 'https://evil.example/steal' },
    });
    const mail = await t.lastMailTo('mallory-target@example.com');
    const response = await follow(mail.link ?? '');
    expect(response.headers.get('location')?.startsWith(`${SITE_URL}/#access_token=`)).toBe(true);
  });

  it('confirms with the 6-digit code (verifyOtp type email) and with the token hash', async () => {
    const client = t.createClient();
    await client.auth.signUp({ email: 'grace@example.com', password: TEST_PASSWORD });
    const mail = await t.lastMailTo('grace@example.com');
    const wrong = await client.auth.verifyOtp({
      email: 'grace@example.com',
      token: mail.otp === '000000' ? '111111' : '000000',
      type: 'email',
    });
    expect(wrong.error).toMatchObject({ status: 403, code: 'otp_expired' });
    const { data, error } = await client.auth.verifyOtp({
      email: 'grace@example.com',
      token: mail.otp ?? '',
      type: 'email',
    });
    expect(error).toBeNull();
    expect(data.session?.user.email_confirmed_at).toBeTruthy();

    const other = t.createClient();
    await other.auth.signUp({ email: 'linus@example.com', password: TEST_PASSWORD });
    const token = new URL((await t.lastMailTo('linus@example.com')).link ?? '').searchParams.get(
      'token',
    );
    const byHash = await other.auth.verifyOtp({ token_hash: token ?? '', type: 'signup' });
    expect(byHash.error).toBeNull();
    expect(byHash.data.session?.access_token).toBeTruthy();
  });

  it('answers a registered address with an obfuscated user (no enumeration)', async () => {
    await t.registerUser('taken@example.com');
    const { data, error } = await t
      .createClient()
      .auth.signUp({ email: 'taken@example.com', password: 'another-pass-42' });
    expect(error).toBeNull();
    expect(data.user?.identities).toEqual([]);
    expect(data.session).toBeNull();
  });

  it('rejects short and common passwords as weak_password with reasons', async () => {
    const client = t.createClient();
    const short = await client.auth.signUp({ email: 'weak@example.com', password: 'q7#zv' });
    expect(short.error).toMatchObject({ status: 422, code: 'weak_password', reasons: ['length'] });
    // Every reason at once, as GoTrue reports them: short and common.
    const both = await client.auth.signUp({ email: 'weak@example.com', password: 'abc12' });
    expect(both.error).toMatchObject({ reasons: ['length', 'pwned'] });
    const common = await client.auth.signUp({ email: 'weak@example.com', password: 'password1' });
    expect(common.error).toMatchObject({ status: 422, code: 'weak_password', reasons: ['pwned'] });
  });

  it('resends the confirmation, replacing the previous link', async () => {
    const client = t.createClient();
    await client.auth.signUp({ email: 'resend@example.com', password: TEST_PASSWORD });
    const first = await t.lastMailTo('resend@example.com');
    const { error } = await client.auth.resend({ type: 'signup', email: 'resend@example.com' });
    expect(error).toBeNull();
    const second = await t.lastMailTo('resend@example.com');
    expect(second.file).not.toBe(first.file);
    const stale = await follow(first.link ?? '');
    expect(fragmentParams(stale.headers.get('location') ?? '').error_code).toBe('otp_expired');
    const fresh = await follow(second.link ?? '');
    expect(fragmentParams(fresh.headers.get('location') ?? '').access_token).toBeTruthy();
  });
});

describe('password sign-in', () => {
  it('signs in and returns the session with aal1 and the password amr', async () => {
    await t.registerUser('alan@example.com');
    const client = t.createClient();
    const { data, error } = await client.auth.signInWithPassword({
      email: 'alan@example.com',
      password: TEST_PASSWORD,
    });
    expect(error).toBeNull();
    expect(data.session?.token_type).toBe('bearer');
    expect(data.session?.expires_in).toBe(3600);
    const aal = await client.auth.mfa.getAuthenticatorAssuranceLevel();
    expect(aal.data).toMatchObject({ currentLevel: 'aal1', nextLevel: 'aal1' });
    expect(aal.data?.currentAuthenticationMethods[0]).toMatchObject({ method: 'password' });
  });

  it('answers a wrong password or unknown account with invalid_credentials (400)', async () => {
    await t.registerUser('barbara@example.com');
    const client = t.createClient();
    const wrong = await client.auth.signInWithPassword({
      email: 'barbara@example.com',
      password: 'not-the-password',
    });
    expect(wrong.error).toMatchObject({ status: 400, code: 'invalid_credentials' });
    expect(wrong.error?.message).toBe('Invalid login credentials');
    const unknown = await client.auth.signInWithPassword({
      email: 'nobody@example.com',
      password: TEST_PASSWORD,
    });
    expect(unknown.error).toMatchObject({ status: 400, code: 'invalid_credentials' });
  });

  it('refuses an unconfirmed address with email_not_confirmed', async () => {
    const client = t.createClient();
    await client.auth.signUp({ email: 'pending@example.com', password: TEST_PASSWORD });
    const { error } = await client.auth.signInWithPassword({
      email: 'pending@example.com',
      password: TEST_PASSWORD,
    });
    expect(error).toMatchObject({ status: 400, code: 'email_not_confirmed' });
  });
});

describe('magic link and recovery', () => {
  it('signs in with a magic link (signInWithOtp) for a confirmed account', async () => {
    await t.registerUser('magic@example.com');
    const client = t.createClient();
    const { error } = await client.auth.signInWithOtp({ email: 'magic@example.com' });
    expect(error).toBeNull();
    const mail = await t.lastMailTo('magic@example.com');
    expect(new URL(mail.link ?? '').searchParams.get('type')).toBe('magiclink');
    const { data } = await client.auth.verifyOtp({
      email: 'magic@example.com',
      token: mail.otp ?? '',
      type: 'email',
    });
    expect(data.session?.user.email).toBe('magic@example.com');
  });

  it('recovers a password: mail, PASSWORD_RECOVERY, new password works', async () => {
    await t.registerUser('forgetful@example.com');
    const client = t.createClient();
    const events: AuthChangeEvent[] = [];
    client.auth.onAuthStateChange((event) => {
      events.push(event);
    });
    const { error } = await client.auth.resetPasswordForEmail('forgetful@example.com', {
      redirectTo: `${SITE_URL}/reset-password`,
    });
    expect(error).toBeNull();
    // Unknown addresses get the same answer.
    expect((await client.auth.resetPasswordForEmail('ghost@example.com')).error).toBeNull();

    const mail = await t.lastMailTo('forgetful@example.com');
    const link = new URL(mail.link ?? '');
    expect(link.searchParams.get('type')).toBe('recovery');
    const { error: verifyError } = await client.auth.verifyOtp({
      token_hash: link.searchParams.get('token') ?? '',
      type: 'recovery',
    });
    expect(verifyError).toBeNull();
    expect(events).toContain('PASSWORD_RECOVERY');
    const updated = await client.auth.updateUser({ password: 'brand-new-secret-77' });
    expect(updated.error).toBeNull();
    const fresh = t.createClient();
    expect(
      (
        await fresh.auth.signInWithPassword({
          email: 'forgetful@example.com',
          password: TEST_PASSWORD,
        })
      ).error?.code,
    ).toBe('invalid_credentials');
    expect(
      (
        await fresh.auth.signInWithPassword({
          email: 'forgetful@example.com',
          password: 'brand-new-secret-77',
        })
      ).error,
    ).toBeNull();
  });

  it('recovery link in the browser redirects with type=recovery in the fragment', async () => {
    await t.registerUser('linkreset@example.com');
    await t.createClient().auth.resetPasswordForEmail('linkreset@example.com', {
      redirectTo: `${SITE_URL}/reset-password`,
    });
    const response = await follow((await t.lastMailTo('linkreset@example.com')).link ?? '');
    const location = response.headers.get('location') ?? '';
    expect(location.startsWith(`${SITE_URL}/reset-password#`)).toBe(true);
    expect(fragmentParams(location)).toMatchObject({ type: 'recovery', token_type: 'bearer' });
  });

  it('PKCE recovery: ?code= in the redirect, exchange fires PASSWORD_RECOVERY', async () => {
    await t.registerUser('pkce-reset@example.com');
    const client = t.createClient({ flowType: 'pkce' });
    const events: AuthChangeEvent[] = [];
    client.auth.onAuthStateChange((event) => {
      events.push(event);
    });
    await client.auth.resetPasswordForEmail('pkce-reset@example.com', {
      redirectTo: `${SITE_URL}/reset-password`,
    });
    const mail = await t.lastMailTo('pkce-reset@example.com');
    expect(new URL(mail.link ?? '').searchParams.get('token')?.startsWith('pkce_')).toBe(true);
    const response = await follow(mail.link ?? '');
    const location = new URL(response.headers.get('location') ?? '');
    expect(location.pathname).toBe('/reset-password');
    const code = location.searchParams.get('code') ?? '';
    expect(code).not.toBe('');
    const { data, error } = await client.auth.exchangeCodeForSession(code);
    expect(error).toBeNull();
    expect(data.session?.user.email).toBe('pkce-reset@example.com');
    expect(events).toContain('PASSWORD_RECOVERY');
  });
});

describe('the signed-in user', () => {
  it('getUser and updateUser(data) with USER_UPDATED', async () => {
    await t.registerUser('meta@example.com');
    const client = t.createClient();
    await client.auth.signInWithPassword({ email: 'meta@example.com', password: TEST_PASSWORD });
    const events: AuthChangeEvent[] = [];
    client.auth.onAuthStateChange((event) => {
      events.push(event);
    });
    const { data, error } = await client.auth.updateUser({
      data: { display_name: 'Meta', theme: 'dark' },
    });
    expect(error).toBeNull();
    expect(data.user?.user_metadata).toMatchObject({ display_name: 'Meta', theme: 'dark' });
    expect(events).toContain('USER_UPDATED');
    // A null removes the key.
    await client.auth.updateUser({ data: { theme: null } });
    const { data: me } = await client.auth.getUser();
    expect(me.user?.user_metadata.theme).toBeUndefined();
    expect(me.user?.user_metadata.display_name).toBe('Meta');
  });

  it('changing the password refuses the same one and signs other sessions out', async () => {
    await t.registerUser('rotate@example.com');
    const phone = t.createClient();
    const laptop = t.createClient();
    await phone.auth.signInWithPassword({ email: 'rotate@example.com', password: TEST_PASSWORD });
    await laptop.auth.signInWithPassword({ email: 'rotate@example.com', password: TEST_PASSWORD });
    const same = await laptop.auth.updateUser({ password: TEST_PASSWORD });
    expect(same.error).toMatchObject({ status: 422, code: 'same_password' });
    const weak = await laptop.auth.updateUser({ password: 'qwerty123' });
    expect(weak.error?.code).toBe('weak_password');
    expect((await laptop.auth.updateUser({ password: 'rotated-secret-88' })).error).toBeNull();
    // session_not_found surfaces as AuthSessionMissingError (and the client drops the session).
    const { error } = await phone.auth.getUser();
    expect(error?.name).toBe('AuthSessionMissingError');
    expect((await laptop.auth.getUser()).error).toBeNull();
  });

  it('secure email change: both addresses confirm, then the address changes', async () => {
    await t.registerUser('old@example.com');
    const client = t.createClient();
    await client.auth.signInWithPassword({ email: 'old@example.com', password: TEST_PASSWORD });
    const taken = await client.auth.updateUser({ email: 'taken@example.com' });
    expect(taken.error).toMatchObject({ status: 422, code: 'email_exists' });

    const { data, error } = await client.auth.updateUser({ email: 'new@example.com' });
    expect(error).toBeNull();
    expect(data.user).toMatchObject({ email: 'old@example.com', new_email: 'new@example.com' });
    const toNew = await t.lastMailTo('new@example.com');
    const toOld = await t.lastMailTo('old@example.com');
    expect(toOld.subject).toBe('Confirm email change');

    const first = await follow(toOld.link ?? '');
    expect(fragmentParams(first.headers.get('location') ?? '').message).toMatch(
      /Confirmation link accepted/,
    );
    const second = await client.auth.verifyOtp({
      email: 'new@example.com',
      token: toNew.otp ?? '',
      type: 'email_change',
    });
    expect(second.error).toBeNull();
    expect(second.data.user?.email).toBe('new@example.com');
    const signIn = await t
      .createClient()
      .auth.signInWithPassword({ email: 'new@example.com', password: TEST_PASSWORD });
    expect(signIn.error).toBeNull();
    expect(signIn.data.user?.identities?.[0]?.identity_data?.email).toBe('new@example.com');
  });
});

describe('sign-out scopes', () => {
  it('local ends one session, others the rest, global all', async () => {
    await t.registerUser('scopes@example.com');
    const clients = [t.createClient(), t.createClient(), t.createClient(), t.createClient()];
    for (const client of clients) {
      await client.auth.signInWithPassword({
        email: 'scopes@example.com',
        password: TEST_PASSWORD,
      });
    }
    const [a, b, c, d] = clients as [
      (typeof clients)[0],
      (typeof clients)[0],
      (typeof clients)[0],
      (typeof clients)[0],
    ];
    const bSession = (await b.auth.getSession()).data.session;
    expect((await a.auth.signOut({ scope: 'local' })).error).toBeNull();
    expect((await a.auth.getSession()).data.session).toBeNull();
    expect((await b.auth.getUser()).error).toBeNull();

    expect((await b.auth.signOut({ scope: 'others' })).error).toBeNull();
    expect((await b.auth.getUser()).error).toBeNull();
    // getUser on a signed-out session: session_not_found, and the client drops its session.
    const dropped = await c.auth.getUser();
    expect(dropped.error?.name).toBe('AuthSessionMissingError');
    expect((await c.auth.getSession()).data.session).toBeNull();

    await t.registerUser('scopes2@example.com');
    await d.auth.signInWithPassword({ email: 'scopes2@example.com', password: TEST_PASSWORD });
    expect((await b.auth.signOut({ scope: 'global' })).error).toBeNull();
    expect((await b.auth.getSession()).data.session).toBeNull();
    const refresh = await t
      .createClient()
      .auth.refreshSession({ refresh_token: bSession?.refresh_token ?? '' });
    expect(refresh.error?.code).toBe('refresh_token_not_found');
    expect((await d.auth.getUser()).error).toBeNull();
  });
});

describe('wire details', () => {
  it('answers CORS preflights and exposes the API version header', async () => {
    const preflight = await t.fetch(`${SITE_URL}/auth/v1/token?grant_type=password`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'https://other.example',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers':
          'apikey, authorization, content-type, x-client-info, x-supabase-api-version',
      },
    });
    expect(preflight.status).toBe(204);
    const allowed = preflight.headers.get('access-control-allow-headers') ?? '';
    for (const header of [
      'apikey',
      'authorization',
      'content-type',
      'x-client-info',
      'x-supabase-api-version',
    ]) {
      expect(allowed.toLowerCase()).toContain(header);
    }
    const error = await t.fetch(`${SITE_URL}/auth/v1/user`, {
      headers: { apikey: t.anonKey, Origin: 'https://other.example' },
    });
    expect(error.status).toBe(401);
    expect(error.headers.get('x-supabase-api-version')).toBe('2024-01-01');
    expect(error.headers.get('access-control-expose-headers')).toMatch(/X-Supabase-Api-Version/i);
    expect(await error.json()).toEqual({
      code: 'no_authorization',
      error_code: 'no_authorization',
      message: 'This endpoint requires a valid Bearer token',
      msg: 'This endpoint requires a valid Bearer token',
    });
  });

  it('needs no apikey (as GoTrue), but refuses one that is not ours (as hosted Supabase)', async () => {
    const missing = await t.fetch(`${SITE_URL}/auth/v1/settings`);
    expect(missing.status).toBe(200);
    const wrong = await t.fetch(`${SITE_URL}/auth/v1/settings`, {
      headers: { apikey: 'another-projects-key' },
    });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toMatchObject({
      code: 'invalid_api_key',
      message: 'Invalid API key',
    });
    const settings = await t.fetch(`${SITE_URL}/auth/v1/settings`, {
      headers: { apikey: t.anonKey },
    });
    expect(await settings.json()).toMatchObject({ external: { email: true, google: false } });
    const jwks = await t.fetch(`${SITE_URL}/auth/v1/.well-known/jwks.json`);
    expect(jwks.status).toBe(200);
    expect(jwks.headers.get('cache-control')).toBe('public, max-age=600');
    const unknown = await t.fetch(`${SITE_URL}/auth/v1/nope`, { headers: { apikey: t.anonKey } });
    expect(unknown.status).toBe(404);
    expect((await unknown.json()) as unknown).toMatchObject({ code: 'not_found' });
  });

  it('serves the anon key in the public config', async () => {
    const response = await t.fetch(`${SITE_URL}/api/config?endpoint=get-public-config`);
    expect(await response.json()).toEqual({
      supabaseUrl: SITE_URL,
      supabaseAnonKey: t.anonKey,
      googleEnabled: false,
      captchaSiteKey: null,
    });
  });
});

describe('AUTH_AUTOCONFIRM', () => {
  let auto: AuthTestServer;

  beforeAll(async () => {
    auto = await createAuthTestServer({ config: { autoconfirm: true } });
  });

  afterAll(async () => {
    await auto.cleanup();
  });

  it('signs up straight into a session; a second sign-up is user_already_exists', async () => {
    const client = auto.createClient();
    const { data, error } = await client.auth.signUp({
      email: 'auto@example.com',
      password: TEST_PASSWORD,
    });
    expect(error).toBeNull();
    expect(data.session?.access_token).toBeTruthy();
    expect(data.user?.email_confirmed_at).toBeTruthy();
    expect(await auto.readMails()).toHaveLength(0);
    const again = await auto
      .createClient()
      .auth.signUp({ email: 'auto@example.com', password: TEST_PASSWORD });
    expect(again.error).toMatchObject({ status: 422, code: 'user_already_exists' });
  });
});

describe('outbox mode', () => {
  it('logs each mail link for the developer, and never a password', () => {
    const links = t.logLines.filter((line) => line.msg === 'auth mail link (outbox mode)');
    expect(links.length).toBeGreaterThan(0);
    expect(String(links[0]?.link)).toMatch(/\/auth\/v1\/verify\?token=/);
    expect(JSON.stringify(t.logLines)).not.toContain(TEST_PASSWORD);
  });
});
