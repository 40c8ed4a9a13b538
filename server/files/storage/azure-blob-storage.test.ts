/**
 * Azure adapter: the shared conformance suite against a real Azurite, started from its npm
 * package for this file (no Docker, no network), with download URLs fetched from it as SAS URLs.
 */
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAzurite, type Azurite } from '../../../tests/fixtures/azurite.ts';
import { createAzureBlobStorage } from './azure-blob-storage.ts';
import { describeBlobStorage } from './blob-storage.contract.ts';

describeBlobStorage('Azure Blob Storage (Azurite)', async () => {
  const azurite = await startAzurite();
  return {
    storage: createAzureBlobStorage({
      connectionString: azurite.connectionString,
      containerName: 'files',
    }),
    close: () => azurite.stop(),
  };
});

describe('Azure Blob Storage specifics', () => {
  let azurite: Azurite;
  beforeAll(async () => {
    azurite = await startAzurite();
  });
  afterAll(async () => {
    await azurite.stop();
  });

  it('creates its container at first use and shares it across instances', async () => {
    const containerName = `c${randomUUID().replaceAll('-', '')}`;
    const first = createAzureBlobStorage({
      connectionString: azurite.connectionString,
      containerName,
    });
    const second = createAzureBlobStorage({
      connectionString: azurite.connectionString,
      containerName,
    });
    const blobName = randomUUID();
    await first.put(blobName, Readable.from([Buffer.from('x')]), { contentType: 'text/plain' });
    expect(await second.stat(blobName)).toEqual({ size: 1 });
  });

  it('signs SAS links for http and https on an http endpoint, https only on an https one', async () => {
    const options = {
      expiresAt: new Date(Date.now() + 60_000),
      downloadFileName: 'a.pdf',
      contentType: 'application/pdf',
      inline: false,
    };
    const local = createAzureBlobStorage({
      connectionString: azurite.connectionString,
      containerName: 'files',
    });
    const sas = new URL(await local.downloadUrl(randomUUID(), options)).searchParams;
    expect(sas.get('spr')).toBe('https,http');
    expect(sas.get('sp')).toBe('r');
    // Valid from five minutes back, for clocks behind ours.
    const startsOn = new Date(sas.get('st')!).getTime();
    expect(Date.now() - startsOn).toBeGreaterThan(4 * 60_000);

    const cloud = createAzureBlobStorage({
      connectionString: azurite.connectionString.replace(
        /BlobEndpoint=[^;]+;/,
        'BlobEndpoint=https://example.blob.core.windows.net;',
      ),
      containerName: 'files',
    });
    const cloudUrl = new URL(await cloud.downloadUrl(randomUUID(), options));
    expect(cloudUrl.protocol).toBe('https:');
    expect(cloudUrl.searchParams.get('spr')).toBe('https');
  });

  it('refuses to sign without an account key', async () => {
    const sasOnly = createAzureBlobStorage({
      connectionString: `BlobEndpoint=${azurite.blobEndpoint};SharedAccessSignature=sv=2020-08-04&sig=x`,
      containerName: 'files',
    });
    await expect(
      sasOnly.downloadUrl(randomUUID(), {
        expiresAt: new Date(Date.now() + 60_000),
        downloadFileName: 'a.pdf',
        contentType: 'application/pdf',
        inline: false,
      }),
    ).rejects.toThrow(/need an AccountKey/);
  });
});
