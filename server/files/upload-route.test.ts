/**
 * tus uploads into Azure Blob Storage (Azurite from its npm package) over real HTTP: the blocks of
 * an upload still arriving are staged ahead under the upload's id and committed by its last byte,
 * and an upload that ends any other way (terminated, expired, refused at the commit) leaves no
 * blob and no staged block behind. (Uploads to local disk: tests/integration/files.test.ts.)
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Writable } from 'node:stream';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { Upload } from 'tus-js-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blobInspector, startAzurite, type Azurite } from '../../tests/fixtures/azurite.ts';
import {
  createRegisteredUserApp,
  type RegisteredUserApp,
} from '../../tests/fixtures/registered-user.ts';
import type { AppEnv } from '../http/app-env.ts';
import { AppError, ErrorCode } from '../http/app-error.ts';
import { createLogger } from '../logger.ts';
import { blockId, createAzureBlobStorage } from './storage/azure-blob-storage.ts';
import type { BlobStorage } from './storage/blob-storage.ts';
import { createUploadRoute, memberUploads } from './upload-route.ts';

type Json = Record<string, any>;
const MiB = 1024 * 1024;
const CONTAINER = 'uploads';
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('tus uploads to Azure Blob Storage', () => {
  let azurite: Azurite;
  let me: RegisteredUserApp;
  let storage: BlobStorage;
  let route: ReturnType<typeof createUploadRoute>;
  let server: Server;
  let origin: string;
  let projectId: string;
  let uploadDir: string;
  /** Set: the uploader is refused at the commit (as one removed from the workspace meanwhile). */
  let refuseCommits = false;

  const { blockBlob, uncommitted } = blobInspector(() => azurite.connectionString, CONTAINER);
  const eventually = async (check: () => Promise<boolean>, what: string) => {
    for (let i = 0; i < 200; i += 1) {
      if (await check()) return;
      await sleep(50);
    }
    throw new Error(`never happened: ${what}`);
  };
  const storedBlobs = async () => {
    const names: string[] = [];
    for await (const blob of storage.list()) names.push(blob.name);
    return names;
  };
  const staged = async () => readdir(uploadDir).catch(() => [] as string[]);

  const tus = async (method: string, url: string, headers: Record<string, string>, body?: Buffer) =>
    fetch(new URL(url, origin), {
      method,
      headers: {
        'Tus-Resumable': '1.0.0',
        Authorization: `Bearer ${await me.token()}`,
        ...headers,
      },
      ...(body ? { body: new Uint8Array(body) } : {}),
    });
  /** Creates an upload of `size` bytes and sends its first `sent`; its URL and id. */
  const started = async (size: number, sent: Buffer) => {
    const created = await tus('POST', '/files/uploads', {
      'Upload-Length': String(size),
      'Upload-Metadata': `projectId ${Buffer.from(projectId).toString('base64')},filename ${Buffer.from(`${randomUUID()}.bin`).toString('base64')}`,
    });
    expect(created.status).toBe(201);
    const url = created.headers.get('location')!;
    const patched = await tus(
      'PATCH',
      url,
      { 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' },
      sent,
    );
    expect(patched.status).toBe(204);
    return { url, id: url.split('/').pop()! };
  };

  beforeAll(async () => {
    azurite = await startAzurite();
    me = await createRegisteredUserApp();
    const client = await me.call('POST', '/api/client?endpoint=create-client', {
      id: randomUUID(),
      workspaceId: me.workspaceId,
      name: 'Client',
    });
    const project = await me.call('POST', '/api/project?endpoint=create-project', {
      id: randomUUID(),
      workspaceId: me.workspaceId,
      clientId: client.body.client.id,
      name: 'Site',
    });
    projectId = project.body.project.id as string;
    storage = createAzureBlobStorage({
      connectionString: azurite.connectionString,
      containerName: CONTAINER,
    });
    const logger = createLogger({
      level: 'info',
      destination: new Writable({ write: (_chunk, _encoding, done) => done() }),
    });
    const members = memberUploads(me.tokens.verifyAccessToken);
    uploadDir = path.join(me.t.tmp, 'azure-uploads');
    route = createUploadRoute({
      path: '/files/uploads',
      identify: async (req) => {
        const uploader = await members(req);
        return {
          ...uploader,
          workspaceOf: (tx, id) => {
            if (refuseCommits) throw new AppError(ErrorCode.FORBIDDEN, 'Not a member any more.');
            return uploader.workspaceOf(tx, id);
          },
        };
      },
      db: me.t.db,
      storage,
      uploadDir,
      maxFileBytes: 64 * MiB,
      logger,
    });
    const app = new Hono<AppEnv>();
    app.use(async (c, next) => {
      c.set('requestId', randomUUID());
      c.set('logger', logger);
      await next();
    });
    app.route('/files', route.app);
    server = await new Promise<Server>((resolve) => {
      const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () =>
        resolve(s as Server),
      );
    });
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await me.t.cleanup();
    await azurite.stop();
  });

  it('commits the blocks staged while the PATCHes arrived: the bytes and checksum of the row', async () => {
    const data = randomBytes(10 * MiB + 77);
    const fileId = await new Promise<string | null>((resolve, reject) => {
      void me.token().then((token) => {
        const upload = new Upload(data, {
          endpoint: `${origin}/files/uploads`,
          metadata: { projectId, filename: 'Cut.mov', filetype: 'video/quicktime' },
          headers: { Authorization: `Bearer ${token}` },
          chunkSize: 3 * MiB,
          retryDelays: [],
          storeFingerprintForResuming: false,
          onError: reject,
          onSuccess: ({ lastResponse }) =>
            resolve(lastResponse.getHeader('Satchel-File-Id') ?? null),
        });
        upload.start();
      });
    });
    const files = await me.call('GET', `/api/file?endpoint=get-files&projectId=${projectId}`);
    const row = (files.body.files as Json[]).find((file) => file.id === fileId)!;
    expect(row).toMatchObject({ name: 'Cut.mov', size: data.length, checksum: sha256(data) });
    const { blobName } = row.versions[0] as { blobName: string };
    const { committedBlocks = [] } = await blockBlob(blobName).getBlockList('committed');
    expect(committedBlocks.map((block) => [block.name, block.size])).toEqual([
      [blockId(0), 4 * MiB],
      [blockId(1), 4 * MiB],
      [blockId(2), 2 * MiB + 77],
    ]);
    expect(sha256(await blockBlob(blobName).downloadToBuffer())).toBe(sha256(data));
    expect(await staged()).toEqual([]);
  });

  it('a terminated upload leaves no blob and no staged block', async () => {
    const { url, id } = await started(12 * MiB, randomBytes(9 * MiB));
    await eventually(async () => (await uncommitted(id))?.length === 2, 'blocks staged ahead');
    const terminated = await tus('DELETE', url, {});
    expect(terminated.status).toBe(204);
    expect(await uncommitted(id)).toBeNull();
    expect(await storedBlobs()).not.toContain(id);
    expect(await staged()).toEqual([]);
  });

  it('an expired upload leaves no blob and no staged block', async () => {
    const { id } = await started(12 * MiB, randomBytes(9 * MiB));
    await eventually(async () => (await uncommitted(id))?.length === 2, 'blocks staged ahead');
    // Created two days ago, as far as tus knows.
    const record = path.join(uploadDir, `${id}.json`);
    const info = JSON.parse(await readFile(record, 'utf8')) as Json;
    info.creation_date = new Date(Date.now() - 2 * 24 * 60 * 60 * 1000).toISOString();
    await writeFile(record, JSON.stringify(info));
    expect(await route.cleanUpExpired()).toBe(1);
    expect(await uncommitted(id)).toBeNull();
    expect(await storedBlobs()).not.toContain(id);
    expect(await staged()).toEqual([]);
  });

  it('an upload refused at its last byte leaves no blob, no staged block and no row', async () => {
    const data = randomBytes(9 * MiB);
    const { url, id } = await started(data.length, data.subarray(0, 8 * MiB));
    await eventually(async () => (await uncommitted(id))?.length === 2, 'blocks staged ahead');
    refuseCommits = true;
    try {
      const last = await tus(
        'PATCH',
        url,
        { 'Upload-Offset': String(8 * MiB), 'Content-Type': 'application/offset+octet-stream' },
        data.subarray(8 * MiB),
      );
      expect(last.status).toBe(403);
    } finally {
      refuseCommits = false;
    }
    expect(await uncommitted(id)).toBeNull();
    expect(await storedBlobs()).not.toContain(id);
    expect(await staged()).toEqual([]);
    const files = await me.call('GET', `/api/file?endpoint=get-files&projectId=${projectId}`);
    expect((files.body.files as Json[]).map((file) => file.size)).not.toContain(data.length);
  });
});
