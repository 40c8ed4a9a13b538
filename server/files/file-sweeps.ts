/**
 * The cleanups that keep storage equal to the ledger (file_blob):
 * - bytes of deleted files (a `delete-file`, or a project deleted with its files) go after their
 *   row: the ledger row outlives the file row, and this sweep removes the bytes, then the ledger
 *   row. Deleting bytes inside the delete's transaction could not be rolled back.
 * - partial uploads untouched for a day go (tus expiration);
 * - blobs with no ledger row (a crash between storing the bytes and committing the row) go once
 *   they are a day old, so an upload committing right now is never touched.
 */
import type { Database } from '../db/database.ts';
import type { Logger } from '../logger.ts';
import { forgetBlob, releasedBlobs } from './file-records.ts';
import type { BlobStorage } from './storage/blob-storage.ts';

export const ORPHAN_AGE_MS = 24 * 60 * 60 * 1000;
const BATCH = 500;

export interface FileSweeps {
  /** Removes the bytes of deleted files; how many blobs went. */
  releaseDeleted(): Promise<number>;
  /** Removes stored blobs no file knows, older than ORPHAN_AGE_MS; how many. */
  removeOrphans(now?: Date): Promise<number>;
  /** Every sweep once (expired uploads included). */
  sweepAll(): Promise<void>;
  /** Runs the sweeps on timers until `stop`. */
  start(intervals?: { deletedMs?: number; fullMs?: number }): void;
  stop(): void;
}

export function createFileSweeps(deps: {
  db: Database;
  storage: BlobStorage;
  cleanUpExpiredUploads: () => Promise<number>;
  logger: Logger;
}): FileSweeps {
  const { db, storage, logger } = deps;
  const timers: NodeJS.Timeout[] = [];

  async function releaseDeleted(): Promise<number> {
    let released = 0;
    for (;;) {
      const names = await releasedBlobs(db, BATCH);
      for (const name of names) {
        await storage.delete(name);
        await forgetBlob(db, name);
      }
      released += names.length;
      if (names.length < BATCH) return released;
    }
  }

  async function removeOrphans(now = new Date()): Promise<number> {
    let removed = 0;
    let batch: string[] = [];
    const flush = async () => {
      const { rows } = await db.query<{ blob_name: string }>(
        'SELECT blob_name FROM file_blob WHERE blob_name = ANY($1::text[])',
        [batch],
      );
      const known = new Set(rows.map((row) => row.blob_name));
      for (const name of batch) {
        if (known.has(name)) continue;
        await storage.delete(name);
        removed += 1;
      }
      batch = [];
    };
    for await (const blob of storage.list()) {
      if (now.getTime() - blob.lastModified.getTime() < ORPHAN_AGE_MS) continue;
      batch.push(blob.name);
      if (batch.length >= BATCH) await flush();
    }
    if (batch.length > 0) await flush();
    return removed;
  }

  async function sweepAll(): Promise<void> {
    const released = await releaseDeleted();
    const expired = await deps.cleanUpExpiredUploads();
    const orphans = await removeOrphans();
    if (released + expired + orphans > 0)
      logger.info({ released, expired, orphans }, 'file storage swept');
  }

  /** A sweep that fails is logged and tried again at its next turn; it never stops the server. */
  function every(ms: number, sweep: () => Promise<unknown>): void {
    let running = false;
    const timer = setInterval(() => {
      if (running) return;
      running = true;
      sweep()
        .catch((error: unknown) => logger.error({ err: error }, 'file sweep failed'))
        .finally(() => {
          running = false;
        });
    }, ms);
    timer.unref();
    timers.push(timer);
  }

  return {
    releaseDeleted,
    removeOrphans,
    sweepAll,
    start({ deletedMs = 60_000, fullMs = 60 * 60_000 } = {}) {
      every(deletedMs, releaseDeleted);
      every(fullMs, sweepAll);
    },
    stop() {
      for (const timer of timers.splice(0)) clearInterval(timer);
    },
  };
}
