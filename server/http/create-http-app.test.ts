import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadMigrations } from '../db/migrate.ts';
import { createTestApp, jsonRequest, type TestApp } from '../../tests/fixtures/create-test-app.ts';

const INDEX =
  '<!doctype html><html><head><title>Satchel</title></head><body><div id="root"></div><script type="module" src="/assets/index-abc123.js"></script></body></html>';
const ASSET = `console.log(${JSON.stringify('x'.repeat(4000))});`;

describe('http app', () => {
  let t: TestApp;
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'satchel-dist-'));
    const dist = path.join(root, 'dist');
    await mkdir(path.join(dist, 'assets'), { recursive: true });
    await writeFile(path.join(dist, 'index.html'), INDEX);
    await writeFile(path.join(dist, 'sw.js'), 'self.addEventListener("fetch", () => {});');
    await writeFile(path.join(dist, 'assets', 'index-abc123.js'), ASSET);
    await writeFile(path.join(root, 'secret.txt'), 'top secret');
    t = await createTestApp({ distDir: dist });
  });
  afterEach(async () => {
    await t.cleanup();
    await rm(root, { recursive: true, force: true });
  });

  it('reports database status on /healthz', async () => {
    const response = await t.app.request('/healthz');
    expect(response.status).toBe(200);
    const latest = (await loadMigrations()).at(-1)?.version;
    expect(await response.json()).toMatchObject({
      status: 'ok',
      database: { ok: true, kind: 'pglite', schemaVersion: latest },
    });
  });

  it('sends security headers with a CSP that allows no inline script', async () => {
    const response = await t.app.request('/');
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(/script-src 'self'(;|$)/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(response.headers.get('x-request-id')).toMatch(/^[\w-]{8,}$/);
  });

  it('serves index.html and sw.js uncached and hashed assets immutable', async () => {
    for (const url of ['/', '/sw.js']) {
      const response = await t.app.request(url);
      expect(response.status, url).toBe(200);
      expect(response.headers.get('cache-control'), url).toContain('no-store');
    }
    const asset = await t.app.request('/assets/index-abc123.js');
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(asset.headers.get('content-type')).toContain('text/javascript');
  });

  it('compresses with brotli, else gzip, and answers If-None-Match with 304', async () => {
    const br = await t.app.request('/assets/index-abc123.js', {
      headers: { 'Accept-Encoding': 'gzip, deflate, br' },
    });
    expect(br.headers.get('content-encoding')).toBe('br');
    const compressed = Buffer.from(await br.arrayBuffer());
    expect(compressed.length).toBeLessThan(ASSET.length / 4);
    expect(brotliDecompressSync(compressed).toString()).toBe(ASSET);

    const gz = await t.app.request('/assets/index-abc123.js', {
      headers: { 'Accept-Encoding': 'gzip' },
    });
    expect(gz.headers.get('content-encoding')).toBe('gzip');

    const etag = br.headers.get('etag') ?? '';
    const cached = await t.app.request('/assets/index-abc123.js', {
      headers: { 'If-None-Match': etag },
    });
    expect(cached.status).toBe(304);
  });

  it('falls back to index.html for app paths but never for server paths or missing assets', async () => {
    const app = await t.app.request('/projects/123/activity', { headers: { Accept: 'text/html' } });
    expect(app.status).toBe(200);
    expect(await app.text()).toBe(INDEX);

    for (const url of [
      '/api/unknown',
      '/auth/v1/nothing',
      '/hubs/nothing',
      '/files/nothing',
      '/assets/missing-123.js',
    ]) {
      const response = await t.app.request(url, { headers: { Accept: 'text/html' } });
      expect(response.status, url).toBe(404);
      expect(response.headers.get('content-type'), url).toContain('application/json');
    }
  });

  it('never serves files outside dist', async () => {
    for (const url of ['/..%2fsecret.txt', '/%2e%2e/secret.txt', '/assets/..%2f..%2fsecret.txt']) {
      const response = await t.app.request(url);
      expect(await response.text(), url).not.toContain('top secret');
    }
  });

  it('serves an OpenAPI document generated from the contract', async () => {
    const response = await t.app.request('/api/openapi.json');
    const doc = (await response.json()) as {
      openapi: string;
      paths: Record<string, Record<string, { requestBody?: unknown }>>;
    };
    expect(doc.openapi).toBe('3.1.0');
    const contact = doc.paths['/api/contact?endpoint=submit-contact'];
    expect(contact?.post?.requestBody).toMatchObject({
      content: { 'application/json': { schema: { properties: { email: { format: 'email' } } } } },
    });
    expect(doc.paths['/api/system?endpoint=get-version']?.get).toBeDefined();
  });

  it('gives API errors a no-store cache policy', async () => {
    const response = await t.app.request(
      '/api/contact?endpoint=submit-contact',
      jsonRequest('POST', '{'),
    );
    expect(response.headers.get('cache-control')).toBe('no-store');
  });
});
