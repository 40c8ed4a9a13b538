/**
 * Conformance: rate limits (429 + Retry-After in auth-js's error shape, per IP and per account)
 * and captcha checks against a local siteverify stub (the network edge).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createAuthTestServer,
  SITE_URL,
  TEST_PASSWORD,
  type AuthTestServer,
} from '../fixtures/create-auth-test-server.ts';

const MINUTE = 60_000;

describe('rate limits', () => {
  let t: AuthTestServer;

  beforeAll(async () => {
    t = await createAuthTestServer({
      config: {
        rateLimits: {
          signInPerIp: { name: 'sign-in-ip', max: 6, windowMs: 5 * MINUTE },
          signInPerAccount: { name: 'sign-in-account', max: 3, windowMs: 5 * MINUTE },
          signUpPerIp: { name: 'sign-up-ip', max: 4, windowMs: 5 * MINUTE },
          mailPerAddress: { name: 'mail-address', max: 1, windowMs: MINUTE },
          verifyPerAccount: { name: 'verify-account', max: 3, windowMs: 5 * MINUTE },
        },
      },
    });
    await t.registerUser('limited@example.com');
  });

  beforeEach(() => {
    t.auth.rateLimiter.reset();
  });

  afterAll(async () => {
    await t.cleanup();
  });

  const signIn = (email: string, password = 'wrong-password-1') =>
    t.fetch(`${SITE_URL}/auth/v1/token?grant_type=password`, {
      method: 'POST',
      headers: { apikey: t.anonKey, 'Content-Type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });

  it('password sign-in per account: 429 over_request_rate_limit with Retry-After', async () => {
    for (let i = 0; i < 3; i += 1) expect((await signIn('limited@example.com')).status).toBe(400);
    const limited = await signIn('limited@example.com', TEST_PASSWORD);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(300);
    expect(limited.headers.get('x-supabase-api-version')).toBe('2024-01-01');
    expect(await limited.json()).toMatchObject({ code: 'over_request_rate_limit' });

    const { error } = await t
      .createClient()
      .auth.signInWithPassword({ email: 'limited@example.com', password: TEST_PASSWORD });
    expect(error).toMatchObject({ status: 429, code: 'over_request_rate_limit' });

    t.clock.advance(5 * MINUTE + 1000);
    expect((await signIn('limited@example.com', TEST_PASSWORD)).status).toBe(200);
  });

  it('password sign-in per IP across accounts', async () => {
    for (let i = 0; i < 6; i += 1) expect((await signIn(`ip${i}@example.com`)).status).toBe(400);
    expect((await signIn('ip-last@example.com')).status).toBe(429);
  });

  it('per IP: a spoofed X-Forwarded-For does not buy a fresh allowance (TRUST_PROXY unset)', async () => {
    const spoofed = (i: number) =>
      t.fetch(`${SITE_URL}/auth/v1/token?grant_type=password`, {
        method: 'POST',
        headers: {
          apikey: t.anonKey,
          'Content-Type': 'application/json',
          'X-Forwarded-For': `198.51.100.${i}`,
        },
        body: JSON.stringify({ email: `spoof${i}@example.com`, password: 'wrong-password-1' }),
      });
    for (let i = 0; i < 6; i += 1) expect((await spoofed(i)).status).toBe(400);
    expect((await spoofed(99)).status).toBe(429);
  });

  it('sign-up per IP', async () => {
    const client = t.createClient();
    for (let i = 0; i < 4; i += 1) {
      expect(
        (await client.auth.signUp({ email: `new${i}@example.com`, password: TEST_PASSWORD })).error,
      ).toBeNull();
    }
    const { error } = await client.auth.signUp({
      email: 'new-last@example.com',
      password: TEST_PASSWORD,
    });
    expect(error).toMatchObject({ status: 429, code: 'over_request_rate_limit' });
  });

  it('recover and resend: one mail per address per minute, known or not', async () => {
    const client = t.createClient();
    expect((await client.auth.resetPasswordForEmail('limited@example.com')).error).toBeNull();
    const again = await client.auth.resetPasswordForEmail('limited@example.com');
    expect(again.error).toMatchObject({ status: 429, code: 'over_email_send_rate_limit' });
    expect(again.error?.message).toMatch(/only request this after \d+ seconds/);
    expect((await client.auth.resetPasswordForEmail('unknown@example.com')).error).toBeNull();
    expect((await client.auth.resetPasswordForEmail('unknown@example.com')).error?.status).toBe(
      429,
    );

    await client.auth.signUp({ email: 'resender@example.com', password: TEST_PASSWORD });
    t.auth.rateLimiter.reset();
    expect(
      (await client.auth.resend({ type: 'signup', email: 'resender@example.com' })).error,
    ).toBeNull();
    const resend = await client.auth.resend({ type: 'signup', email: 'resender@example.com' });
    expect(resend.error).toMatchObject({ status: 429, code: 'over_email_send_rate_limit' });
  });

  it('verify: code guesses per address', async () => {
    const client = t.createClient();
    await client.auth.signUp({ email: 'guess@example.com', password: TEST_PASSWORD });
    const mail = await t.lastMailTo('guess@example.com');
    const wrong = mail.otp === '123456' ? '654321' : '123456';
    for (let i = 0; i < 3; i += 1) {
      const { error } = await client.auth.verifyOtp({
        email: 'guess@example.com',
        token: wrong,
        type: 'email',
      });
      expect(error?.code).toBe('otp_expired');
    }
    const { error } = await client.auth.verifyOtp({
      email: 'guess@example.com',
      token: mail.otp ?? '',
      type: 'email',
    });
    expect(error).toMatchObject({ status: 429, code: 'over_request_rate_limit' });
  });
});

describe('the per-account sign-in limit does not lock the owner out', () => {
  let t: AuthTestServer;
  const OWNER_ADDRESS = '203.0.113.7';
  const ATTACKER_ADDRESS = '198.51.100.9';

  beforeAll(async () => {
    t = await createAuthTestServer({
      trustProxyHops: 1,
      config: {
        rateLimits: {
          signInPerAccount: { name: 'sign-in-account', max: 3, windowMs: 5 * MINUTE },
        },
      },
    });
    await t.registerUser('owner@example.com');
  });

  afterAll(async () => {
    await t.cleanup();
  });

  const signInFrom = (address: string, password: string) =>
    t.fetch(`${SITE_URL}/auth/v1/token?grant_type=password`, {
      method: 'POST',
      headers: {
        apikey: t.anonKey,
        'Content-Type': 'application/json',
        'X-Forwarded-For': address,
      },
      body: JSON.stringify({ email: 'owner@example.com', password }),
    });

  it('wrong guesses lock new addresses out; the right password from a known address still signs in', async () => {
    expect((await signInFrom(OWNER_ADDRESS, TEST_PASSWORD)).status).toBe(200);
    t.auth.rateLimiter.reset();

    for (let i = 0; i < 3; i += 1) {
      expect((await signInFrom(ATTACKER_ADDRESS, 'wrong-password-1')).status).toBe(400);
    }
    expect((await signInFrom(ATTACKER_ADDRESS, 'wrong-password-2')).status).toBe(429);
    // Even the right password from an address that never signed in to the account.
    const guessed = await signInFrom(ATTACKER_ADDRESS, TEST_PASSWORD);
    expect(guessed.status).toBe(429);
    expect(await guessed.json()).toMatchObject({ code: 'over_request_rate_limit' });

    expect((await signInFrom(OWNER_ADDRESS, TEST_PASSWORD)).status).toBe(200);
    // A known address gets no extra guesses: wrong passwords stay refused while locked.
    expect((await signInFrom(OWNER_ADDRESS, 'wrong-password-3')).status).toBe(429);
  });
});

describe('captcha', () => {
  let t: AuthTestServer;
  let stub: Server;
  const received: URLSearchParams[] = [];

  beforeAll(async () => {
    stub = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      request.on('end', () => {
        const form = new URLSearchParams(body);
        received.push(form);
        response.setHeader('Content-Type', 'application/json');
        response.end(JSON.stringify({ success: form.get('response') === 'good-token' }));
      });
    });
    await new Promise<void>((resolve) => stub.listen(0, '127.0.0.1', resolve));
    const { port } = stub.address() as AddressInfo;
    t = await createAuthTestServer({
      config: {
        captcha: {
          secret: 'captcha-secret',
          siteKey: 'site-key-1',
          verifyUrl: `http://127.0.0.1:${port}/siteverify`,
        },
        rateLimits: {
          signInPerAccount: { name: 'sign-in-account', max: 3, windowMs: 5 * MINUTE },
        },
      },
    });
  });

  afterAll(async () => {
    await t.cleanup();
    await new Promise((resolve) => stub.close(resolve));
  });

  // Unknown addresses are checked alike, so no account is needed here.
  it('recover needs a captcha token the provider accepts', async () => {
    const client = t.createClient();
    const missing = await client.auth.resetPasswordForEmail('captcha@example.com');
    expect(missing.error).toMatchObject({ status: 400, code: 'captcha_failed' });
    const bad = await client.auth.resetPasswordForEmail('captcha@example.com', {
      captchaToken: 'bad-token',
    });
    expect(bad.error).toMatchObject({ status: 400, code: 'captcha_failed' });
    const good = await client.auth.resetPasswordForEmail('captcha@example.com', {
      captchaToken: 'good-token',
    });
    expect(good.error).toBeNull();
    expect(received.at(-1)?.get('secret')).toBe('captcha-secret');
    expect(received.at(-1)?.get('sitekey')).toBe('site-key-1');
  });

  it('sign-up and sign-in are checked too; the site key is public config', async () => {
    const client = t.createClient();
    const signUp = await client.auth.signUp({ email: 'cap2@example.com', password: TEST_PASSWORD });
    expect(signUp.error?.code).toBe('captcha_failed');
    const ok = await client.auth.signUp({
      email: 'cap2@example.com',
      password: TEST_PASSWORD,
      options: { captchaToken: 'good-token' },
    });
    expect(ok.error).toBeNull();
    const signIn = await client.auth.signInWithPassword({
      email: 'cap2@example.com',
      password: TEST_PASSWORD,
    });
    expect(signIn.error?.code).toBe('captcha_failed');
    const config = await t.fetch(`${SITE_URL}/api/config?endpoint=get-public-config`);
    expect(((await config.json()) as { captchaSiteKey: string }).captchaSiteKey).toBe('site-key-1');
  });

  it('a passed captcha lets the right password through a locked account', async () => {
    const client = t.createClient();
    const email = 'cap-locked@example.com';
    const signUp = await client.auth.signUp({
      email,
      password: TEST_PASSWORD,
      options: { captchaToken: 'good-token' },
    });
    expect(signUp.error).toBeNull();
    const link = (await t.lastMailTo(email)).link ?? '';
    expect((await t.fetch(link, { redirect: 'manual' })).status).toBe(303);
    t.auth.rateLimiter.reset();

    const attempt = (password: string) =>
      client.auth.signInWithPassword({ email, password, options: { captchaToken: 'good-token' } });
    for (let i = 0; i < 3; i += 1) {
      expect((await attempt('wrong-password-1')).error?.code).toBe('invalid_credentials');
    }
    expect((await attempt('wrong-password-2')).error?.code).toBe('over_request_rate_limit');
    const owner = await attempt(TEST_PASSWORD);
    expect(owner.error).toBeNull();
    expect(owner.data.session).not.toBeNull();
  });
});
