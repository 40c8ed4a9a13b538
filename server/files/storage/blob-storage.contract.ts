/**
 * The behaviour every BlobStorage adapter must show, as one vitest suite that each adapter's test
 * file registers with its own factory (local-disk-storage.test.ts, azure-blob-storage.test.ts).
 * The factory also starts whatever answers the adapter's download URLs (this server's route for
 * local disk, Azurite for Azure): the suite GETs them with a plain fetch, as a browser would.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { appendFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import contentDisposition from 'content-disposition';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BlobNotFoundError, type BlobStorage, type DownloadUrlOptions } from './blob-storage.ts';

export interface BlobStorageTarget {
  storage: BlobStorage;
  close(): Promise<void>;
}

const MiB = 1024 * 1024;
const TYPE = { contentType: 'application/octet-stream' };
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the promise to reject');
}

export function describeBlobStorage(
  name: string,
  makeStorage: () => Promise<BlobStorageTarget>,
): void {
  describe(`BlobStorage conformance: ${name}`, () => {
    let target: BlobStorageTarget | undefined;
    let sources = '';
    const storage = (): BlobStorage => {
      if (!target) throw new Error('the storage under test was not created');
      return target.storage;
    };
    /** A file to putFile from, outside the storage. */
    async function sourceFile(bytes: Uint8Array): Promise<string> {
      const file = path.join(sources, randomUUID());
      await writeFile(file, bytes);
      return file;
    }
    async function stored(bytes: Uint8Array, contentType = TYPE.contentType): Promise<string> {
      const blobName = randomUUID();
      await storage().put(blobName, Readable.from([bytes]), { contentType });
      return blobName;
    }
    const linkOptions = (overrides: Partial<DownloadUrlOptions> = {}): DownloadUrlOptions => ({
      expiresAt: new Date(Date.now() + 10 * 60_000),
      downloadFileName: 'Résumé – final.pdf',
      contentType: 'application/pdf',
      inline: false,
      ...overrides,
    });

    beforeAll(async () => {
      target = await makeStorage();
      sources = await mkdtemp(path.join(tmpdir(), 'satchel-blob-sources-'));
    });
    afterAll(async () => {
      await target?.close();
      if (sources) await rm(sources, { recursive: true, force: true });
    });

    it('stores a stream and reads back the same bytes', async () => {
      const bytes = randomBytes(300_000);
      const blobName = await stored(bytes);
      expect(await storage().stat(blobName)).toEqual({ size: bytes.length });
      expect(sha256(await readAll(await storage().read(blobName)))).toBe(sha256(bytes));
    });

    it('stores a file, consuming it, and reads back the same bytes', async () => {
      const bytes = randomBytes(5 * MiB + 123);
      const source = await sourceFile(bytes);
      const blobName = randomUUID();
      await storage().putFile(blobName, source, TYPE);
      expect(existsSync(source)).toBe(false);
      expect(await storage().stat(blobName)).toEqual({ size: bytes.length });
      expect(sha256(await readAll(await storage().read(blobName)))).toBe(sha256(bytes));
    });

    it('reads inclusive ranges: the first byte, the middle, the last byte', async () => {
      const bytes = randomBytes(10_000);
      const blobName = await stored(bytes);
      const read = async (start: number, end: number) =>
        readAll(await storage().read(blobName, { start, end }));
      expect(await read(0, 0)).toEqual(bytes.subarray(0, 1));
      expect(sha256(await read(1000, 5999))).toBe(sha256(bytes.subarray(1000, 6000)));
      expect(await read(9999, 9999)).toEqual(bytes.subarray(9999));
      expect(sha256(await read(0, 9999))).toBe(sha256(bytes));
    });

    it('stores and reads a zero-byte blob, from a stream and from a file', async () => {
      const fromStream = await stored(new Uint8Array(0));
      const fromFile = randomUUID();
      await storage().putFile(fromFile, await sourceFile(new Uint8Array(0)), TYPE);
      for (const blobName of [fromStream, fromFile]) {
        expect(await storage().stat(blobName)).toEqual({ size: 0 });
        expect((await readAll(await storage().read(blobName))).length).toBe(0);
      }
    });

    it('answers a missing blob: stat is null, read rejects with BlobNotFoundError', async () => {
      const missing = randomUUID();
      expect(await storage().stat(missing)).toBeNull();
      expect(await rejectionOf(storage().read(missing))).toBeInstanceOf(BlobNotFoundError);
      const ranged = rejectionOf(storage().read(missing, { start: 0, end: 9 }));
      expect(await ranged).toBeInstanceOf(BlobNotFoundError);
    });

    it('deletes idempotently', async () => {
      const blobName = await stored(randomBytes(100));
      await storage().delete(blobName);
      expect(await storage().stat(blobName)).toBeNull();
      await storage().delete(blobName);
      await storage().delete(randomUUID());
      expect(await rejectionOf(storage().read(blobName))).toBeInstanceOf(BlobNotFoundError);
    });

    it('lists what is stored and not what was deleted', async () => {
      const startedAt = Date.now();
      const kept = await stored(randomBytes(10));
      const fromFile = randomUUID();
      await storage().putFile(fromFile, await sourceFile(randomBytes(10)), TYPE);
      const removed = await stored(randomBytes(10));
      await storage().delete(removed);
      const listed = new Map<string, Date>();
      for await (const blob of storage().list()) listed.set(blob.name, blob.lastModified);
      expect(listed.has(kept)).toBe(true);
      expect(listed.has(fromFile)).toBe(true);
      expect(listed.has(removed)).toBe(false);
      const lastModified = listed.get(kept)!;
      expect(lastModified).toBeInstanceOf(Date);
      // Azure keeps whole seconds; clocks of one machine agree otherwise.
      expect(lastModified.getTime()).toBeGreaterThan(startedAt - 2000);
      expect(lastModified.getTime()).toBeLessThan(Date.now() + 2000);
    });

    it('refuses a name that is not a blob name in every method', async () => {
      const bad = ['../x', 'a/b', randomUUID().toUpperCase(), '', `${randomUUID()}/..`, ' '];
      const source = await sourceFile(randomBytes(10));
      for (const blobName of bad) {
        const calls: [string, () => Promise<unknown>][] = [
          ['put', () => storage().put(blobName, Readable.from([Buffer.from('x')]), TYPE)],
          ['putFile', () => storage().putFile(blobName, source, TYPE)],
          [
            'prepareFile',
            () => new Promise<void>((done) => done(storage().prepareFile(blobName, source, 10))),
          ],
          ['abandonFile', () => storage().abandonFile(blobName)],
          ['stat', () => storage().stat(blobName)],
          ['read', () => storage().read(blobName)],
          ['delete', () => storage().delete(blobName)],
          ['downloadUrl', () => storage().downloadUrl(blobName, linkOptions())],
        ];
        for (const [method, call] of calls) {
          const error = await rejectionOf(call());
          expect(String(error), `${method}(${JSON.stringify(blobName)})`).toMatch(
            /Not a blob name/,
          );
        }
      }
      // A refused putFile leaves its source alone.
      expect(existsSync(source)).toBe(true);
    });

    describe('a file prepared while it grows (an upload still arriving)', () => {
      /** Writes `bytes` into a new file in parts, telling prepareFile after each part. */
      async function growing(blobName: string, bytes: Buffer, parts: number): Promise<string> {
        const file = path.join(sources, randomUUID());
        await writeFile(file, new Uint8Array(0));
        const step = Math.ceil(bytes.length / parts);
        for (let at = 0; at < bytes.length; at += step) {
          await appendFile(file, bytes.subarray(at, at + step));
          storage().prepareFile(blobName, file, Math.min(bytes.length, at + step));
          await sleep(20);
        }
        return file;
      }

      it('is stored whole by putFile, and nothing shows under its name before', async () => {
        const bytes = randomBytes(9 * MiB + 321);
        const blobName = randomUUID();
        const source = await growing(blobName, bytes, 5);
        await sleep(200);
        expect(await storage().stat(blobName)).toBeNull();
        const listed: string[] = [];
        for await (const blob of storage().list()) listed.push(blob.name);
        expect(listed).not.toContain(blobName);
        await storage().putFile(blobName, source, TYPE);
        expect(existsSync(source)).toBe(false);
        expect(await storage().stat(blobName)).toEqual({ size: bytes.length });
        expect(sha256(await readAll(await storage().read(blobName)))).toBe(sha256(bytes));
      });

      it('abandoned, leaves nothing, and the name takes other bytes whole later', async () => {
        const blobName = randomUUID();
        const first = await growing(blobName, randomBytes(9 * MiB), 3);
        await sleep(200);
        await storage().abandonFile(blobName);
        expect(await storage().stat(blobName)).toBeNull();
        // Abandoned again, or never prepared here (another process did): not an error.
        await storage().abandonFile(blobName);
        await storage().abandonFile(randomUUID());
        const other = randomBytes(5 * MiB + 7);
        await storage().putFile(blobName, await sourceFile(other), TYPE);
        expect(await storage().stat(blobName)).toEqual({ size: other.length });
        expect(sha256(await readAll(await storage().read(blobName)))).toBe(sha256(other));
        await rm(first, { force: true });
      });

      it('abandonFile never touches a stored blob', async () => {
        const bytes = randomBytes(6 * MiB);
        const blobName = randomUUID();
        await storage().putFile(blobName, await growing(blobName, bytes, 2), TYPE);
        await storage().abandonFile(blobName);
        expect(await storage().stat(blobName)).toEqual({ size: bytes.length });
        expect(sha256(await readAll(await storage().read(blobName)))).toBe(sha256(bytes));
      });
    });

    it('streams 20 MiB in and out intact', async () => {
      const chunk = 256 * 1024;
      const hash = createHash('sha256');
      function* body(): Generator<Buffer> {
        for (let sent = 0; sent < 20 * MiB; sent += chunk) {
          const bytes = randomBytes(chunk);
          hash.update(bytes);
          yield bytes;
        }
      }
      const blobName = randomUUID();
      await storage().put(blobName, Readable.from(body()), TYPE);
      const written = hash.digest('hex');
      expect(await storage().stat(blobName)).toEqual({ size: 20 * MiB });
      const readBack = createHash('sha256');
      for await (const part of await storage().read(blobName)) {
        readBack.update(part as Uint8Array);
      }
      expect(readBack.digest('hex')).toBe(written);
    });

    describe('download URLs', () => {
      it('answer a plain GET with the bytes, type and download name', async () => {
        const bytes = randomBytes(50_000);
        const blobName = await stored(bytes);
        const response = await fetch(await storage().downloadUrl(blobName, linkOptions()));
        expect(response.status).toBe(200);
        expect(sha256(new Uint8Array(await response.arrayBuffer()))).toBe(sha256(bytes));
        expect(response.headers.get('content-type')).toBe('application/pdf');
        const disposition = contentDisposition.parse(response.headers.get('content-disposition')!);
        expect(disposition).toEqual({
          type: 'attachment',
          parameters: { filename: 'Résumé – final.pdf' },
        });
      });

      it('say inline when asked', async () => {
        const blobName = await stored(Buffer.from('hello'), 'text/plain');
        const url = await storage().downloadUrl(
          blobName,
          linkOptions({ downloadFileName: 'notes.txt', contentType: 'text/plain', inline: true }),
        );
        const response = await fetch(url);
        expect(await response.text()).toBe('hello');
        expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
        expect(contentDisposition.parse(response.headers.get('content-disposition')!)).toEqual({
          type: 'inline',
          parameters: { filename: 'notes.txt' },
        });
      });

      it('answer a Range request with 206 and just those bytes', async () => {
        const bytes = randomBytes(50_000);
        const blobName = await stored(bytes);
        const url = await storage().downloadUrl(blobName, linkOptions());
        const response = await fetch(url, { headers: { Range: 'bytes=0-9' } });
        expect(response.status).toBe(206);
        expect(response.headers.get('content-range')).toBe(`bytes 0-9/${bytes.length}`);
        expect(Buffer.from(await response.arrayBuffer())).toEqual(bytes.subarray(0, 10));
      });

      it('stop working when they expire', async () => {
        const blobName = await stored(randomBytes(100));
        const past = await storage().downloadUrl(
          blobName,
          linkOptions({ expiresAt: new Date(Date.now() - 1000) }),
        );
        const pastResponse = await fetch(past);
        await pastResponse.arrayBuffer();
        expect(pastResponse.status).toBe(403);

        const expiresAt = new Date(Date.now() + 2000);
        const soon = await storage().downloadUrl(blobName, linkOptions({ expiresAt }));
        const fresh = await fetch(soon);
        await fresh.arrayBuffer();
        expect(fresh.status).toBe(200);
        await sleep(expiresAt.getTime() - Date.now() + 1100);
        const stale = await fetch(soon);
        await stale.arrayBuffer();
        expect(stale.status).toBe(403);
      });

      it('stop working when tampered with', async () => {
        const blobName = await stored(randomBytes(100));
        const other = await stored(randomBytes(100));
        const url = new URL(await storage().downloadUrl(blobName, linkOptions()));
        const tampered: URL[] = [];
        // The signature itself.
        const sig = new URL(url);
        const value = sig.searchParams.get('sig')!;
        sig.searchParams.set('sig', `${value.startsWith('A') ? 'B' : 'A'}${value.slice(1)}`);
        tampered.push(sig);
        // Whichever parameter carries the download name (`dn` here, `rscd` on Azure).
        const renamed = new URL(url);
        for (const [key, param] of url.searchParams) {
          if (param.includes('final.pdf')) {
            renamed.searchParams.set(key, param.replace('final.pdf', 'final.exe'));
          }
        }
        expect(renamed.toString()).not.toBe(url.toString());
        tampered.push(renamed);
        // Another blob under the same signature.
        tampered.push(new URL(url.toString().replace(blobName, other)));

        for (const changed of tampered) {
          const response = await fetch(changed);
          await response.arrayBuffer();
          expect(response.status, changed.toString()).toBe(403);
        }
      });
    });
  });
}
