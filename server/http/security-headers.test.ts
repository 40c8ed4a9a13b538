/**
 * The CSP as configured in each mode, and the client address behind (un)trusted proxies as the
 * rate limits see it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, jsonRequest, type TestApp } from '../../tests/fixtures/create-test-app.ts';

function directives(header: string | null): Map<string, string[]> {
  return new Map(
    (header ?? '')
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words): words is [string, ...string[]] => words[0] !== undefined && words[0] !== '')
      .map(([name, ...sources]) => [name, sources]),
  );
}

describe('content security policy', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.cleanup();
    t = undefined;
  });

  it('embedded mode: connects only to its own origin, images from https', async () => {
    t = await createTestApp();
    const csp = directives(
      (await t.app.request('/healthz')).headers.get('content-security-policy'),
    );
    expect(csp.get('connect-src')).toEqual(["'self'"]);
    expect(csp.get('img-src')).toEqual(["'self'", 'data:', 'blob:', 'https:']);
    expect(csp.get('script-src')).toEqual(["'self'"]);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
  });

  it('hosted mode: also the Supabase project over https and its Realtime socket over wss', async () => {
    t = await createTestApp({ hostedSupabaseUrl: 'https://abcd.supabase.co' });
    const response = await t.app.request('/api/system?endpoint=get-version');
    const csp = directives(response.headers.get('content-security-policy'));
    expect(csp.get('connect-src')).toEqual([
      "'self'",
      'https://abcd.supabase.co',
      'wss://abcd.supabase.co',
    ]);
    expect(csp.get('img-src')).toContain('https:');
    expect(csp.get('script-src')).toEqual(["'self'"]);
  });

  it('hosted mode on a local http project allows ws:// for it', async () => {
    t = await createTestApp({ hostedSupabaseUrl: 'http://127.0.0.1:54321' });
    const csp = directives(
      (await t.app.request('/healthz')).headers.get('content-security-policy'),
    );
    expect(csp.get('connect-src')).toEqual([
      "'self'",
      'http://127.0.0.1:54321',
      'ws://127.0.0.1:54321',
    ]);
  });
});

describe('captcha', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.cleanup();
    t = undefined;
  });

  it("admits hCaptcha's script, frame and calls only when a site key is configured", async () => {
    t = await createTestApp({ captcha: true });
    const csp = directives(
      (await t.app.request('/healthz')).headers.get('content-security-policy'),
    );
    for (const directive of ['script-src', 'frame-src', 'connect-src', 'style-src']) {
      expect(csp.get(directive)).toContain('https://*.hcaptcha.com');
    }
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
  });
});

describe('client address for rate limits', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.cleanup();
    t = undefined;
  });

  const contact = { name: 'Ada', email: 'ada@example.com', subject: 'Hello', message: 'Hi there' };
  // What @hono/node-server hands the app for a request from this TCP peer.
  const fromSocket = (address: string) => ({ incoming: { socket: { remoteAddress: address } } });

  async function submitFrom(app: TestApp['app'], socket: string, forwardedFor: string) {
    const response = await app.request(
      '/api/contact?endpoint=submit-contact',
      jsonRequest('POST', contact, { 'X-Forwarded-For': forwardedFor }),
      fromSocket(socket),
    );
    return response.status;
  }

  it('without TRUST_PROXY a spoofed X-Forwarded-For does not change the key', async () => {
    t = await createTestApp();
    const statuses: number[] = [];
    // The contact form allows 5 per window; each try claims a new address.
    for (let i = 1; i <= 6; i += 1)
      statuses.push(await submitFrom(t.app, '203.0.113.9', `1.1.1.${i}`));
    expect(statuses.slice(0, 5).every((s) => s < 300)).toBe(true);
    expect(statuses[5]).toBe(429);
    // Another peer still has its own allowance.
    expect(await submitFrom(t.app, '203.0.113.10', '1.1.1.1')).toBeLessThan(300);
  });

  it('with one trusted proxy the client is the entry the proxy appended', async () => {
    t = await createTestApp({ trustProxyHops: 1 });
    const proxy = '10.0.0.2';
    for (let i = 1; i <= 5; i += 1)
      expect(await submitFrom(t.app, proxy, `9.9.9.9, 198.51.100.7`)).toBeLessThan(300);
    // Forging more entries on the left changes nothing: the proxy's entry is still the key.
    expect(await submitFrom(t.app, proxy, '8.8.8.8, 198.51.100.7')).toBe(429);
    // Another real client behind the same proxy is counted on its own.
    expect(await submitFrom(t.app, proxy, '9.9.9.9, 198.51.100.8')).toBeLessThan(300);
  });
});
