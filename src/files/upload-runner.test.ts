import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '@testing-library/react';
import { createAppDatabase, type AppDatabase } from '../db/app-database.ts';
import {
  createFakeNetwork,
  createFakeTusServer,
  keepBlobsInFakeIndexedDb,
  type FakeTusServer,
} from './files-test-fakes.ts';
import { createUploadProgressStore } from './upload-progress.ts';
import {
  pauseUpload,
  queueUploads,
  removeUpload,
  resumeUpload,
  uploadsTable,
  type PickedFile,
} from './upload-queue.ts';
import { startUploadRunner, type UploadRunner } from './upload-runner.ts';

const WS = 'ws-1';
const PROJECT = 'p-1';
let restoreClone: () => void;
beforeAll(() => {
  restoreClone = keepBlobsInFakeIndexedDb();
});
afterAll(() => restoreClone());

const running: UploadRunner[] = [];
afterEach(() => {
  for (const runner of running.splice(0)) runner.stop();
});

function picked(name: string, text: string, type = 'text/plain'): PickedFile {
  const blob = new Blob([text], { type });
  return { name, type, size: blob.size, blob };
}

function setup(options: { online?: boolean } = {}) {
  const db = createAppDatabase('u1', { name: `files-${crypto.randomUUID()}` });
  const server = createFakeTusServer();
  const network = createFakeNetwork(options.online ?? true);
  const progress = createUploadProgressStore(null);
  const tokens: string[] = [];
  const start = () => {
    const runner = startUploadRunner({
      db,
      progress,
      endpoint: 'http://localhost/files/uploads',
      transport: { httpStack: server.httpStack },
      locks: null,
      network,
      getAccessToken: () => {
        tokens.push('t');
        return Promise.resolve('token-1');
      },
      retryDelays: [0],
      waitDelays: [30],
      persistEveryMs: 0,
    });
    running.push(runner);
    return runner;
  };
  return { db, server, network, progress, start };
}

const entry = (db: AppDatabase, id: string) => uploadsTable(db).get(id);
const methods = (server: FakeTusServer) => server.requests.map((request) => request.method);

async function addFileRow(db: AppDatabase, id: string) {
  await db.files.put({
    id,
    workspaceId: WS,
    projectId: PROJECT,
    name: 'brief.txt',
    folder: '',
    visibleToClient: true,
    size: 5,
    type: 'text/plain',
    checksum: '',
    blobName: 'b',
    uploadedBy: 'u1',
    versions: [],
    createdAt: '',
    createdBy: 'u1',
    updatedAt: '',
    updatedBy: 'u1',
    version: 1,
    _v: 1,
    _pending: 0,
    _deleted: false,
    _base: {},
  });
}

describe('upload runner', () => {
  it('sends a queued file with the bearer token and metadata, then waits for its row', async () => {
    const { db, server, progress, start } = setup();
    start();
    const [queued] = await queueUploads(
      db,
      { workspaceId: WS, projectId: PROJECT, folder: 'Briefs' },
      [picked('brief.txt', 'hello')],
    );
    const id = queued!.id;

    await waitFor(async () => expect((await entry(db, id))?.fileId).toBe(id));
    const [upload] = [...server.uploads.values()];
    expect(upload?.metadata).toEqual({
      projectId: PROJECT,
      filename: 'brief.txt',
      filetype: 'text/plain',
      fileId: id,
      folder: 'Briefs',
    });
    expect(await server.textOf(upload!.id)).toBe('hello');
    expect(server.requests.every((r) => r.headers.Authorization === 'Bearer token-1')).toBe(true);
    expect(progress.get(id)).toEqual({ sent: 5, total: 5 });
    expect((await entry(db, id))?.uploadUrl).toBe(`http://localhost/files/uploads/${upload!.id}`);

    // Done, but the list keeps it until the file row arrives by pull.
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(await entry(db, id)).toBeDefined();
    await addFileRow(db, id);
    await waitFor(async () => expect(await entry(db, id)).toBeUndefined());
  });

  it('waits offline, and sends when the network is back', async () => {
    const { db, server, network, start } = setup({ online: false });
    start();
    const [queued] = await queueUploads(db, { workspaceId: WS, projectId: PROJECT, folder: '' }, [
      picked('a.txt', 'abc'),
    ]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(server.requests).toEqual([]);
    expect((await entry(db, queued!.id))?.status).toBe('queued');

    network.set(true);
    await waitFor(async () => expect((await entry(db, queued!.id))?.fileId).not.toBeNull());
    expect(methods(server)).toEqual(['POST', 'PATCH']);
  });

  it('stops sending when the browser goes offline, and resumes from the offset when back', async () => {
    const { db, server, network, start } = setup();
    server.holdPatches = true;
    start();
    const [queued] = await queueUploads(db, { workspaceId: WS, projectId: PROJECT, folder: '' }, [
      picked('site.zip', 'abcdefghij'),
    ]);
    await waitFor(() => expect(methods(server)).toContain('PATCH'));
    network.set(false);
    await waitFor(async () => expect((await entry(db, queued!.id))?.status).toBe('queued'));
    // The dropped connection left the first bytes on the server.
    server.holdPatches = false;
    server.release();
    const [upload] = [...server.uploads.values()];
    upload!.chunks = [new Blob(['abc'])];
    upload!.offset = 3;

    network.set(true);
    await waitFor(async () => expect((await entry(db, queued!.id))?.fileId).not.toBeNull());
    expect(methods(server)).toEqual(['POST', 'PATCH', 'HEAD', 'PATCH']);
    expect(await server.textOf(upload!.id)).toBe('abcdefghij');
  });

  it('resumes a cut upload from the server offset with its saved uploadUrl', async () => {
    const { db, server, start } = setup();
    server.cutNextPatchAt = 4;
    start();
    const [queued] = await queueUploads(db, { workspaceId: WS, projectId: PROJECT, folder: '' }, [
      picked('long.txt', 'abcdefghij'),
    ]);
    await waitFor(async () => expect((await entry(db, queued!.id))?.fileId).not.toBeNull());
    // POST, PATCH cut at 4 bytes, HEAD (offset 4), PATCH of the rest: one upload, whole bytes.
    expect(methods(server)).toEqual(['POST', 'PATCH', 'HEAD', 'PATCH']);
    const [upload] = [...server.uploads.values()];
    expect(await server.textOf(upload!.id)).toBe('abcdefghij');
  });

  it('after a reload, continues at the uploadUrl of the entry (no new upload)', async () => {
    const { db, server, start } = setup();
    server.holdPatches = true;
    const first = start();
    const [queued] = await queueUploads(db, { workspaceId: WS, projectId: PROJECT, folder: '' }, [
      picked('big.txt', '0123456789'),
    ]);
    await waitFor(async () => expect((await entry(db, queued!.id))?.uploadUrl).not.toBeNull());
    await waitFor(() => expect(methods(server)).toContain('PATCH'));
    // The tab goes away mid-request; the connection drops with it.
    first.stop();
    server.holdPatches = false;
    server.release();
    const [upload] = [...server.uploads.values()];
    upload!.chunks = [new Blob(['01234'])];
    upload!.offset = 5;
    server.requests.length = 0;

    start();
    await waitFor(async () => expect((await entry(db, queued!.id))?.fileId).not.toBeNull());
    expect(methods(server)).toEqual(['HEAD', 'PATCH']);
    expect(server.uploads.size).toBe(1);
    expect(await server.textOf(upload!.id)).toBe('0123456789');
  });

  it('marks a refused upload failed with the server message, and does not retry it', async () => {
    const { db, server, start } = setup();
    server.refuseNext('POST', 413, 'Your plan’s 1 GB of storage is full.');
    start();
    const [queued] = await queueUploads(db, { workspaceId: WS, projectId: PROJECT, folder: '' }, [
      picked('huge.bin', 'x'.repeat(20)),
    ]);
    await waitFor(async () => expect((await entry(db, queued!.id))?.status).toBe('failed'));
    expect((await entry(db, queued!.id))?.error).toBe('Your plan’s 1 GB of storage is full.');
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(methods(server)).toEqual(['POST']);
  });

  it('retries a server error later instead of failing', async () => {
    const { db, server, start } = setup();
    server.refuseNext('POST', 503, 'Down for a moment');
    start();
    const [queued] = await queueUploads(db, { workspaceId: WS, projectId: PROJECT, folder: '' }, [
      picked('a.txt', 'abc'),
    ]);
    await waitFor(async () => expect((await entry(db, queued!.id))?.fileId).not.toBeNull());
    expect(methods(server)).toEqual(['POST', 'POST', 'PATCH']);
  });

  it('refuses an empty file before any byte travels', async () => {
    const { db, server, start } = setup();
    start();
    const [queued] = await queueUploads(db, { workspaceId: WS, projectId: PROJECT, folder: '' }, [
      picked('empty.txt', ''),
    ]);
    expect(queued).toMatchObject({ status: 'failed', error: 'The file is empty (0 bytes).' });
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(server.requests).toEqual([]);
  });

  it('pauses and resumes from the offset; cancel aborts and terminates on the server', async () => {
    const { db, server, start } = setup();
    server.holdPatches = true;
    const runner = start();
    const [queued] = await queueUploads(db, { workspaceId: WS, projectId: PROJECT, folder: '' }, [
      picked('a.txt', 'abcdef'),
    ]);
    const id = queued!.id;
    await waitFor(() => expect(methods(server)).toContain('PATCH'));

    await pauseUpload(db, id);
    await waitFor(async () => expect((await entry(db, id))?.status).toBe('paused'));
    server.release();
    server.holdPatches = false;
    await new Promise((resolve) => setTimeout(resolve, 30));
    const [upload] = [...server.uploads.values()];
    expect(upload?.offset).toBe(0);

    server.holdPatches = true;
    await resumeUpload(db, id);
    await waitFor(() => expect(methods(server).filter((m) => m === 'HEAD')).toHaveLength(1));
    await waitFor(() => expect(methods(server).filter((m) => m === 'PATCH')).toHaveLength(2));

    const removed = await removeUpload(db, id);
    await runner.terminate(removed!.uploadUrl!);
    server.release();
    await waitFor(() => expect(server.terminated).toEqual([upload!.id]));
    expect(await entry(db, id)).toBeUndefined();
  });
});
