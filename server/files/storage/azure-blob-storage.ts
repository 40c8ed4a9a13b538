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
 */
import type { Readable } from 'node:stream';
import { unlink } from 'node:fs/promises';
import {
  BlobSASPermissions,
  BlobServiceClient,
  generateBlobSASQueryParameters,
  SASProtocol,
  StorageSharedKeyCredential,
} from '@azure/storage-blob';
import { assertBlobName, BlobNotFoundError, type BlobStorage } from './blob-storage.ts';
import { contentDispositionHeader } from '../content-disposition-header.ts';

/**
 * Streams are cut into blocks of this size, at most UPLOAD_CONCURRENCY in flight: memory stays
 * near BLOCK_BYTES * (UPLOAD_CONCURRENCY + 1) whatever the file's size (50,000 blocks: 195 GiB).
 */
const BLOCK_BYTES = 4 * 1024 * 1024;
const UPLOAD_CONCURRENCY = 4;
/** Clocks differ: a SAS valid from "now" may be refused by a server a little behind. */
const CLOCK_SKEW_MS = 5 * 60 * 1000;

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

  return {
    kind: 'azure',

    async put(name, body, options) {
      const client = await blob(name);
      await client.uploadStream(body, BLOCK_BYTES, UPLOAD_CONCURRENCY, {
        blobHTTPHeaders: { blobContentType: options.contentType },
      });
    },

    async putFile(name, sourcePath, options) {
      const client = await blob(name);
      // uploadFile reads the file a block at a time; one request only when it is one block.
      await client.uploadFile(sourcePath, {
        blockSize: BLOCK_BYTES,
        concurrency: UPLOAD_CONCURRENCY,
        maxSingleShotSize: BLOCK_BYTES,
        blobHTTPHeaders: { blobContentType: options.contentType },
      });
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

function isBlobName(name: string): boolean {
  try {
    assertBlobName(name);
    return true;
  } catch {
    return false;
  }
}

function statusOf(error: unknown): number | undefined {
  return (error as { statusCode?: number } | null)?.statusCode;
}
