/**
 * GoTrue's order of checks and its answers where auth-js's own test suite asserts them: a missing
 * bearer token is 401 no_authorization before any 404 or validation error on the routes behind
 * GoTrue's requireAuthentication; features not offered answer as GoTrue does with them turned
 * off; address and phone formats get GoTrue's messages.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createAuthTestServer,
  SITE_URL,
  type AuthTestServer,
} from '../fixtures/create-auth-test-server.ts';

let t: AuthTestServer;

beforeAll(async () => {
  t = await createAuthTestServer({ config: { autoconfirm: true } });
});

afterAll(async () => {
  await t.cleanup();
});

async function call(
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await t.fetch(`${SITE_URL}/auth/v1${path}`, {
    method,
    headers: { apikey: t.anonKey, 'Content-Type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return {
    status: response.status,
    body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
  };
}

describe('authentication comes first', () => {
  it.each([
    ['GET', '/user'],
    ['PUT', '/user'],
    ['GET', '/reauthenticate'],
    ['POST', '/logout'],
    ['POST', '/factors'],
    ['POST', '/factors/not-a-uuid/challenge'],
    ['POST', '/factors/9b2f6a3e-0000-4000-8000-000000000000/verify'],
    ['DELETE', '/factors/9b2f6a3e-0000-4000-8000-000000000000'],
    ['GET', '/user/identities/authorize?provider=google'],
    ['DELETE', '/user/identities/not-a-uuid'],
    ['GET', '/user/no-such-route'],
  ])('%s %s without a token is 401 no_authorization', async (method, path) => {
    const answer = await call(method, path, method === 'GET' ? undefined : { factor_type: 'x' });
    expect(answer.status).toBe(401);
    expect(answer.body).toMatchObject({
      code: 'no_authorization',
      message: 'This endpoint requires a valid Bearer token',
    });
  });

  it('a malformed token is 403 bad_jwt, before the body is read', async () => {
    const answer = await call('POST', '/factors', 'not json at all', {
      Authorization: 'Bearer this-is-a-bad-token',
    });
    expect(answer.status).toBe(403);
    expect(answer.body.code).toBe('bad_jwt');
    expect(String(answer.body.message)).toMatch(/^invalid JWT/);
  });

  it('the anon key as bearer is not a user', async () => {
    const answer = await call('GET', '/user', undefined, { Authorization: `Bearer ${t.anonKey}` });
    expect(answer.status).toBe(403);
    expect(answer.body.code).toBe('bad_jwt');
  });

  it('enrolling a WebAuthn factor without a token names the bearer token, not the feature', async () => {
    const answer = await call('POST', '/factors', { factor_type: 'webauthn' });
    expect(answer.status).toBe(401);
    expect(answer.body.message).toContain('Bearer token');
  });
});

describe('features not offered', () => {
  it.each([
    ['POST', '/sso', 404, 'saml_provider_disabled', 'SAML 2.0 is disabled'],
    ['GET', '/sso/saml/metadata', 404, 'saml_provider_disabled', 'SAML 2.0 is disabled'],
    ['POST', '/passkeys/authentication/options', 404, 'passkey_disabled', 'Passkeys are disabled'],
    ['POST', '/token?grant_type=web3', 422, 'web3_provider_disabled', 'Web3 provider is disabled'],
    ['POST', '/signup', 422, 'anonymous_provider_disabled', 'Anonymous sign-ins are disabled'],
  ])('%s %s answers %i %s', async (method, path, status, code, message) => {
    const answer = await call(method, path, method === 'GET' ? undefined : {});
    expect(answer.status).toBe(status);
    expect(answer.body).toMatchObject({ code, message });
  });

  it.each([
    [
      '/signup',
      { phone: '+15551234567', password: 'long-enough-9x' },
      400,
      'Phone signups are disabled',
    ],
    ['/otp', { phone: '+15551234567' }, 400, 'Unsupported phone provider'],
    ['/resend', { type: 'sms', phone: '+15551234567' }, 400, 'Phone logins are disabled'],
    [
      '/token?grant_type=password',
      { phone: '+15551234567', password: 'x' },
      422,
      'Phone logins are disabled',
    ],
  ])('phone sign-in is off: POST %s answers %i "%s"', async (path, body, status, message) => {
    const answer = await call('POST', path, body);
    expect(answer.status).toBe(status);
    expect(answer.body).toMatchObject({ code: 'phone_provider_disabled', message });
  });

  it('supabase-js: signInWithSSO gets "SAML 2.0 is disabled"', async () => {
    const { error } = await t.createClient().auth.signInWithSSO({ domain: 'example.com' });
    expect(error?.message).toContain('SAML 2.0 is disabled');
  });

  it('a phone code finds no account (403), after the number format is checked (400)', async () => {
    const client = t.createClient();
    const none = await client.auth.verifyOtp({
      phone: '15551234567',
      token: '123456',
      type: 'sms',
    });
    expect(none.error?.status).toBe(403);
    expect(none.error?.message).toBe('Token has expired or is invalid');
    const change = await client.auth.verifyOtp({
      phone: '15551234567',
      token: '123456',
      type: 'phone_change',
    });
    expect(change.error?.message).toBe('Token has expired or is invalid');
    const bad = await client.auth.verifyOtp({
      phone: '1555-invalid',
      token: '123456',
      type: 'sms',
    });
    expect(bad.error?.status).toBe(400);
    expect(bad.error?.message).toBe('Invalid phone number format (E.164 required)');
  });
});

describe('address format', () => {
  it('sign-up with a malformed address: GoTrue validateEmail, nothing created', async () => {
    const client = t.createClient();
    const { data, error } = await client.auth.signUp({ email: 'a', password: 'long-enough-9x' });
    expect(error?.status).toBe(400);
    expect(error?.code).toBe('validation_failed');
    expect(error?.message).toBe('Unable to validate email address: invalid format');
    expect(data.user).toBeNull();
    const { rows } = await t.db.query("SELECT 1 FROM auth_user WHERE email = 'a'");
    expect(rows).toHaveLength(0);
  });

  it.each(['xx:;x@x.x', 'a b@example.com', 'a@-example.com', 'a@example'])(
    'refuses %s as GoTrue does',
    async (email) => {
      const answer = await call('POST', '/signup', { email, password: 'long-enough-9x' });
      expect(answer.status).toBe(400);
      expect(answer.body.message).toBe('Unable to validate email address: invalid format');
    },
  );
});
