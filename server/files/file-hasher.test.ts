/**
 * The hashing worker: a digest is the SHA-256 of the staged file's bytes whatever was followed
 * before (nothing, part, a file that then grew), a file shorter than said is refused, and a worker
 * that stopped is replaced.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { appendFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFileHasher, type FileHasher } from './file-hasher.ts';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('file hasher', () => {
  let dir: string;
  let hasher: FileHasher;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'satchel-hasher-'));
    hasher = createFileHasher();
  });
  afterAll(async () => {
    await hasher.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('follows a file as it grows; the digest is the whole file’s', async () => {
    const bytes = randomBytes(3 * 1024 * 1024 + 11);
    const id = randomUUID();
    const file = path.join(dir, id);
    await writeFile(file, new Uint8Array(0));
    for (let at = 0; at < bytes.length; at += 700_000) {
      await appendFile(file, bytes.subarray(at, at + 700_000));
      hasher.follow(id, file, Math.min(bytes.length, at + 700_000));
    }
    expect(await hasher.digest(id, file, bytes.length)).toBe(sha256(bytes));
  });

  it('hashes a file it never followed from its first byte, as after a restart', async () => {
    const bytes = randomBytes(2 * 1024 * 1024);
    const id = randomUUID();
    const file = path.join(dir, id);
    await writeFile(file, bytes);
    expect(await hasher.digest(id, file, bytes.length)).toBe(sha256(bytes));
  });

  it('refuses a file that holds fewer or more bytes than said, and starts again after', async () => {
    const bytes = randomBytes(100_000);
    const id = randomUUID();
    const file = path.join(dir, id);
    await writeFile(file, bytes.subarray(0, 60_000));
    hasher.follow(id, file, 60_000);
    await expect(hasher.digest(id, file, bytes.length)).rejects.toThrow(
      /holds 60000 bytes, not 100000/,
    );
    await appendFile(file, bytes.subarray(60_000));
    expect(await hasher.digest(id, file, bytes.length)).toBe(sha256(bytes));
    await expect(hasher.digest(id, file, 50_000)).rejects.toThrow(/holds 100000 bytes, not 50000/);
  });

  it('forgets a followed file: a new one under the same id is hashed from its start', async () => {
    const id = randomUUID();
    const file = path.join(dir, id);
    await writeFile(file, randomBytes(50_000));
    hasher.follow(id, file, 50_000);
    hasher.forget(id);
    const other = randomBytes(80_000);
    await writeFile(file, other);
    expect(await hasher.digest(id, file, other.length)).toBe(sha256(other));
  });

  it('starts a new worker after the last one stopped', async () => {
    const own = createFileHasher();
    const bytes = randomBytes(10_000);
    const file = path.join(dir, randomUUID());
    await writeFile(file, bytes);
    expect(await own.digest('a', file, bytes.length)).toBe(sha256(bytes));
    await own.close();
    expect(await own.digest('a', file, bytes.length)).toBe(sha256(bytes));
    await own.close();
  });
});
