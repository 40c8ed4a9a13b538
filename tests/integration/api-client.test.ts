// The real api-client against the real HTTP app in-process: types, success and every failure path.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { submitContact } from '../../contract/endpoints/contact.ts';
import { getVersion } from '../../contract/endpoints/system.ts';
import { loadMigrations } from '../../server/db/migrate.ts';
import { ApiError, createApiClient } from '../../src/api-client/call-endpoint.ts';
import { createTestApp, type TestApp } from '../fixtures/create-test-app.ts';

describe('api-client against the server', () => {
  let t: TestApp;
  let client: ReturnType<typeof createApiClient>;
  beforeEach(async () => {
    t = await createTestApp();
    client = createApiClient({
      baseUrl: 'http://localhost',
      fetch: (input, init) => Promise.resolve(t.app.request(input as string, init)),
    });
  });
  afterEach(async () => {
    await t.cleanup();
  });

  it('returns the parsed output', async () => {
    await expect(client.callEndpoint(getVersion, { query: {} })).resolves.toEqual({
      version: '0.0.0-test',
      schemaVersion: (await loadMigrations()).at(-1)?.version,
    });
  });

  it("rejects with the server's error body", async () => {
    const failure = await client
      .callEndpoint(submitContact, {
        query: {},
        body: { name: 'A', email: 'nope', subject: 'S', message: 'M' },
      })
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(failure).toBeInstanceOf(ApiError);
    const apiError = failure as ApiError;
    expect(apiError.status).toBe(400);
    expect(apiError.body?.error.code).toBe('VALIDATION_FAILED');
    expect(apiError.message).toBe(apiError.body?.error.message);
  });

  it("rejects with 'Something went wrong!' when there is no usable body", async () => {
    const htmlProxy = createApiClient({
      baseUrl: '',
      fetch: () => Promise.resolve(new Response('<html>Bad gateway</html>', { status: 502 })),
    });
    const failure = (await htmlProxy
      .callEndpoint(getVersion, { query: {} })
      .catch((e: unknown) => e)) as ApiError;
    expect(failure.message).toBe('Something went wrong!');
    expect(failure.status).toBe(502);
    expect(failure.body).toBeNull();

    const offline = createApiClient({
      baseUrl: '',
      fetch: () => Promise.reject(new TypeError('Failed to fetch')),
    });
    const network = (await offline
      .callEndpoint(getVersion, { query: {} })
      .catch((e: unknown) => e)) as ApiError;
    expect(network.message).toBe('Something went wrong!');
    expect(network.status).toBe(0);
  });

  it('sends the Idempotency-Key and the bearer token', async () => {
    const seen: Headers[] = [];
    const spy = createApiClient({
      baseUrl: 'http://localhost',
      getAccessToken: () => Promise.resolve('token-1'),
      fetch: (_input, init) => {
        seen.push(new Headers(init?.headers));
        return Promise.resolve(new Response(JSON.stringify({ ok: true }), { status: 200 }));
      },
    });
    await spy.callEndpoint(
      submitContact,
      { query: {}, body: { name: 'A', email: 'a@b.co', subject: 'S', message: 'M' } },
      { idempotencyKey: '7f1d2c3b-4a5e-4f60-8a9b-0c1d2e3f4a5b' },
    );
    expect(seen[0]?.get('authorization')).toBe('Bearer token-1');
    expect(seen[0]?.get('idempotency-key')).toBe('7f1d2c3b-4a5e-4f60-8a9b-0c1d2e3f4a5b');
  });
});
