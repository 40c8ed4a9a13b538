/**
 * Password policy and limits from configuration (GoTrue's GOTRUE_PASSWORD_MIN_LENGTH,
 * GOTRUE_PASSWORD_REQUIRED_CHARACTERS, GOTRUE_SMTP_MAX_FREQUENCY, GOTRUE_SECURITY_MANUAL_LINKING_ENABLED
 * and the rate limits), as the service applies them: GoTrue's reasons and messages, nothing
 * stored when refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultAuthRateLimits, rateLimitsFromSettings } from '../../server/auth/auth-config.ts';
import { checkPassword, parseRequiredCharacters } from '../../server/auth/password-policy.ts';
import {
  createAuthTestServer,
  liftedRateLimits,
  type AuthTestServer,
} from '../fixtures/create-auth-test-server.ts';

const policy = {
  minLength: 10,
  requiredCharacters: parseRequiredCharacters('abcdefghijklmnopqrstuvwxyz:0123456789'),
};

let t: AuthTestServer;

beforeAll(async () => {
  t = await createAuthTestServer({
    config: {
      autoconfirm: true,
      passwordPolicy: policy,
      manualLinking: false,
      rateLimits: {
        ...liftedRateLimits,
        mailPerAddress: { ...defaultAuthRateLimits.mailPerAddress, windowMs: 5 * 60_000 },
      },
    },
  });
});

afterAll(async () => {
  await t.cleanup();
});

describe('password policy', () => {
  it("checks length and character sets with GoTrue's reasons and message", () => {
    expect(checkPassword('abc', policy)).toEqual({
      reasons: ['length', 'characters'],
      message:
        'Password should be at least 10 characters. Password should contain at least one character of each: abcdefghijklmnopqrstuvwxyz, 0123456789.',
    });
    expect(checkPassword('abcdefghij1', policy)).toBeNull();
    expect(checkPassword('password1', { minLength: 6, requiredCharacters: [] })?.reasons).toEqual([
      'pwned',
    ]);
  });

  it('sign-up with a weak password: 422 weak_password, no account', async () => {
    const client = t.createClient();
    const { data, error } = await client.auth.signUp({
      email: 'weak@example.com',
      password: 'NODIGITSHERE',
    });
    expect(error?.status).toBe(422);
    expect(error?.code).toBe('weak_password');
    expect((error as { reasons?: string[] } | null)?.reasons).toEqual(['characters']);
    expect(data.user).toBeNull();
    const { rows } = await t.db.query("SELECT 1 FROM auth_user WHERE email = 'weak@example.com'");
    expect(rows).toHaveLength(0);
    const ok = await client.auth.signUp({ email: 'weak@example.com', password: 'lower-and-99' });
    expect(ok.error).toBeNull();
  });

  it('a shorter minimum (the conformance run uses 6) lets a 6-character password through', () => {
    expect(checkPassword('x7Kq2w', { minLength: 6, requiredCharacters: [] })).toBeNull();
    expect(checkPassword('x7Kq2', { minLength: 6, requiredCharacters: [] })?.message).toBe(
      'Password should be at least 6 characters.',
    );
  });
});

describe('limits', () => {
  it('maps the settings onto the rules, mail frequency as the per-address window', () => {
    const rules = rateLimitsFromSettings({
      signInSignUpsPerIp: 100,
      tokenRefreshPerIp: 300,
      verifyPerIp: 100,
      mailRequestsPerIp: 40,
      mfaVerifyPerIp: 20,
      signInPerAccount: 5,
      verifyPerAccount: 6,
      mfaVerifyPerAccount: 7,
      mailFrequencyMs: 1000,
      smsFrequencyMs: 2000,
    });
    expect(rules.signInPerIp.max).toBe(100);
    expect(rules.signUpPerIp.max).toBe(100);
    expect(rules.refreshPerIp.max).toBe(300);
    expect(rules.mailPerAddress).toMatchObject({ max: 1, windowMs: 1000 });
    expect(rules.smsPerFactor).toMatchObject({ max: 1, windowMs: 2000 });
    expect(rules.signInPerAccount.max).toBe(5);
    expect(rules.mfaVerifyPerAccount.max).toBe(7);
  });

  it('the configured mail frequency applies per address', async () => {
    const client = t.createClient();
    expect((await client.auth.resetPasswordForEmail('freq@example.com')).error).toBeNull();
    const again = await client.auth.resetPasswordForEmail('freq@example.com');
    expect(again.error?.status).toBe(429);
    expect(again.error?.code).toBe('over_email_send_rate_limit');
    t.clock.advance(5 * 60_000 + 1000);
    expect((await client.auth.resetPasswordForEmail('freq@example.com')).error).toBeNull();
  });
});

describe('manual linking turned off', () => {
  it('link and unlink answer 404 manual_linking_disabled after the token check', async () => {
    const client = t.createClient();
    const { data } = await client.auth.signUp({
      email: 'nolink@example.com',
      password: 'lower-and-99',
    });
    expect(data.session).not.toBeNull();
    const link = await client.auth.linkIdentity({
      provider: 'google',
      options: { skipBrowserRedirect: true },
    });
    expect(link.error?.message).toBe('Manual linking is disabled');
    const identity = data.user?.identities?.[0];
    const unlink = await client.auth.unlinkIdentity(identity as never);
    expect(unlink.error?.message).toBe('Manual linking is disabled');
  });
});
