/**
 * Azure adapter: the shared conformance suite against a real Azurite, started from its npm
 * package for this file (no Docker, no network), with download URLs fetched from it as SAS URLs.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { appendFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blobInspector, startAzurite, type Azurite } from '../../../tests/fixtures/azurite.ts';
import { blockId, createAzureBlobStorage } from './azure-blob-storage.ts';
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

const MiB = 1024 * 1024;

/** Polls `check` until it holds (Azure's staging runs in the background). */
async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 200; i += 1) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`never happened: ${what}`);
}

describe('Azure Blob Storage specifics', () => {
  let azurite: Azurite;
  let sources: string;
  beforeAll(async () => {
    azurite = await startAzurite();
    sources = await mkdtemp(path.join(tmpdir(), 'satchel-azure-sources-'));
  });
  afterAll(async () => {
    await azurite.stop();
    await rm(sources, { recursive: true, force: true });
  });

  const { blockBlob, uncommitted } = blobInspector(() => azurite.connectionString, 'files');

  it('stages the complete blocks of a growing file ahead; putFile sends the rest and commits them in order', async () => {
    const storage = createAzureBlobStorage({
      connectionString: azurite.connectionString,
      containerName: 'files',
    });
    const bytes = randomBytes(8 * MiB + 1000);
    const name = randomUUID();
    const file = path.join(sources, name);
    await writeFile(file, bytes.subarray(0, 5 * MiB));
    storage.prepareFile(name, file, 5 * MiB);
    await eventually(async () => (await uncommitted(name))?.length === 1, 'block 0 staged');
    await appendFile(file, bytes.subarray(5 * MiB));
    storage.prepareFile(name, file, bytes.length);
    await eventually(async () => (await uncommitted(name))?.length === 2, 'block 1 staged');
    // The last, short block waits for putFile; nothing is a blob yet.
    expect(await storage.stat(name)).toBeNull();
    await storage.putFile(name, file, { contentType: 'application/octet-stream' });
    const { committedBlocks = [] } = await blockBlob(name).getBlockList('committed');
    expect(committedBlocks.map((block) => [block.name, block.size])).toEqual([
      [blockId(0), 4 * MiB],
      [blockId(1), 4 * MiB],
      [blockId(2), 1000],
    ]);
    expect((await blockBlob(name).downloadToBuffer()).equals(bytes)).toBe(true);
  });

  it('abandonFile drops blocks another process staged, and leaves no blob behind', async () => {
    const options = { connectionString: azurite.connectionString, containerName: 'files' };
    const stopped = createAzureBlobStorage(options);
    const name = randomUUID();
    const file = path.join(sources, name);
    await writeFile(file, randomBytes(8 * MiB));
    stopped.prepareFile(name, file, 8 * MiB);
    await eventually(async () => (await uncommitted(name))?.length === 2, 'blocks staged');
    // This process never saw the upload (the one that staged it stopped).
    await createAzureBlobStorage(options).abandonFile(name);
    expect(await uncommitted(name)).toBeNull();
    expect(await blockBlob(name).exists()).toBe(false);
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
