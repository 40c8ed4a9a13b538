import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, jsonRequest, type TestApp } from '../../tests/fixtures/create-test-app.ts';
import type { VerifyAccessToken } from '../auth/identity.ts';
import { AppError, ErrorCode } from '../http/app-error.ts';
import { feedbackRateLimit } from './feedback.ts';

const FEEDBACK = '/api/feedback?endpoint=submit-feedback';
const valid = { rating: 4, category: 'idea', message: 'A weekly summary e-mail would help.' };
const signedInUserId = '6f1c1a52-3f0e-4c53-9b7e-4d2d8b7f0a11';
const forgedUserId = '00000000-0000-4000-8000-000000000001';

/** Accepts exactly one token, as a real verifier accepts a signed one. */
const verifyAccessToken: VerifyAccessToken = (token) =>
  token === 'good-token'
    ? Promise.resolve({ userId: signedInUserId, email: 'ada@example.com', role: 'authenticated' })
    : Promise.reject(new AppError(ErrorCode.UNAUTHORIZED, 'Invalid JWT'));

interface ErrorBody {
  error: { code: string; message: string; details?: { path: string; message: string }[] };
}

async function storedRows(t: TestApp) {
  const { rows } = await t.db.query<{
    rating: number;
    category: string;
    message: string;
    email: string | null;
    user_id: string | null;
  }>('SELECT rating, category, message, email, user_id FROM feedback ORDER BY created_at');
  return rows;
}

describe('POST submit-feedback', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp({ verifyAccessToken });
  });
  afterEach(async () => {
    await t.cleanup();
  });

  it('stores anonymous feedback without a user id', async () => {
    const response = await t.app.request(
      FEEDBACK,
      jsonRequest('POST', { ...valid, email: ' ada@example.com ' }),
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
    expect(await storedRows(t)).toEqual([{ ...valid, email: 'ada@example.com', user_id: null }]);
  });

  it('takes a signed-in user id from the token and ignores any user id in the body', async () => {
    const response = await t.app.request(
      FEEDBACK,
      jsonRequest(
        'POST',
        { ...valid, userId: forgedUserId, user_id: forgedUserId },
        { Authorization: 'Bearer good-token' },
      ),
    );
    expect(response.status).toBe(200);
    const rows = await storedRows(t);
    expect(rows.map((row) => row.user_id)).toEqual([signedInUserId]);

    // Without a token the forged id is dropped as well.
    await t.app.request(FEEDBACK, jsonRequest('POST', { ...valid, userId: forgedUserId }));
    expect((await storedRows(t)).map((row) => row.user_id)).toEqual([signedInUserId, null]);
  });

  it('refuses a token that does not verify instead of storing the feedback anonymously', async () => {
    const response = await t.app.request(
      FEEDBACK,
      jsonRequest('POST', valid, { Authorization: 'Bearer forged' }),
    );
    expect(response.status).toBe(401);
    expect(await storedRows(t)).toEqual([]);
  });

  it.each([
    ['rating 0', { rating: 0 }, 'body.rating', 'Rating must be between 1 and 5'],
    ['rating 6', { rating: 6 }, 'body.rating', 'Rating must be between 1 and 5'],
    ['rating 2.5', { rating: 2.5 }, 'body.rating', 'Rating must be a whole number'],
    ['rating as text', { rating: '5' }, 'body.rating', 'Rating must be a number'],
    ['an unknown category', { category: 'rant' }, 'body.category', 'Choose a category'],
    ['an empty message', { message: '  ' }, 'body.message', 'Message is required'],
    [
      'a message over 5,000 characters',
      { message: 'x'.repeat(5001) },
      'body.message',
      'Message must be at most 5000 characters',
    ],
    ['a malformed email', { email: 'ada@' }, 'body.email', 'Enter a valid email address'],
  ])('rejects %s with its field and message', async (_label, patch, pathName, message) => {
    const response = await t.app.request(FEEDBACK, jsonRequest('POST', { ...valid, ...patch }));
    expect(response.status).toBe(400);
    const { error } = (await response.json()) as ErrorBody;
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.details).toContainEqual({ path: pathName, message });
    expect(await storedRows(t)).toEqual([]);
  });

  it('rejects bodies that are not an object, and truncated JSON', async () => {
    for (const raw of ['[]', '7', 'null', '{}']) {
      const response = await t.app.request(FEEDBACK, jsonRequest('POST', raw));
      expect(response.status, raw).toBe(400);
      expect(((await response.json()) as ErrorBody).error.code, raw).toBe('VALIDATION_FAILED');
    }
    const truncated = await t.app.request(FEEDBACK, jsonRequest('POST', '{"rating":'));
    expect(truncated.status).toBe(400);
    expect(((await truncated.json()) as ErrorBody).error.code).toBe('MALFORMED_JSON');
  });

  it('accepts a filled honeypot silently and stores nothing', async () => {
    const response = await t.app.request(
      FEEDBACK,
      jsonRequest('POST', { ...valid, website: 'https://spam.example' }),
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
    expect(await storedRows(t)).toEqual([]);
  });

  it(`allows ${feedbackRateLimit.max} per IP, signed in or not, then 429 with Retry-After`, async () => {
    for (let i = 0; i < feedbackRateLimit.max; i += 1) {
      const headers: Record<string, string> = i % 2 ? { Authorization: 'Bearer good-token' } : {};
      const ok = await t.app.request(FEEDBACK, jsonRequest('POST', valid, headers));
      expect(ok.status, `feedback ${i + 1}`).toBe(200);
    }
    const refused = await t.app.request(FEEDBACK, jsonRequest('POST', valid));
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    const { error } = (await refused.json()) as ErrorBody;
    expect(error).toMatchObject({
      code: 'RATE_LIMITED',
      message: 'Too many attempts. Try again in 10 minutes.',
    });
    expect(await storedRows(t)).toHaveLength(feedbackRateLimit.max);
  });
});
