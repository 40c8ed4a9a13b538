/**
 * Conformance: MFA through supabase-js (protocols.md A7 item 12): TOTP enrolment (raw SVG QR,
 * issuer), challenge and verify with a real code computed by otpauth, aal2 sessions and amr,
 * assurance levels, the aal2 requirements, unenroll, phone factors with the code read from the SMS
 * outbox, and the verify rate limit.
 */
import type { AuthChangeEvent, SupabaseClient } from '@supabase/supabase-js';
import { decodeJwt } from 'jose';
import * as OTPAuth from 'otpauth';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createAuthTestServer,
  TEST_PASSWORD,
  type AuthTestServer,
} from '../fixtures/create-auth-test-server.ts';

let t: AuthTestServer;

beforeAll(async () => {
  t = await createAuthTestServer({
    config: {
      rateLimits: {
        mfaVerifyPerAccount: { name: 'mfa-verify-account', max: 4, windowMs: 5 * 60_000 },
        smsPerFactor: { name: 'sms-factor', max: 1, windowMs: 60_000 },
      },
    },
  });
});

beforeEach(() => {
  t.auth.rateLimiter.reset();
});

afterAll(async () => {
  await t.cleanup();
});

async function signIn(email: string): Promise<SupabaseClient> {
  const client = t.createClient();
  const { error } = await client.auth.signInWithPassword({ email, password: TEST_PASSWORD });
  if (error) throw error;
  return client;
}

/** The code an authenticator app shows `steps` periods from the server's now. */
function totpCode(secret: string, steps = 0): string {
  return OTPAuth.TOTP.generate({
    secret: OTPAuth.Secret.fromBase32(secret),
    timestamp: t.clock.now().getTime() + steps * 30_000,
  });
}

describe('TOTP', () => {
  let secret = '';
  let factorId = '';

  it('enrolls with a raw SVG QR code, secret and otpauth URI', async () => {
    await t.registerUser('totp@example.com');
    const client = await signIn('totp@example.com');
    const { data, error } = await client.auth.mfa.enroll({
      factorType: 'totp',
      friendlyName: 'Authenticator',
    });
    expect(error).toBeNull();
    if (!data || data.type !== 'totp') throw new Error('expected a TOTP factor');
    // The server sent raw SVG; auth-js added the data: prefix.
    expect(data.totp.qr_code.startsWith('data:image/svg+xml;utf-8,<svg')).toBe(true);
    expect(data.totp.secret).toMatch(/^[A-Z2-7]{32}$/);
    const uri = new URL(data.totp.uri);
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.searchParams.get('issuer')).toBe('Satchel Test');
    expect(decodeURIComponent(uri.pathname)).toContain('totp@example.com');
    secret = data.totp.secret;
    factorId = data.id;

    const factors = await client.auth.mfa.listFactors();
    expect(factors.data?.all).toHaveLength(1);
    expect(factors.data?.totp).toHaveLength(0);
    const duplicate = await client.auth.mfa.enroll({
      factorType: 'totp',
      friendlyName: 'Authenticator',
    });
    expect(duplicate.error).toMatchObject({ status: 422, code: 'mfa_factor_name_conflict' });

    const events: AuthChangeEvent[] = [];
    client.auth.onAuthStateChange((event) => {
      events.push(event);
    });
    const challenge = await client.auth.mfa.challenge({ factorId });
    expect(challenge.data).toMatchObject({ type: 'totp' });
    const wrong = await client.auth.mfa.verify({
      factorId,
      challengeId: challenge.data?.id ?? '',
      code: totpCode(secret, 5),
    });
    expect(wrong.error).toMatchObject({ status: 422, code: 'mfa_verification_failed' });
    const verified = await client.auth.mfa.verify({
      factorId,
      challengeId: challenge.data?.id ?? '',
      code: totpCode(secret),
    });
    expect(verified.error).toBeNull();
    expect(events).toContain('MFA_CHALLENGE_VERIFIED');
    const claims = decodeJwt(verified.data?.access_token ?? '');
    expect(claims.aal).toBe('aal2');
    expect((claims.amr as { method: string }[]).map((entry) => entry.method)).toEqual([
      'totp',
      'password',
    ]);
    const aal = await client.auth.mfa.getAuthenticatorAssuranceLevel();
    expect(aal.data).toMatchObject({ currentLevel: 'aal2', nextLevel: 'aal2' });
    expect((await client.auth.mfa.listFactors()).data?.totp).toHaveLength(1);
  });

  it('an aal1 session sees nextLevel aal2 and may not unenroll, enroll or change the password', async () => {
    const client = await signIn('totp@example.com');
    const aal = await client.auth.mfa.getAuthenticatorAssuranceLevel();
    expect(aal.data).toMatchObject({ currentLevel: 'aal1', nextLevel: 'aal2' });
    const unenroll = await client.auth.mfa.unenroll({ factorId });
    expect(unenroll.error).toMatchObject({ status: 422, code: 'insufficient_aal' });
    const enroll = await client.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Second' });
    expect(enroll.error).toMatchObject({ status: 403, code: 'insufficient_aal' });
    const password = await client.auth.updateUser({ password: 'another-secret-55' });
    expect(password.error).toMatchObject({ status: 401, code: 'insufficient_aal' });
  });

  it('a code is accepted once; the retired aal1 refresh token cannot reach aal2', async () => {
    const client = await signIn('totp@example.com');
    const aal1Refresh = (await client.auth.getSession()).data.session?.refresh_token ?? '';
    const code = totpCode(secret, 1);
    const first = await client.auth.mfa.challengeAndVerify({ factorId, code });
    expect(first.error).toBeNull();
    const other = await signIn('totp@example.com');
    const replay = await other.auth.mfa.challengeAndVerify({ factorId, code });
    expect(replay.error).toMatchObject({ code: 'mfa_verification_failed' });

    const refreshed = await t.createClient().auth.refreshSession({ refresh_token: aal1Refresh });
    expect(refreshed.data.session?.access_token ?? null).toBeNull();
    expect(refreshed.error?.code).toBe('refresh_token_already_used');
    // The aal2 session itself refreshes and stays aal2.
    const own = await client.auth.refreshSession();
    expect(decodeJwt(own.data.session?.access_token ?? '').aal).toBe('aal2');
  });

  it('challenges expire after 5 minutes; verify is rate limited per account', async () => {
    const client = await signIn('totp@example.com');
    const challenge = await client.auth.mfa.challenge({ factorId });
    t.clock.advance(6 * 60_000);
    const late = await client.auth.mfa.verify({
      factorId,
      challengeId: challenge.data?.id ?? '',
      code: totpCode(secret),
    });
    expect(late.error).toMatchObject({ status: 422, code: 'mfa_challenge_expired' });

    const fresh = await client.auth.mfa.challenge({ factorId });
    for (let i = 0; i < 3; i += 1) {
      const { error } = await client.auth.mfa.verify({
        factorId,
        challengeId: fresh.data?.id ?? '',
        code: '000000',
      });
      expect(error?.code).toBe('mfa_verification_failed');
    }
    const limited = await client.auth.mfa.verify({
      factorId,
      challengeId: fresh.data?.id ?? '',
      code: totpCode(secret, 2),
    });
    expect(limited.error).toMatchObject({ status: 429, code: 'over_request_rate_limit' });
  });

  it('an aal2 session unenrolls; the account is back to aal1', async () => {
    const client = await signIn('totp@example.com');
    t.clock.advance(60_000); // a fresh time step, past the codes used above
    const upgraded = await client.auth.mfa.challengeAndVerify({ factorId, code: totpCode(secret) });
    expect(upgraded.error).toBeNull();
    const { data, error } = await client.auth.mfa.unenroll({ factorId });
    expect(error).toBeNull();
    expect(data).toEqual({ id: factorId });
    const fresh = await signIn('totp@example.com');
    const aal = await fresh.auth.mfa.getAuthenticatorAssuranceLevel();
    expect(aal.data).toMatchObject({ currentLevel: 'aal1', nextLevel: 'aal1' });
  });
});

describe('phone factors', () => {
  it('sends the code by SMS to the outbox and verifies it into aal2', async () => {
    await t.registerUser('phone@example.com');
    const client = await signIn('phone@example.com');
    const invalid = await client.auth.mfa.enroll({ factorType: 'phone', phone: '555-1234' });
    expect(invalid.error).toMatchObject({ status: 400, code: 'validation_failed' });
    const { data, error } = await client.auth.mfa.enroll({
      factorType: 'phone',
      friendlyName: 'Mobile',
      phone: '+15551234567',
    });
    expect(error).toBeNull();
    expect(data).toMatchObject({ type: 'phone', phone: '+15551234567' });
    const factorId = data?.id ?? '';

    const smsBefore = (await t.readSms()).length;
    const challenge = await client.auth.mfa.challenge({ factorId, channel: 'sms' });
    expect(challenge.data).toMatchObject({ type: 'phone' });
    const sms = (await t.readSms()).slice(smsBefore);
    expect(sms).toHaveLength(1);
    expect(sms[0]).toContain('To: +15551234567');
    const code = /code is (\d{6})/.exec(sms[0] ?? '')?.[1] ?? '';

    const tooSoon = await client.auth.mfa.challenge({ factorId, channel: 'sms' });
    expect(tooSoon.error).toMatchObject({ status: 429, code: 'over_sms_send_rate_limit' });

    const verified = await client.auth.mfa.verify({
      factorId,
      challengeId: challenge.data?.id ?? '',
      code,
    });
    expect(verified.error).toBeNull();
    const claims = decodeJwt(verified.data?.access_token ?? '');
    expect(claims.aal).toBe('aal2');
    expect((claims.amr as { method: string }[])[0]?.method).toBe('mfa/phone');
    expect((await client.auth.mfa.listFactors()).data?.phone).toHaveLength(1);
  });
});
