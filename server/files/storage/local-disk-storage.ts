/**
 * File bytes on the server's disk, under DATA_DIR/files: `<dir>/<first two hex chars>/<name>`, so
 * no directory holds more than a 256th of the blobs. A blob appears under its name only whole:
 * bytes go to a dot-named temp file in the same folder, are fsynced, then renamed (atomic on one
 * filesystem), so a crash leaves a temp file, never a short blob. Downloads are HMAC-signed links
 * to this server's /files/d route (signed-link.ts, download-route.ts).
 *
 * An upload still arriving (prepareFile) is flushed to the disk as it grows, one flush at a time,
 * so the disk writes while the network still sends and putFile's fsync has only the tail left.
 */
import { randomBytes } from 'node:crypto';
import { copyFile, mkdir, open, readdir, rename, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { SignedLinks } from '../signed-link.ts';
import { assertBlobName, BlobNotFoundError, isBlobName, type BlobStorage } from './blob-storage.ts';

const SHARD = /^[0-9a-f]{2}$/;
const TEMP = /^\.[0-9a-f-]{36}\.[0-9a-f]{12}\.tmp$/;
/** A temp file this old belongs to a write that died with its process. */
const STALE_TEMP_MS = 24 * 60 * 60 * 1000;
/** A growing upload is flushed each time this many more of its bytes are final. */
const FLUSH_EVERY_BYTES = 32 * 1024 * 1024;

/** An upload still arriving (prepareFile): how far it is flushed, and the flush under way. */
interface Flushing {
  sourcePath: string;
  /** Bytes known final. */
  size: number;
  /** Bytes known on the disk. */
  flushed: number;
  running: Promise<void> | null;
  /** putFile or abandonFile took it over: no new flush starts. */
  closed: boolean;
}

export function createLocalDiskStorage(deps: {
  dir: string;
  links: Pick<SignedLinks, 'sign'>;
  /** FLUSH_EVERY_BYTES unless given (tests flush small files). */
  flushEveryBytes?: number;
}): BlobStorage {
  const { dir } = deps;
  const flushEveryBytes = deps.flushEveryBytes ?? FLUSH_EVERY_BYTES;

  /** The blob's path, after refusing anything but a blob name (nothing may escape `dir`). */
  function blobPath(name: string): string {
    assertBlobName(name);
    return path.join(dir, name.slice(0, 2), name);
  }

  /** A fresh temp path beside the blob's final one, its folder created. */
  async function tempPathFor(name: string): Promise<string> {
    const shard = path.join(dir, name.slice(0, 2));
    await mkdir(shard, { recursive: true });
    return path.join(shard, `.${name}.${randomBytes(6).toString('hex')}.tmp`);
  }

  /** Moves a complete, fsynced file under the blob's name and makes the rename durable. */
  async function commit(from: string, to: string): Promise<void> {
    await rename(from, to);
    await syncDirectory(path.dirname(to));
  }

  const flushing = new Map<string, Flushing>();

  /** Starts a flush of the growing file when enough new bytes are final and none is running. */
  function flushSoon(state: Flushing): void {
    if (state.closed || state.running || state.size - state.flushed < flushEveryBytes) return;
    const upTo = state.size;
    state.running = syncData(state.sourcePath)
      .then(
        () => {
          state.flushed = Math.max(state.flushed, upTo);
        },
        // Not flushed now: putFile's fsync flushes it (and fails there if the disk does).
        () => undefined,
      )
      .finally(() => {
        state.running = null;
        flushSoon(state);
      });
  }

  /** Stops flushing `name`'s growing file, once the flush under way (if any) is done. */
  async function stopFlushing(name: string): Promise<void> {
    const state = flushing.get(name);
    if (!state) return;
    state.closed = true;
    flushing.delete(name);
    await state.running;
  }

  return {
    kind: 'local',

    async put(name, body) {
      const target = blobPath(name);
      const temp = await tempPathFor(name);
      try {
        const file = await open(temp, 'wx');
        try {
          // Written chunk by chunk with backpressure: memory stays flat whatever the size.
          await pipeline(body, async (source: AsyncIterable<Buffer | string>) => {
            for await (const chunk of source) {
              await file.write(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
            }
          });
          await file.sync();
        } finally {
          await file.close();
        }
        await commit(temp, target);
      } catch (error) {
        await removeQuietly(temp);
        throw error;
      }
    },

    prepareFile(name, sourcePath, size) {
      assertBlobName(name);
      let state = flushing.get(name);
      if (!state) {
        state = { sourcePath, size, flushed: 0, running: null, closed: false };
        flushing.set(name, state);
      }
      state.size = Math.max(state.size, size);
      flushSoon(state);
    },

    async abandonFile(name) {
      assertBlobName(name);
      // Nothing left the upload's own file: there is nothing else to drop.
      await stopFlushing(name);
    },

    async putFile(name, sourcePath) {
      const target = blobPath(name);
      await stopFlushing(name);
      await syncFile(sourcePath);
      try {
        // Same filesystem (DATA_DIR/uploads beside DATA_DIR/files): a rename, no copy.
        await mkdir(path.dirname(target), { recursive: true });
        await commit(sourcePath, target);
        return;
      } catch (error) {
        if (errorCode(error) !== 'EXDEV') throw error;
      }
      // Another filesystem: copy beside the target, fsync, rename, then drop the source.
      const temp = await tempPathFor(name);
      try {
        await copyFile(sourcePath, temp);
        await syncFile(temp);
        await commit(temp, target);
      } catch (error) {
        await removeQuietly(temp);
        throw error;
      }
      await unlink(sourcePath);
    },

    async stat(name) {
      try {
        return { size: (await stat(blobPath(name))).size };
      } catch (error) {
        if (errorCode(error) === 'ENOENT') return null;
        throw error;
      }
    },

    async read(name, range) {
      const file = blobPath(name);
      // Opened here, not lazily by the stream, so a missing blob rejects instead of erroring later.
      let handle;
      try {
        handle = await open(file, 'r');
      } catch (error) {
        if (errorCode(error) === 'ENOENT') throw new BlobNotFoundError(name);
        throw error;
      }
      // The stream owns the handle from here and closes it when it ends or is destroyed.
      return handle.createReadStream(range ?? {});
    },

    async delete(name) {
      try {
        await unlink(blobPath(name));
      } catch (error) {
        if (errorCode(error) !== 'ENOENT') throw error;
      }
    },

    async *list() {
      for (const shard of await readdirOrEmpty(dir)) {
        if (!SHARD.test(shard)) continue;
        const shardDir = path.join(dir, shard);
        for (const entry of await readdirOrEmpty(shardDir)) {
          const file = path.join(shardDir, entry);
          const info = await stat(file).catch((error: unknown) => {
            if (errorCode(error) === 'ENOENT') return null; // deleted while we walked
            throw error;
          });
          if (!info) continue;
          if (TEMP.test(entry)) {
            // The orphan sweep's walk is the one place that sees a crashed write's leftovers.
            if (Date.now() - info.mtimeMs > STALE_TEMP_MS) await removeQuietly(file);
            continue;
          }
          if (entry.startsWith(shard) && isBlobName(entry)) {
            yield { name: entry, lastModified: info.mtime };
          }
        }
      }
    },

    async downloadUrl(name, options) {
      assertBlobName(name);
      return deps.links.sign({ blobName: name, ...options });
    },
  };
}

function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | null)?.code;
}

async function readdirOrEmpty(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return [];
    throw error;
  }
}

async function removeQuietly(file: string): Promise<void> {
  await unlink(file).catch(() => {});
}

/** Flushes a file's bytes to disk, so a rename after it never names a file still in cache. */
async function syncFile(file: string): Promise<void> {
  const handle = await open(file, 'r+');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Flushes a file's data (and its size) to disk, without waiting for other metadata. */
async function syncData(file: string): Promise<void> {
  const handle = await open(file, 'r+');
  try {
    await handle.datasync();
  } finally {
    await handle.close();
  }
}

/** Makes a rename in `dir` survive a power cut; Windows cannot open a folder, and needs not. */
async function syncDirectory(dir: string): Promise<void> {
  let handle;
  try {
    handle = await open(dir, 'r');
  } catch {
    return;
  }
  try {
    await handle.sync();
  } catch {
    // Some filesystems refuse fsync on a directory (EINVAL); the rename has happened anyway.
  } finally {
    await handle.close();
  }
}
