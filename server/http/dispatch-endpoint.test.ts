import { readdir } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, jsonRequest, type TestApp } from '../../tests/fixtures/create-test-app.ts';
import { AppError, ErrorCode } from './app-error.ts';

const contact = {
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  subject: 'Question about the portal',
  message: 'Can clients download files offline?',
};
const CONTACT = '/api/contact?endpoint=submit-contact';
const FEEDBACK = '/api/feedback?endpoint=submit-feedback';

async function errorOf(response: Response) {
  const body = (await response.json()) as {
    error: { code: string; message: string; details?: unknown; requestId: string };
  };
  expect(Object.keys(body)).toEqual(['error']);
  expect(body.error.requestId).toBe(response.headers.get('x-request-id'));
  return body.error;
}

describe('endpoint dispatcher', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp();
  });
  afterEach(async () => {
    await t.cleanup();
  });

  it('answers an unknown resource, operation or missing endpoint with 404 UNKNOWN_ENDPOINT', async () => {
    for (const url of [
      '/api/nope?endpoint=x',
      '/api/contact?endpoint=nope',
      '/api/contact',
      '/api',
      '/api/a/b',
    ]) {
      const response = await t.app.request(url, { method: 'GET' });
      expect(response.status, url).toBe(404);
      expect((await errorOf(response)).code, url).toBe('UNKNOWN_ENDPOINT');
    }
  });

  it('answers the wrong method with 405 and Allow', async () => {
    const response = await t.app.request(CONTACT, { method: 'GET' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
    expect((await errorOf(response)).code).toBe('METHOD_NOT_ALLOWED');
  });

  it('rejects malformed JSON with 400 MALFORMED_JSON', async () => {
    const response = await t.app.request(CONTACT, jsonRequest('POST', '{"name": "Ada",'));
    expect(response.status).toBe(400);
    expect((await errorOf(response)).code).toBe('MALFORMED_JSON');
  });

  it('rejects a non-JSON body with 415', async () => {
    const response = await t.app.request(CONTACT, {
      method: 'POST',
      body: 'name=Ada',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(response.status).toBe(415);
  });

  it('lists every failing path in VALIDATION_FAILED', async () => {
    const response = await t.app.request(
      CONTACT,
      jsonRequest('POST', {
        name: '',
        email: 'not-an-email',
        subject: 'x',
        message: 'y'.repeat(5001),
      }),
    );
    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(error.code).toBe('VALIDATION_FAILED');
    const paths = (error.details as { path: string }[]).map((d) => d.path);
    expect(paths).toEqual(expect.arrayContaining(['body.name', 'body.email', 'body.message']));
    expect(paths).not.toContain('body.subject');
  });

  it('requires a body where the operation takes one', async () => {
    const response = await t.app.request(CONTACT, { method: 'POST' });
    expect(response.status).toBe(400);
    expect((await errorOf(response)).code).toBe('VALIDATION_FAILED');
  });

  it('rejects unknown query keys with 400', async () => {
    const response = await t.app.request('/api/system?endpoint=get-version&extra=1');
    expect(response.status).toBe(400);
    expect((await errorOf(response)).details).toEqual([
      expect.objectContaining({ path: 'query.extra' }),
    ]);
  });

  it('answers a body over 1 MiB with 413, with or without Content-Length', async () => {
    const big = JSON.stringify({ ...contact, message: 'x'.repeat(1024 * 1024) });
    const withLength = await t.app.request(
      CONTACT,
      jsonRequest('POST', big, { 'Content-Length': String(big.length) }),
    );
    expect(withLength.status).toBe(413);
    expect((await errorOf(withLength)).code).toBe('PAYLOAD_TOO_LARGE');

    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 20; i += 1) controller.enqueue(new Uint8Array(64 * 1024).fill(32));
        controller.close();
      },
    });
    const chunked = await t.app.request(CONTACT, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: stream,
      duplex: 'half',
    });
    expect(chunked.status).toBe(413);
  });

  it('stores a contact message and mails it only after commit', async () => {
    const response = await t.app.request(CONTACT, jsonRequest('POST', contact));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
    const { rows } = await t.db.query<{ email: string }>('SELECT email FROM contact_message');
    expect(rows).toEqual([{ email: 'ada@example.com' }]);
    const mails = await readdir(t.outboxDir);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatch(/\.eml$/);
  });

  it('accepts a filled honeypot silently and stores nothing', async () => {
    const response = await t.app.request(
      CONTACT,
      jsonRequest('POST', { ...contact, website: 'http://spam' }),
    );
    expect(response.status).toBe(200);
    const { rows } = await t.db.query('SELECT * FROM contact_message');
    expect(rows).toHaveLength(0);
  });

  it('refuses any bearer token while no sign-in is configured, and never trusts a body user id', async () => {
    const withToken = await t.app.request(
      FEEDBACK,
      jsonRequest(
        'POST',
        { rating: 5, category: 'praise', message: 'Great' },
        { Authorization: 'Bearer abc' },
      ),
    );
    expect(withToken.status).toBe(401);
    expect((await errorOf(withToken)).code).toBe('UNAUTHORIZED');

    const forged = await t.app.request(
      FEEDBACK,
      jsonRequest('POST', {
        rating: 4,
        category: 'idea',
        message: 'Dark mode',
        userId: '00000000-0000-4000-8000-000000000001',
      }),
    );
    expect(forged.status).toBe(200);
    const { rows } = await t.db.query<{ user_id: string | null }>('SELECT user_id FROM feedback');
    expect(rows).toEqual([{ user_id: null }]);
  });

  it('maps an unexpected error to 500 INTERNAL without stack or SQL', async () => {
    await t.cleanup();
    t = await createTestApp({
      handlers: {
        'system/get-version': () =>
          Promise.reject(
            new Error('relation "secret_table" does not exist: SELECT * FROM secret_table'),
          ),
      },
    });
    const response = await t.app.request('/api/system?endpoint=get-version');
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(text).not.toMatch(/secret_table|SELECT|at .*\.ts/);
    expect((JSON.parse(text) as { error: { code: string } }).error.code).toBe('INTERNAL');
    expect(t.logLines.some((line) => line.msg === 'unhandled error')).toBe(true);
  });

  it('maps a unique violation to 409 and rolls the transaction back', async () => {
    await t.cleanup();
    t = await createTestApp({
      handlers: {
        'contact/submit-contact': async ({ tx }) => {
          const id = '00000000-0000-4000-8000-0000000000aa';
          await tx.query(
            "INSERT INTO contact_message (id, name, email, subject, message) VALUES ($1, 'a', 'a@b.c', 's', 'm')",
            [id],
          );
          await tx.query(
            "INSERT INTO contact_message (id, name, email, subject, message) VALUES ($1, 'a', 'a@b.c', 's', 'm')",
            [id],
          );
          return { ok: true };
        },
      },
    });
    const response = await t.app.request(CONTACT, jsonRequest('POST', contact));
    expect(response.status).toBe(409);
    expect((await errorOf(response)).code).toBe('CONFLICT');
    expect((await t.db.query('SELECT * FROM contact_message')).rows).toHaveLength(0);
  });

  it('maps a database data error (SQLSTATE class 22) to 400 with details, never a 500', async () => {
    await t.cleanup();
    t = await createTestApp({
      handlers: {
        'contact/submit-contact': async ({ tx }) => {
          // A value no schema caught: the database refuses it as a data exception.
          await tx.query(
            "INSERT INTO contact_message (id, name, email, subject, message) VALUES ($1, 'a', 'a@b.c', 's', $2)",
            ['00000000-0000-4000-8000-0000000000ab', 'a\u0000b'],
          );
          return { ok: true };
        },
      },
    });
    const response = await t.app.request(CONTACT, jsonRequest('POST', contact));
    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.details).toEqual([
      expect.objectContaining({ path: 'body', sqlState: expect.stringMatching(/^22/) }),
    ]);
    expect(t.logLines.some((line) => line.msg === 'unhandled error')).toBe(false);
    expect((await t.db.query('SELECT * FROM contact_message')).rows).toHaveLength(0);
  });

  it('runs no after-commit effect when the handler fails', async () => {
    await t.cleanup();
    let ran = false;
    t = await createTestApp({
      handlers: {
        'contact/submit-contact': ({ afterCommit }) => {
          afterCommit(() => {
            ran = true;
            return Promise.resolve();
          });
          return Promise.reject(new AppError(ErrorCode.BUSINESS_RULE, 'No.'));
        },
      },
    });
    const response = await t.app.request(CONTACT, jsonRequest('POST', contact));
    expect(response.status).toBe(422);
    expect(ran).toBe(false);
  });

  describe('Idempotency-Key', () => {
    const key = '7f1d2c3b-4a5e-4f60-8a9b-0c1d2e3f4a5b';

    it('replays the stored response for the same key and payload, applying once', async () => {
      const first = await t.app.request(
        CONTACT,
        jsonRequest('POST', contact, { 'Idempotency-Key': key }),
      );
      const second = await t.app.request(
        CONTACT,
        // Same payload, other key order: still the same request.
        jsonRequest(
          'POST',
          {
            message: contact.message,
            subject: contact.subject,
            email: contact.email,
            name: contact.name,
          },
          { 'Idempotency-Key': key },
        ),
      );
      expect(first.status).toBe(200);
      expect(second.status).toBe(200);
      expect(await second.json()).toEqual(await first.json());
      expect(second.headers.get('idempotent-replayed')).toBe('true');
      expect((await t.db.query('SELECT * FROM contact_message')).rows).toHaveLength(1);
      expect(await readdir(t.outboxDir)).toHaveLength(1);
    });

    it('answers the same key with another payload with 422 IDEMPOTENCY_KEY_REUSED', async () => {
      await t.app.request(CONTACT, jsonRequest('POST', contact, { 'Idempotency-Key': key }));
      const response = await t.app.request(
        CONTACT,
        jsonRequest('POST', { ...contact, subject: 'Other' }, { 'Idempotency-Key': key }),
      );
      expect(response.status).toBe(422);
      expect((await errorOf(response)).code).toBe('IDEMPOTENCY_KEY_REUSED');
      expect((await t.db.query('SELECT * FROM contact_message')).rows).toHaveLength(1);
    });

    it('rejects a key that is not a UUID', async () => {
      const response = await t.app.request(
        CONTACT,
        jsonRequest('POST', contact, { 'Idempotency-Key': 'abc' }),
      );
      expect(response.status).toBe(400);
      expect((await errorOf(response)).code).toBe('IDEMPOTENCY_KEY_INVALID');
    });

    it('applies concurrent requests with one key exactly once', async () => {
      const responses = await Promise.all(
        Array.from({ length: 5 }, () =>
          Promise.resolve(
            t.app.request(CONTACT, jsonRequest('POST', contact, { 'Idempotency-Key': key })),
          ),
        ),
      );
      expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
      expect((await t.db.query('SELECT * FROM contact_message')).rows).toHaveLength(1);
    });

    it('does not store a failed request, so a retry with the key runs again', async () => {
      const bad = await t.app.request(
        CONTACT,
        jsonRequest('POST', { ...contact, email: 'x' }, { 'Idempotency-Key': key }),
      );
      expect(bad.status).toBe(400);
      const good = await t.app.request(
        CONTACT,
        jsonRequest('POST', contact, { 'Idempotency-Key': key }),
      );
      expect(good.status).toBe(200);
    });
  });
});
