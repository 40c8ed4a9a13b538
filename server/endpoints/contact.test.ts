import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_MESSAGE_LENGTH } from '#contract/entities/contact-message.ts';
import { createTestApp, jsonRequest, type TestApp } from '../../tests/fixtures/create-test-app.ts';
import { contactRateLimit } from './contact.ts';

const CONTACT = '/api/contact?endpoint=submit-contact';
const valid = {
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  subject: 'Question about the portal',
  message: 'Can my clients open the portal on a phone?',
};

interface ErrorBody {
  error: { code: string; message: string; details?: { path: string; message: string }[] };
}

async function outbox(t: TestApp): Promise<string[]> {
  try {
    return await readdir(t.outboxDir);
  } catch {
    return [];
  }
}

async function storedCount(t: TestApp): Promise<number> {
  const { rows } = await t.db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM contact_message',
  );
  return rows[0]?.n ?? -1;
}

describe('POST submit-contact', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp();
  });
  afterEach(async () => {
    await t.cleanup();
  });

  it('stores the trimmed message and mails it to CONTACT_EMAIL with the sender as Reply-To', async () => {
    const response = await t.app.request(
      CONTACT,
      jsonRequest('POST', { ...valid, name: '  Ada Lovelace  ' }),
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
    const { rows } = await t.db.query<{ name: string; subject: string; message: string }>(
      'SELECT name, subject, message FROM contact_message',
    );
    expect(rows).toEqual([
      { name: 'Ada Lovelace', subject: valid.subject, message: valid.message },
    ]);
    const mails = await outbox(t);
    expect(mails).toHaveLength(1);
    const eml = await readFile(path.join(t.outboxDir, mails[0]!), 'utf8');
    expect(eml).toContain('To: team@test');
    expect(eml).toContain('Reply-To: Ada Lovelace <ada@example.com>');
    const [, encodedBody = ''] = eml.split(/\r?\n\r?\n/);
    expect(Buffer.from(encodedBody.replace(/\s+/g, ''), 'base64').toString('utf8')).toContain(
      valid.message,
    );
  });

  it.each([
    ['a JSON array', '[]'],
    ['a JSON string', '"hello"'],
    ['JSON null', 'null'],
    ['an empty object', '{}'],
  ])('rejects %s with 400 VALIDATION_FAILED and stores nothing', async (_label, raw) => {
    const response = await t.app.request(CONTACT, jsonRequest('POST', raw));
    expect(response.status).toBe(400);
    expect(((await response.json()) as ErrorBody).error.code).toBe('VALIDATION_FAILED');
    expect(await storedCount(t)).toBe(0);
  });

  it('rejects truncated JSON with 400 MALFORMED_JSON', async () => {
    const response = await t.app.request(CONTACT, jsonRequest('POST', '{"name":"Ada",'));
    expect(response.status).toBe(400);
    expect(((await response.json()) as ErrorBody).error.code).toBe('MALFORMED_JSON');
  });

  it('names each bad field with a message people can read', async () => {
    const response = await t.app.request(
      CONTACT,
      jsonRequest('POST', { name: '   ', email: 'ada@', subject: 42, message: '' }),
    );
    expect(response.status).toBe(400);
    const { error } = (await response.json()) as ErrorBody;
    expect(error.details).toEqual(
      expect.arrayContaining([
        { path: 'body.name', message: 'Name is required' },
        { path: 'body.email', message: 'Enter a valid email address' },
        { path: 'body.subject', message: 'Subject must be text' },
        { path: 'body.message', message: 'Message is required' },
      ]),
    );
    expect(await storedCount(t)).toBe(0);
  });

  it(`accepts a message of exactly ${MAX_MESSAGE_LENGTH} characters and refuses one more`, async () => {
    const atLimit = await t.app.request(
      CONTACT,
      jsonRequest('POST', { ...valid, message: 'x'.repeat(MAX_MESSAGE_LENGTH) }),
    );
    expect(atLimit.status).toBe(200);

    const over = await t.app.request(
      CONTACT,
      jsonRequest('POST', { ...valid, message: 'x'.repeat(MAX_MESSAGE_LENGTH + 1) }),
    );
    expect(over.status).toBe(400);
    expect(((await over.json()) as ErrorBody).error.details).toEqual([
      { path: 'body.message', message: 'Message must be at most 5000 characters' },
    ]);
    expect(await storedCount(t)).toBe(1);
  });

  it('refuses an oversize name, subject or email', async () => {
    const response = await t.app.request(
      CONTACT,
      jsonRequest('POST', {
        ...valid,
        name: 'n'.repeat(201),
        subject: 's'.repeat(201),
        email: `${'e'.repeat(250)}@example.com`,
      }),
    );
    expect(response.status).toBe(400);
    const paths = ((await response.json()) as ErrorBody).error.details?.map((d) => d.path);
    expect(paths).toEqual(expect.arrayContaining(['body.name', 'body.subject', 'body.email']));
  });

  it('accepts a filled honeypot silently: 200, nothing stored, nothing mailed', async () => {
    const response = await t.app.request(
      CONTACT,
      jsonRequest('POST', { ...valid, website: 'https://cheap-pills.example' }),
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
    expect(await storedCount(t)).toBe(0);
    expect(await outbox(t)).toHaveLength(0);
  });

  it(`allows ${contactRateLimit.max} messages per IP, then answers 429 with Retry-After and a human message`, async () => {
    for (let i = 0; i < contactRateLimit.max; i += 1) {
      const ok = await t.app.request(CONTACT, jsonRequest('POST', valid));
      expect(ok.status, `message ${i + 1}`).toBe(200);
    }
    const refused = await t.app.request(CONTACT, jsonRequest('POST', valid));
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(contactRateLimit.windowMs / 1000);
    const { error } = (await refused.json()) as ErrorBody;
    expect(error.code).toBe('RATE_LIMITED');
    expect(error.message).toBe('Too many attempts. Try again in 10 minutes.');
    expect(await storedCount(t)).toBe(contactRateLimit.max);

    // The feedback form has its own budget.
    const feedback = await t.app.request(
      '/api/feedback?endpoint=submit-feedback',
      jsonRequest('POST', { rating: 5, category: 'praise', message: 'Still works' }),
    );
    expect(feedback.status).toBe(200);
  });

  it('counts honeypot submissions against the limit too', async () => {
    for (let i = 0; i < contactRateLimit.max; i += 1) {
      await t.app.request(CONTACT, jsonRequest('POST', { ...valid, website: 'spam' }));
    }
    const refused = await t.app.request(CONTACT, jsonRequest('POST', valid));
    expect(refused.status).toBe(429);
    expect(await storedCount(t)).toBe(0);
  });
});
