/**
 * Local disk adapter: the shared conformance suite (its download URLs served by the real download
 * route on a real HTTP server), plus what only a disk has: the shard layout, no half-written blob
 * under its name, a move across filesystems, and crashed writes' leftovers.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { afterAll, describe, expect, it } from 'vitest';
import type { AppEnv } from '../../http/app-env.ts';
import { isAppError } from '../../http/app-error.ts';
import { createLogger } from '../../logger.ts';
import { createDownloadRoute } from '../download-route.ts';
import { createSignedLinks } from '../signed-link.ts';
import { describeBlobStorage } from './blob-storage.contract.ts';
import type { BlobStorage } from './blob-storage.ts';
import { createLocalDiskStorage } from './local-disk-storage.ts';

const TYPE = { contentType: 'application/octet-stream' };

const tempDirs: string[] = [];
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'satchel-local-blobs-'));
  tempDirs.push(dir);
  return dir;
}
afterAll(async () => {
  await Promise.all(tempDirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

/**
 * Local storage with its download route on a real server at 127.0.0.1. Every blob counts as live:
 * revocation is the route's own test. The app maps an AppError to its status like the main app.
 */
async function servedLocalStorage(): Promise<{ storage: BlobStorage; close(): Promise<void> }> {
  const app = new Hono<AppEnv>();
  const server = await new Promise<Server>((resolve) => {
    const s = serve(
      { fetch: (request) => app.fetch(request), port: 0, hostname: '127.0.0.1' },
      () => resolve(s as Server),
    );
  });
  const publicUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const secret = new Uint8Array(randomBytes(32));
  const links = createSignedLinks({
    keys: () => Promise.resolve([{ id: 'k1', secret }]),
    publicUrl,
  });
  // Growing files are flushed every MiB here, so the conformance suite's 9 MiB ones are.
  const storage = createLocalDiskStorage({
    dir: path.join(await tempDir(), 'files'),
    links,
    flushEveryBytes: 1024 * 1024,
  });
  app.route(
    '/files',
    createDownloadRoute({
      storage,
      links,
      isLive: () => Promise.resolve(true),
      logger: createLogger({ level: 'silent' }),
    }),
  );
  app.onError((error, c) =>
    isAppError(error)
      ? c.json({ error: { code: error.code, message: error.message } }, error.status as 403)
      : c.json({ error: String(error) }, 500),
  );
  return {
    storage,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

describeBlobStorage('local disk', servedLocalStorage);

describe('local disk layout', () => {
  const links = { sign: () => Promise.reject(new Error('not used')) };

  it('shards blobs by their first two characters and keeps nothing else behind', async () => {
    const dir = path.join(await tempDir(), 'files');
    const storage = createLocalDiskStorage({ dir, links });
    const blobName = randomUUID();
    await storage.put(blobName, Readable.from([Buffer.from('hello')]), TYPE);
    expect(await readFile(path.join(dir, blobName.slice(0, 2), blobName), 'utf8')).toBe('hello');
    expect(await readdir(dir)).toEqual([blobName.slice(0, 2)]);
    expect(await readdir(path.join(dir, blobName.slice(0, 2)))).toEqual([blobName]);
  });

  it('leaves no blob, and no temp file, when the stream fails midway', async () => {
    const dir = path.join(await tempDir(), 'files');
    const storage = createLocalDiskStorage({ dir, links });
    const blobName = randomUUID();
    async function* failing() {
      yield randomBytes(64 * 1024);
      await Promise.resolve();
      throw new Error('connection lost');
    }
    await expect(storage.put(blobName, Readable.from(failing()), TYPE)).rejects.toThrow(
      'connection lost',
    );
    expect(await storage.stat(blobName)).toBeNull();
    expect(await readdir(path.join(dir, blobName.slice(0, 2)))).toEqual([]);
  });

  it('moves a file from another filesystem by copy, fsync and unlink', async (context) => {
    const dir = path.join(await tempDir(), 'files');
    const elsewhere = '/dev/shm';
    if (!existsSync(elsewhere) || (await stat(elsewhere)).dev === (await stat(tmpdir())).dev) {
      context.skip(); // needs a second filesystem (tmpfs at /dev/shm on Linux)
    }
    const source = path.join(elsewhere, `satchel-${randomUUID()}`);
    const bytes = randomBytes(1024 * 1024);
    await writeFile(source, bytes);
    const storage = createLocalDiskStorage({ dir, links });
    const blobName = randomUUID();
    try {
      await storage.putFile(blobName, source, TYPE);
    } finally {
      await rm(source, { force: true });
    }
    expect(existsSync(source)).toBe(false);
    // equals(), not toEqual: a deep compare of 1 MiB takes seconds.
    expect((await readFile(path.join(dir, blobName.slice(0, 2), blobName))).equals(bytes)).toBe(
      true,
    );
    expect(await readdir(path.join(dir, blobName.slice(0, 2)))).toEqual([blobName]);
  });

  it('lists only blobs, and clears temp files of writes that died a day ago', async () => {
    const dir = path.join(await tempDir(), 'files');
    const storage = createLocalDiskStorage({ dir, links });
    const blobName = randomUUID();
    await storage.put(blobName, Readable.from([Buffer.from('x')]), TYPE);
    const shard = path.join(dir, blobName.slice(0, 2));
    const stale = path.join(shard, `.${randomUUID()}.0123456789ab.tmp`);
    const fresh = path.join(shard, `.${randomUUID()}.ba9876543210.tmp`);
    await writeFile(stale, 'partial');
    await writeFile(fresh, 'in progress');
    const dayAgo = new Date(Date.now() - 25 * 60 * 60 * 1000);
    await utimes(stale, dayAgo, dayAgo);
    await mkdir(path.join(dir, 'not-a-shard'));
    await writeFile(path.join(shard, 'notes.txt'), 'stray');

    const listed: string[] = [];
    for await (const blob of storage.list()) listed.push(blob.name);
    expect(listed).toEqual([blobName]);
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(fresh)).toBe(true);
  });

  it('lists nothing before the first blob (no folder yet)', async () => {
    const storage = createLocalDiskStorage({ dir: path.join(await tempDir(), 'files'), links });
    const listed: string[] = [];
    for await (const blob of storage.list()) listed.push(blob.name);
    expect(listed).toEqual([]);
  });
});
