import { describe, expect, it } from 'vitest';
import { describeAuthError } from './describe-auth-error.ts';

/** Shaped like supabase-js's AuthApiError. */
function apiError(code: string, status: number, message = 'server text') {
  return Object.assign(new Error(message), {
    name: 'AuthApiError',
    code,
    status,
    __isAuthError: true,
  });
}

describe('describeAuthError', () => {
  it('says "Wrong email or password" for invalid credentials', () => {
    expect(describeAuthError(apiError('invalid_credentials', 400))).toEqual({
      kind: 'wrongCredentials',
      message: 'Wrong email or password',
    });
  });

  it('asks to confirm the email first', () => {
    expect(describeAuthError(apiError('email_not_confirmed', 400))).toMatchObject({
      kind: 'emailNotConfirmed',
      message: 'Confirm your email first',
    });
  });

  it('uses Retry-After for rate limits', () => {
    expect(
      describeAuthError(apiError('over_request_rate_limit', 429), { retryAfterSeconds: 40 }),
    ).toEqual({
      kind: 'rateLimited',
      message: 'Too many attempts, try again in 40 s',
      retryAfterSeconds: 40,
    });
  });

  it('falls back to the seconds in the message, then to no number', () => {
    expect(
      describeAuthError(
        apiError('over_email_send_rate_limit', 429, 'you can only request this after 53 seconds.'),
      ).message,
    ).toBe('Too many attempts, try again in 53 s');
    expect(describeAuthError(apiError('over_request_rate_limit', 429)).message).toBe(
      'Too many attempts, try again shortly',
    );
  });

  it('lists weak-password reasons', () => {
    const error = Object.assign(new Error('weak'), {
      name: 'AuthWeakPasswordError',
      code: 'weak_password',
      status: 422,
      reasons: ['length', 'pwned'],
    });
    expect(describeAuthError(error)).toEqual({
      kind: 'weakPassword',
      message:
        'Choose a stronger password: use at least 8 characters; this password is too common.',
      weakPasswordReasons: ['length', 'pwned'],
    });
  });

  it('explains network failures and server errors', () => {
    const offline = Object.assign(new Error('Failed to fetch'), {
      name: 'AuthRetryableFetchError',
      status: 0,
    });
    expect(describeAuthError(offline)).toEqual({
      kind: 'network',
      message: "Can't reach the server. Check your connection and try again.",
    });
    const down = Object.assign(new Error('{}'), { name: 'AuthRetryableFetchError', status: 503 });
    expect(describeAuthError(down).message).toBe(
      'The server had a problem. Try again in a moment.',
    );
  });

  it('reads the code of an error that came back in the URL', () => {
    const error = Object.assign(new Error('Email link is invalid or has expired'), {
      name: 'AuthImplicitGrantRedirectError',
      status: 500,
      details: { error: 'access_denied', code: 'otp_expired' },
    });
    expect(describeAuthError(error).message).toBe(
      'This link or code has expired or was already used. Ask for a new one.',
    );
  });

  it('treats a missing session as ended', () => {
    const error = Object.assign(new Error('Auth session missing!'), {
      name: 'AuthSessionMissingError',
      status: 400,
    });
    expect(describeAuthError(error).kind).toBe('sessionEnded');
  });

  it('never shows raw server text for unknown codes', () => {
    expect(describeAuthError(apiError('something_new', 400, 'pq: syntax error')).message).toBe(
      'Something went wrong. Try again.',
    );
    expect(describeAuthError('boom').message).toBe('Something went wrong. Try again.');
  });
});
