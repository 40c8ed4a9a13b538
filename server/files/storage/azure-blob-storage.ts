/**
 * File bytes in Azure Blob Storage (or Azurite): one block blob per name in one container, made
 * at first use. Block blobs commit all at once, so a failed upload never leaves a short blob under
 * its name. Downloads are read-only service SAS URLs: the browser fetches straight from Azure, and
 * Azure answers Range, Content-Type and Content-Disposition from the signed `rsct`/`rscd`.
 *
 * Only connection strings with an AccountKey can sign. A user-delegation SAS (managed identity,
 * no key, Microsoft's recommendation) is not implemented: it needs an Entra identity with a role
 * on the account, which neither Azurite nor these tests have, and untested signing code is worse
 * than the clear error the first download link gives.
 *
 * A file is stored as numbered blocks of BLOCK_BYTES, committed at once by putFile. An upload still
 * arriving (prepareFile) has its complete blocks staged while the rest arrives, up to
 * UPLOAD_CONCURRENCY at a time, so putFile sends only what is left (the last block, any block that
 * failed) and commits. Staged blocks are no blob: nothing can read them before the commit, and an
 * upload that ends otherwise drops them (abandonFile), else Azure drops them after a week.
 */
import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { stat, unlink } from 'node:fs/promises';
import {
  BlobSASPermissions,
  BlobServiceClient,
  generateBlobSASQueryParameters,
  SASProtocol,
  StorageSharedKeyCredential,
} from '@azure/storage-blob';
import { assertBlobName, BlobNotFoundError, isBlobName, type BlobStorage } from './blob-storage.ts';
import { contentDispositionHeader } from '../content-disposition-header.ts';

/**
 * Streams and files are cut into blocks of this size, at most UPLOAD_CONCURRENCY in flight (per
 * blob): memory stays near BLOCK_BYTES * (UPLOAD_CONCURRENCY + 1) whatever the size (50,000
 * blocks: 195 GiB).
 */
const BLOCK_BYTES = 4 * 1024 * 1024;
const UPLOAD_CONCURRENCY = 4;
/** Clocks differ: a SAS valid from "now" may be refused by a server a little behind. */
const CLOCK_SKEW_MS = 5 * 60 * 1000;

/** Block `index`'s id: ids of one blob must all have the same length (6 digits: 50,000 blocks). */
export function blockId(index: number): string {
  return Buffer.from(`satchel-block-${String(index).padStart(6, '0')}`).toString('base64');
}

/** A file still arriving (prepareFile): its blocks staged so far and the stages under way. */
interface Staging {
  sourcePath: string;
  /** Bytes of the file known final. */
  size: number;
  /** The next block to stage ahead (every block before it is staged or was tried). */
  next: number;
  /** Blocks staged (a failed one is not: putFile stages it again). */
  staged: Set<number>;
  running: Set<Promise<void>>;
  /** putFile or abandonFile took it over: no new stage starts. */
  closed: boolean;
}

/**
 * Runs `task` for each item (none undefined), `limit` at a time. After a failure no task starts,
 * and it rejects with that failure once the tasks under way are done (nothing runs on after it).
 */
async function eachLimited<T>(
  items: T[],
  limit: number,
  task: (item: T) => Promise<void>,
): Promise<void> {
  const queue = [...items].reverse();
  const failures: unknown[] = [];
  const worker = async () => {
    for (let item = queue.pop(); item !== undefined && failures.length === 0; item = queue.pop()) {
      try {
        await task(item);
      } catch (error) {
        failures.push(error);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failures.length > 0) throw failures[0];
}

export function createAzureBlobStorage(deps: {
  connectionString: string;
  containerName: string;
}): BlobStorage {
  const service = BlobServiceClient.fromConnectionString(deps.connectionString);
  const container = service.getContainerClient(deps.containerName);
  const https = new URL(service.url).protocol === 'https:';

  let ready: Promise<void> | null = null;
  /** Creates the container once per process; a failure is retried by the next call. */
  function ensureContainer(): Promise<void> {
    ready ??= container.createIfNotExists().then(
      () => undefined,
      (error: unknown) => {
        ready = null;
        throw error;
      },
    );
    return ready;
  }

  async function blob(name: string) {
    assertBlobName(name);
    await ensureContainer();
    return container.getBlockBlobClient(name);
  }

  /**
   * Stages block `index` of a file: its `length` (> 0) bytes, read in one go (one write to the
   * socket, not 64 small ones: the event loop that receives the upload sends its blocks too).
   */
  async function stageBlock(name: string, sourcePath: string, index: number, length: number) {
    const client = await blob(name);
    const start = index * BLOCK_BYTES;
    // A factory, not a stream: the SDK's retry policy reads the block again from the file.
    const body = () =>
      createReadStream(sourcePath, { start, end: start + length - 1, highWaterMark: length });
    await client.stageBlock(blockId(index), body, length);
  }

  const staging = new Map<string, Staging>();

  /** Starts stages of complete, final blocks while fewer than UPLOAD_CONCURRENCY run. */
  function stageSoon(name: string, state: Staging): void {
    while (
      !state.closed &&
      state.running.size < UPLOAD_CONCURRENCY &&
      (state.next + 1) * BLOCK_BYTES <= state.size
    ) {
      const index = state.next;
      state.next += 1;
      const run: Promise<void> = stageBlock(name, state.sourcePath, index, BLOCK_BYTES)
        .then(
          () => {
            state.staged.add(index);
          },
          // Left for putFile, which stages it again and fails there if Azure still refuses.
          () => undefined,
        )
        .finally(() => {
          state.running.delete(run);
          stageSoon(name, state);
        });
      state.running.add(run);
    }
  }

  /** Stops staging ahead for `name`, once the stages under way are done; what was staged. */
  async function stopStaging(name: string): Promise<Staging | undefined> {
    const state = staging.get(name);
    if (!state) return undefined;
    state.closed = true;
    staging.delete(name);
    while (state.running.size > 0) await Promise.all(state.running);
    return state;
  }

  /**
   * Drops the uncommitted blocks of `name`, where no blob is stored under it: committing an empty
   * block list discards every uncommitted block, and the empty blob it makes goes at once (only
   * that one: the delete is conditional on its ETag). A blob already stored is left alone.
   */
  async function dropStagedBlocks(name: string): Promise<void> {
    const client = await blob(name);
    let etag: string | undefined;
    try {
      ({ etag } = await client.commitBlockList([], { conditions: { ifNoneMatch: '*' } }));
    } catch (error) {
      const status = statusOf(error);
      if (status === 409 || status === 412) return; // a stored blob: not ours to touch
      throw error;
    }
    // (No ETag, never seen: the empty blob stays for the orphan sweep.)
    if (etag === undefined) return;
    try {
      await client.delete({ conditions: { ifMatch: etag } });
    } catch (error) {
      const status = statusOf(error);
      if (status !== 404 && status !== 412) throw error;
    }
  }

  return {
    kind: 'azure',

    async put(name, body, options) {
      const client = await blob(name);
      await client.uploadStream(body, BLOCK_BYTES, UPLOAD_CONCURRENCY, {
        blobHTTPHeaders: { blobContentType: options.contentType },
      });
    },

    prepareFile(name, sourcePath, size) {
      assertBlobName(name);
      let state = staging.get(name);
      if (!state) {
        state = {
          sourcePath,
          size,
          next: 0,
          staged: new Set(),
          running: new Set(),
          closed: false,
        };
        staging.set(name, state);
      }
      state.size = Math.max(state.size, size);
      stageSoon(name, state);
    },

    async abandonFile(name) {
      assertBlobName(name);
      const state = await stopStaging(name);
      // This process staged nothing for it: no request needed. Unknown here (another process
      // staged it, then stopped): drop whatever may be there.
      if (state?.next === 0) return;
      await dropStagedBlocks(name);
    },

    async putFile(name, sourcePath, options) {
      const client = await blob(name);
      const ahead = await stopStaging(name);
      const { size } = await stat(sourcePath);
      const blobHTTPHeaders = { blobContentType: options.contentType };
      if (!ahead?.staged.size && size <= BLOCK_BYTES) {
        // One block: one request.
        await client.uploadFile(sourcePath, { maxSingleShotSize: BLOCK_BYTES, blobHTTPHeaders });
      } else {
        const count = Math.ceil(size / BLOCK_BYTES);
        const indexes = Array.from({ length: count }, (_, index) => index);
        try {
          await eachLimited(
            indexes.filter((index) => !ahead?.staged.has(index)),
            UPLOAD_CONCURRENCY,
            (index) =>
              stageBlock(
                name,
                sourcePath,
                index,
                Math.min(BLOCK_BYTES, size - index * BLOCK_BYTES),
              ),
          );
          // The blob appears here, whole.
          await client.commitBlockList(indexes.map(blockId), { blobHTTPHeaders });
        } catch (error) {
          await dropStagedBlocks(name).catch(() => undefined);
          throw error;
        }
      }
      await unlink(sourcePath);
    },

    async stat(name) {
      const client = await blob(name);
      try {
        const properties = await client.getProperties();
        return { size: properties.contentLength ?? 0 };
      } catch (error) {
        if (statusOf(error) === 404) return null;
        throw error;
      }
    },

    async read(name, range) {
      const client = await blob(name);
      try {
        const response = range
          ? await client.download(range.start, range.end - range.start + 1)
          : await client.download();
        const body = response.readableStreamBody;
        if (!body) throw new Error('The Azure SDK gave no Node stream for a download.');
        return body as Readable;
      } catch (error) {
        if (statusOf(error) === 404) throw new BlobNotFoundError(name);
        throw error;
      }
    },

    async delete(name) {
      const client = await blob(name);
      await client.deleteIfExists();
    },

    async *list() {
      await ensureContainer();
      for await (const item of container.listBlobsFlat()) {
        // Only what this adapter could have written: the sweep deletes what it is given.
        if (!isBlobName(item.name)) continue;
        yield { name: item.name, lastModified: item.properties.lastModified };
      }
    },

    // eslint-disable-next-line @typescript-eslint/require-await -- async so a bad name rejects
    async downloadUrl(name, options) {
      assertBlobName(name);
      const credential = service.credential;
      if (!(credential instanceof StorageSharedKeyCredential)) {
        throw new Error(
          'Azure download links need an AccountKey in AZURE_STORAGE_CONNECTION_STRING (user-delegation SAS is not implemented).',
        );
      }
      const sas = generateBlobSASQueryParameters(
        {
          containerName: deps.containerName,
          blobName: name,
          permissions: BlobSASPermissions.parse('r'),
          startsOn: new Date(Date.now() - CLOCK_SKEW_MS),
          expiresOn: options.expiresAt,
          // Azurite speaks http; a real account is https and its links must be too.
          protocol: https ? SASProtocol.Https : SASProtocol.HttpsAndHttp,
          contentType: options.contentType,
          contentDisposition: contentDispositionHeader(options.downloadFileName, options.inline),
        },
        credential,
      );
      return `${container.getBlockBlobClient(name).url}?${sas.toString()}`;
    },
  };
}

function statusOf(error: unknown): number | undefined {
  return (error as { statusCode?: number } | null)?.statusCode;
}
