import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../tests/fixtures/create-test-app.ts';

const SHELL =
  '<!doctype html><html><head><title>Satchel</title></head><body><div id="root"></div></body></html>';
const NOT_FOUND =
  '<!doctype html><html><head><title>Page not found — Satchel</title></head><body><div id="prerendered"><h1>Page not found</h1></div><div id="root"></div></body></html>';
/** The app's route list as the build writes it (dist/app-routes.json). */
const APP_ROUTES = [
  '/',
  '/pricing',
  '/features',
  '/subscription/success',
  '/dashboard',
  '/clients',
  '/clients/$id',
  '/projects',
  '/projects/$projectId/$clientId',
  '/projects/$projectId/activity',
];
const page = (name: string) =>
  `<!doctype html><html><head><title>${name} — Satchel</title></head><body><div id="prerendered"><h1>${name}</h1></div><div id="root"></div></body></html>`;

describe('prerendered pages', () => {
  let t: TestApp;
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'satchel-dist-'));
    const dist = path.join(root, 'dist');
    await mkdir(path.join(dist, 'pricing'), { recursive: true });
    await mkdir(path.join(dist, 'features'), { recursive: true });
    await mkdir(path.join(dist, 'subscription', 'success'), { recursive: true });
    await writeFile(path.join(dist, 'index.html'), SHELL);
    await writeFile(path.join(dist, 'home.html'), page('Home'));
    await writeFile(path.join(dist, 'pricing', 'index.html'), page('Pricing'));
    await writeFile(path.join(dist, 'subscription', 'success', 'index.html'), page('Subscribed'));
    await writeFile(path.join(dist, '404.html'), NOT_FOUND);
    await writeFile(path.join(dist, 'app-routes.json'), JSON.stringify(APP_ROUTES));
    await writeFile(path.join(root, 'index.html'), 'outside dist');
    t = await createTestApp({ distDir: dist });
  });
  afterEach(async () => {
    await t.cleanup();
    await rm(root, { recursive: true, force: true });
  });

  it('serves /<path> from <path>/index.html, nested paths and query strings included', async () => {
    for (const [url, name] of [
      ['/pricing', 'Pricing'],
      ['/pricing?interval=year', 'Pricing'],
      ['/subscription/success?session_id=cs_test_123', 'Subscribed'],
    ] as const) {
      const response = await t.app.request(url, { headers: { Accept: 'text/html' } });
      expect(response.status, url).toBe(200);
      expect(response.headers.get('content-type'), url).toBe('text/html; charset=utf-8');
      expect(await response.text(), url).toBe(page(name));
    }
  });

  it('serves the home page from home.html, never the app shell', async () => {
    const response = await t.app.request('/', { headers: { Accept: 'text/html' } });
    expect(await response.text()).toBe(page('Home'));
  });

  it('keeps the app shell for every other app route, and for index.html itself', async () => {
    for (const url of [
      '/dashboard',
      '/Dashboard',
      '/dashboard/',
      '/projects/p1/c1',
      '/projects/p1/activity',
      '/projects/p%201/c1?tab=files',
      '/clients/c-9',
      '/pricing/',
      '/index.html',
    ]) {
      const response = await t.app.request(url, { headers: { Accept: 'text/html' } });
      expect(response.status, url).toBe(200);
      expect(await response.text(), url).toBe(SHELL);
    }
  });

  it('serves the client portal’s pages, its gate and a project page, from client-portal.html', async () => {
    const dist = path.join(root, 'dist');
    await writeFile(path.join(dist, 'client-portal.html'), page('Client portal'));
    for (const [url, name] of [
      ['/client/c1/project/p1', 'Client portal'],
      ['/client/c1/project/p1/', 'Client portal'],
      ['/Client/c%201/Project/p1?x=1', 'Client portal'],
      [
        '/client-access?projectId=p1&clientId=c1&redirect=%2Fclient%2Fc1%2Fproject%2Fp1',
        'Client portal',
      ],
      ['/client-access/', 'Client portal'],
    ] as const) {
      const response = await t.app.request(url, { headers: { Accept: 'text/html' } });
      expect(response.status, url).toBe(200);
      expect(response.headers.get('cache-control'), url).toBe('no-cache');
      expect(await response.text(), url).toBe(page(name));
    }
    // Any deeper path is no page of the portal.
    const deeper = await t.app.request('/client/c1/project/p1/more', {
      headers: { Accept: 'text/html' },
    });
    expect(await deeper.text()).not.toBe(page('Client portal'));
  });

  it('falls back as for any route when the build has no portal page', async () => {
    const response = await t.app.request('/client/c1/project/p1', {
      headers: { Accept: 'text/html' },
    });
    // This test's route list has no portal route: the not-found page.
    expect(response.status).toBe(404);
    expect(await response.text()).toBe(NOT_FOUND);
  });

  it('answers a path that is no app route with 404 and the prerendered not-found page', async () => {
    for (const url of [
      '/no-such-page',
      '/projects/p1',
      '/projects/p1/c1/extra',
      '/clients/c1/edit',
      '/dashboard.html',
      '/pricing/index',
    ]) {
      const response = await t.app.request(url, { headers: { Accept: 'text/html' } });
      expect(response.status, url).toBe(404);
      expect(response.headers.get('content-type'), url).toBe('text/html; charset=utf-8');
      expect(response.headers.get('cache-control'), url).toBe('no-cache');
      expect(await response.text(), url).toBe(NOT_FOUND);
    }
    const head = await t.app.request('/no-such-page', { method: 'HEAD' });
    expect(head.status).toBe(404);
    expect(await head.text()).toBe('');
    // A missing asset stays a bare 404 (a stale chunk must not get HTML).
    const asset = await t.app.request('/assets/gone-abc123.js', {
      headers: { Accept: 'text/html' },
    });
    expect(asset.status).toBe(404);
    expect(asset.headers.get('content-type')).toContain('application/json');
  });

  it('falls back to the app shell for every path when the build wrote no route list', async () => {
    await rm(path.join(root, 'dist', 'app-routes.json'));
    const fresh = await createTestApp({ distDir: path.join(root, 'dist') });
    try {
      const response = await fresh.app.request('/no-such-page', {
        headers: { Accept: 'text/html' },
      });
      expect(response.status).toBe(200);
      expect(await response.text()).toBe(SHELL);
    } finally {
      await fresh.cleanup();
    }
  });

  it('revalidates prerendered pages on every visit and answers a matching ETag with 304', async () => {
    const first = await t.app.request('/pricing');
    expect(first.headers.get('cache-control')).toBe('no-cache');
    const etag = first.headers.get('etag') ?? '';
    expect(etag).not.toBe('');
    const again = await t.app.request('/pricing', { headers: { 'If-None-Match': etag } });
    expect(again.status).toBe(304);
    // The shell keeps its stricter policy.
    expect((await t.app.request('/dashboard')).headers.get('cache-control')).toContain('no-store');
  });

  it('compresses prerendered pages and answers HEAD without a body', async () => {
    const long = `${page('Features').replace('</h1>', `</h1><p>${'Offline. '.repeat(200)}</p>`)}`;
    await writeFile(path.join(root, 'dist', 'features', 'index.html'), long);
    const compressed = await t.app.request('/features', { headers: { 'Accept-Encoding': 'br' } });
    expect(compressed.headers.get('content-encoding')).toBe('br');
    expect(compressed.headers.get('vary')).toBe('Accept-Encoding');
    const head = await t.app.request('/pricing', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });

  it('never escapes dist through a page path', async () => {
    for (const url of ['/..', '/%2e%2e', '/pricing/..%2f..']) {
      const response = await t.app.request(url, { headers: { Accept: 'text/html' } });
      expect(await response.text(), url).not.toContain('outside dist');
    }
  });

  it('leaves API paths alone even when a folder of that name exists', async () => {
    const response = await t.app.request('/api/pricing', { headers: { Accept: 'text/html' } });
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toContain('application/json');
  });
});
