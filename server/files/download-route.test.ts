/**
 * The local download route through real HTTP, mounted in the real app (createHttpApp) so errors
 * leave in the contract's shape: full and ranged answers, refusals, headers, streaming.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { serve } from '@hono/node-server';
import contentDisposition from 'content-disposition';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyNoTokens } from '../auth/no-token-verifier.ts';
import type { Database } from '../db/database.ts';
import type { AppEnv } from '../http/app-env.ts';
import { createHttpApp } from '../http/create-http-app.ts';
import type { EndpointHandlers } from '../http/endpoint-handler.ts';
import { createLogger } from '../logger.ts';
import { createDownloadRoute, DOWNLOAD_CSP, parseRange } from './download-route.ts';
import { createSignedLinks, type SignedLinkOptions } from './signed-link.ts';
import type { BlobStorage } from './storage/blob-storage.ts';
import { createLocalDiskStorage } from './storage/local-disk-storage.ts';

const MiB = 1024 * 1024;
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** The route needs no database; the app only wraps one for /healthz. */
const noDatabase: Database = {
  kind: 'pglite',
  query: () => Promise.reject(new Error('no database in this test')),
  transaction: () => Promise.reject(new Error('no database in this test')),
  close: () => Promise.resolve(),
};

/** A server on 127.0.0.1:0 answering with whatever `app` is set to once it listens. */
async function listen(): Promise<{
  origin: string;
  setApp(app: Hono<AppEnv>): void;
  close(): Promise<void>;
}> {
  let current: Hono<AppEnv> | null = null;
  const server = await new Promise<Server>((resolve) => {
    const s = serve(
      {
        fetch: (request) =>
          current ? current.fetch(request) : new Response(null, { status: 503 }),
        port: 0,
        hostname: '127.0.0.1',
      },
      () => resolve(s as Server),
    );
  });
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    setApp: (app) => {
      current = app;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

describe('download route', () => {
  const live = new Set<string>();
  const opened: Readable[] = [];
  let dir = '';
  let origin = '';
  let storage: BlobStorage;
  let sign: (options: Partial<SignedLinkOptions> & { blobName: string }) => Promise<string>;
  let close: () => Promise<void>;

  /** Stores bytes as a live file's blob. */
  async function stored(bytes: Uint8Array): Promise<string> {
    const blobName = randomUUID();
    await storage.put(blobName, Readable.from([bytes]), { contentType: 'application/pdf' });
    live.add(blobName);
    return blobName;
  }

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'satchel-download-'));
    const server = await listen();
    origin = server.origin;
    close = () => server.close();
    const secret = new Uint8Array(randomBytes(32));
    const links = createSignedLinks({
      keys: () => Promise.resolve([{ id: 'k1', secret }]),
      publicUrl: origin,
    });
    const disk = createLocalDiskStorage({ dir, links });
    // Records every stream the route opens, to see it closed when a client leaves.
    storage = {
      ...disk,
      read: async (name, range) => {
        const stream = await disk.read(name, range);
        opened.push(stream);
        return stream;
      },
    };
    sign = (options) =>
      links.sign({
        expiresAt: new Date(Date.now() + 10 * 60_000),
        downloadFileName: 'Résumé – final.pdf',
        contentType: 'application/pdf',
        inline: false,
        ...options,
      });
    const logger = createLogger({ level: 'silent' });
    const route = createDownloadRoute({
      storage,
      links,
      isLive: (blobName) => Promise.resolve(live.has(blobName)),
      logger,
    });
    server.setApp(
      createHttpApp({
        db: noDatabase,
        logger,
        handlers: {} as EndpointHandlers,
        verifyAccessToken: verifyNoTokens,
        version: '0.0.0-test',
        publicUrl: origin,
        distDir: null,
        mounts: [{ path: '/files', app: route }],
      }),
    );
  });
  afterAll(async () => {
    await close();
    await rm(dir, { recursive: true, force: true });
  });

  it('answers 200 with the bytes and the headers that keep user content inert', async () => {
    const bytes = randomBytes(10_000);
    const blobName = await stored(bytes);
    const response = await fetch(await sign({ blobName }));
    expect(response.status).toBe(200);
    expect(sha256(new Uint8Array(await response.arrayBuffer()))).toBe(sha256(bytes));
    const headers = response.headers;
    expect(headers.get('content-length')).toBe('10000');
    expect(headers.get('content-type')).toBe('application/pdf');
    expect(contentDisposition.parse(headers.get('content-disposition')!)).toEqual({
      type: 'attachment',
      parameters: { filename: 'Résumé – final.pdf' },
    });
    // ASCII only on the wire: the name itself rides in filename*.
    expect(headers.get('content-disposition')).toBe(
      `attachment; filename="R_sum_ _ final.pdf"; filename*=UTF-8''R%C3%A9sum%C3%A9%20%E2%80%93%20final.pdf`,
    );
    expect(headers.get('x-content-type-options')).toBe('nosniff');
    expect(headers.get('accept-ranges')).toBe('bytes');
    expect(headers.get('etag')).toBe(`"${blobName}-10000"`);
    expect(headers.get('cache-control')).toMatch(/^private, max-age=(59\d|600)$/);
  });

  it('serves inline only when the link says so', async () => {
    const blobName = await stored(Buffer.from('plain words'));
    const response = await fetch(
      await sign({ blobName, inline: true, contentType: 'text/plain', downloadFileName: 'a.txt' }),
    );
    expect(await response.text()).toBe('plain words');
    expect(response.headers.get('content-type')).toBe('text/plain');
    expect(response.headers.get('content-disposition')).toBe('inline; filename="a.txt"');
  });

  it('caps the cache lifetime at an hour and at the link’s own expiry', async () => {
    const blobName = await stored(randomBytes(10));
    const week = await fetch(
      await sign({ blobName, expiresAt: new Date(Date.now() + 7 * 86_400_000) }),
    );
    await week.arrayBuffer();
    expect(week.headers.get('cache-control')).toBe('private, max-age=3600');
    const soon = await fetch(await sign({ blobName, expiresAt: new Date(Date.now() + 30_000) }));
    await soon.arrayBuffer();
    const maxAge = Number(/max-age=(\d+)/.exec(soon.headers.get('cache-control')!)?.[1]);
    expect(maxAge).toBeGreaterThan(25);
    expect(maxAge).toBeLessThanOrEqual(30);
  });

  it('answers single ranges with 206, Content-Range and just those bytes', async () => {
    const bytes = randomBytes(1000);
    const url = await sign({ blobName: await stored(bytes) });
    const cases: [string, number, number][] = [
      ['bytes=0-9', 0, 9],
      ['bytes=500-', 500, 999],
      ['bytes=-50', 950, 999],
      ['bytes=990-5000', 990, 999],
      ['bytes=-5000', 0, 999],
      ['bytes=999-999', 999, 999],
    ];
    for (const [range, start, end] of cases) {
      const response = await fetch(url, { headers: { Range: range } });
      expect(response.status, range).toBe(206);
      expect(response.headers.get('content-range'), range).toBe(`bytes ${start}-${end}/1000`);
      expect(response.headers.get('content-length'), range).toBe(String(end - start + 1));
      expect(Buffer.from(await response.arrayBuffer()), range).toEqual(
        bytes.subarray(start, end + 1),
      );
    }
  });

  it('answers 416 with bytes */size for a range past the end', async () => {
    const url = await sign({ blobName: await stored(randomBytes(1000)) });
    for (const range of ['bytes=1000-', 'bytes=5000-6000', 'bytes=-0']) {
      const response = await fetch(url, { headers: { Range: range } });
      await response.arrayBuffer();
      expect(response.status, range).toBe(416);
      expect(response.headers.get('content-range'), range).toBe('bytes */1000');
    }
  });

  it('serves the whole file for ranges it does not do, or when If-Range names other bytes', async () => {
    const bytes = randomBytes(1000);
    const blobName = await stored(bytes);
    const url = await sign({ blobName });
    for (const headers of [
      { Range: 'bytes=0-9,20-29' },
      { Range: 'items=0-9' },
      { Range: 'bytes=9-0' },
      { Range: 'bytes=0-9', 'If-Range': '"something-else"' },
    ]) {
      const response = await fetch(url, { headers });
      expect(response.status, JSON.stringify(headers)).toBe(200);
      expect(sha256(new Uint8Array(await response.arrayBuffer()))).toBe(sha256(bytes));
    }
    const matching = await fetch(url, {
      headers: { Range: 'bytes=0-9', 'If-Range': `"${blobName}-1000"` },
    });
    expect(matching.status).toBe(206);
    await matching.arrayBuffer();
  });

  it('answers 304 to a cache that already holds the bytes', async () => {
    const blobName = await stored(randomBytes(100));
    const response = await fetch(await sign({ blobName }), {
      headers: { 'If-None-Match': `"${blobName}-100"` },
    });
    expect(response.status).toBe(304);
    expect(response.headers.get('etag')).toBe(`"${blobName}-100"`);
  });

  it('answers HEAD with the headers of the GET and no body, checked alike', async () => {
    const blobName = await stored(randomBytes(2048));
    const url = await sign({ blobName });
    const head = await fetch(url, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe('2048');
    expect(head.headers.get('accept-ranges')).toBe('bytes');
    expect((await head.arrayBuffer()).byteLength).toBe(0);
    const ranged = await fetch(url, { method: 'HEAD', headers: { Range: 'bytes=0-9' } });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get('content-range')).toBe('bytes 0-9/2048');
    const tampered = new URL(url);
    tampered.searchParams.set('ct', 'text/html');
    expect((await fetch(tampered, { method: 'HEAD' })).status).toBe(403);
  });

  it('serves a zero-byte file', async () => {
    const response = await fetch(await sign({ blobName: await stored(new Uint8Array(0)) }));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-length')).toBe('0');
    expect((await response.arrayBuffer()).byteLength).toBe(0);
  });

  describe('refusals, in the contract’s error shape', () => {
    async function refusal(url: string | URL) {
      const response = await fetch(url);
      return {
        status: response.status,
        cacheControl: response.headers.get('cache-control'),
        body: (await response.json()) as { error: { code: string; message: string } },
      };
    }

    it('403 for an expired link', async () => {
      const blobName = await stored(randomBytes(10));
      const answer = await refusal(
        await sign({ blobName, expiresAt: new Date(Date.now() - 1000) }),
      );
      expect(answer.status).toBe(403);
      expect(answer.cacheControl).toBe('no-store');
      expect(answer.body).toEqual({
        error: {
          code: 'FORBIDDEN',
          message: 'This download link has expired.',
          requestId: expect.any(String),
        },
      });
    });

    it('403 for a tampered, foreign-key or malformed link', async () => {
      const blobName = await stored(randomBytes(10));
      const url = new URL(await sign({ blobName }));
      const changed = (name: string, value: string) => {
        const copy = new URL(url);
        copy.searchParams.set(name, value);
        return copy;
      };
      const bad = [
        changed('exp', String(Math.floor(Date.now() / 1000) + 86_400)),
        changed('disp', 'inline'),
        changed('ct', 'text/html'),
        changed('dn', 'other.pdf'),
        changed('kid', 'k0'),
        changed('sig', 'AAAA'),
        new URL(url.toString().replace(blobName, await stored(randomBytes(10)))),
        new URL(`/files/d/${blobName}`, origin),
        new URL(`/files/d/not-a-blob?${url.searchParams.toString()}`, origin),
      ];
      for (const link of bad) {
        const answer = await refusal(link);
        expect(answer.status, link.toString()).toBe(403);
        expect(answer.body.error).toMatchObject({
          code: 'FORBIDDEN',
          message: 'This download link is not valid.',
        });
      }
    });

    it('403 once the file is deleted, even for a link still in date', async () => {
      const blobName = await stored(randomBytes(10));
      const url = await sign({ blobName });
      const before = await fetch(url);
      await before.arrayBuffer();
      expect(before.status).toBe(200);
      live.delete(blobName);
      const answer = await refusal(url);
      expect(answer.status).toBe(403);
      expect(answer.body.error.message).toBe(
        'This file has been deleted; the link no longer works.',
      );
    });

    it('404 when a live file’s bytes are missing from storage', async () => {
      const blobName = randomUUID();
      live.add(blobName);
      const answer = await refusal(await sign({ blobName }));
      expect(answer.status).toBe(404);
      expect(answer.body.error.code).toBe('NOT_FOUND');
    });
  });

  it('streams a 5 MiB file intact, whole and in two ranges', async () => {
    const bytes = randomBytes(5 * MiB);
    const url = await sign({ blobName: await stored(bytes) });
    const whole = await fetch(url);
    expect(whole.headers.get('content-length')).toBe(String(5 * MiB));
    expect(sha256(new Uint8Array(await whole.arrayBuffer()))).toBe(sha256(bytes));
    const half = 2.5 * MiB;
    const first = await fetch(url, { headers: { Range: `bytes=0-${half - 1}` } });
    const second = await fetch(url, { headers: { Range: `bytes=${half}-` } });
    const joined = Buffer.concat([
      Buffer.from(await first.arrayBuffer()),
      Buffer.from(await second.arrayBuffer()),
    ]);
    expect(sha256(joined)).toBe(sha256(bytes));
  });

  it('closes the file when the client leaves mid-download', async () => {
    const url = await sign({ blobName: await stored(randomBytes(20 * MiB)) });
    const abort = new AbortController();
    const response = await fetch(url, { signal: abort.signal });
    const reader = response.body!.getReader();
    await reader.read();
    const stream = opened.at(-1)!;
    abort.abort();
    await expect.poll(() => stream.destroyed, { timeout: 5000 }).toBe(true);
  });

  it('sends a sandbox CSP, so an HTML or SVG file never runs as a page of this origin', async () => {
    // The route alone: the main app's secureHeaders currently replaces it (see the report).
    const blobName = await stored(Buffer.from('<script>alert(1)</script>'));
    const app = new Hono<AppEnv>();
    app.route(
      '/files',
      createDownloadRoute({
        storage,
        links: {
          verify: () =>
            Promise.resolve({
              ok: true,
              blobName,
              downloadFileName: 'x.html',
              contentType: 'text/html',
              inline: true,
              expiresAt: new Date(Date.now() + 60_000),
            }),
        },
        isLive: () => Promise.resolve(true),
      }),
    );
    const response = await app.request(`/files/d/${blobName}`);
    await response.arrayBuffer();
    expect(response.headers.get('content-security-policy')).toBe(DOWNLOAD_CSP);
    expect(DOWNLOAD_CSP).toMatch(/^sandbox; default-src 'none'/);
  });
});

describe('parseRange', () => {
  it('reads the three single-range forms and clamps them to the blob', () => {
    expect(parseRange('bytes=0-0', 10)).toEqual({ kind: 'partial', start: 0, end: 0 });
    expect(parseRange('bytes=3-', 10)).toEqual({ kind: 'partial', start: 3, end: 9 });
    expect(parseRange('bytes=-3', 10)).toEqual({ kind: 'partial', start: 7, end: 9 });
    expect(parseRange('bytes=5-99', 10)).toEqual({ kind: 'partial', start: 5, end: 9 });
  });

  it('calls a range past the end, or any range of an empty blob, unsatisfiable', () => {
    expect(parseRange('bytes=10-', 10)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=-0', 10)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=0-', 0)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=-1', 0)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=99999999999999999999-', 10)).toEqual({ kind: 'unsatisfiable' });
  });

  it('ignores what it does not serve: no header, several ranges, other units, nonsense', () => {
    for (const header of [undefined, 'bytes=0-1,3-4', 'items=0-1', 'bytes=-', 'bytes=5-2', 'x']) {
      expect(parseRange(header, 10), String(header)).toEqual({ kind: 'full' });
    }
  });
});
