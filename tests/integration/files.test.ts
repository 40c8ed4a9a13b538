// Project files end to end over real HTTP: tus uploads with the real tus-js-client (resume after a
// cut connection, versions, duplicates), every refusal of bad input leaving no bytes and no row,
// signed download links (bytes compared by checksum, tampering, revocation), isolation between
// workspaces, storage use and the sweep that removes deleted files' bytes.
import { createHash, randomUUID } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { serve } from '@hono/node-server';
import { Upload } from 'tus-js-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRegisteredUserApp, type RegisteredUserApp } from '../fixtures/registered-user.ts';
import { newTestUser } from '../fixtures/test-tokens.ts';

type Json = Record<string, any>;
const MAX_FILE_BYTES = 8 * 1024 * 1024;

function bytes(size: number, seed = 1): Buffer {
  const out = Buffer.alloc(size);
  let x = seed;
  for (let i = 0; i < size; i += 1) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    out[i] = x & 0xff;
  }
  return out;
}

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

function metadataHeader(meta: Record<string, string>): string {
  return Object.entries(meta)
    .map(([key, value]) => `${key} ${Buffer.from(value).toString('base64')}`)
    .join(',');
}

describe('files', () => {
  let me: RegisteredUserApp;
  let other: RegisteredUserApp;
  let server: ReturnType<typeof serve>;
  let origin: string;
  let projectId: string;
  let otherProjectId: string;

  const createProject = async (who: RegisteredUserApp, name: string) => {
    const client = await who.call('POST', '/api/client?endpoint=create-client', {
      id: randomUUID(),
      workspaceId: who.workspaceId,
      name: `${name} client`,
    });
    const project = await who.call('POST', '/api/project?endpoint=create-project', {
      id: randomUUID(),
      workspaceId: who.workspaceId,
      clientId: client.body.client.id,
      name,
    });
    expect(project.status).toBe(200);
    return project.body.project.id as string;
  };

  /** Uploads with the real tus client; resolves with the file id the server answered. */
  const upload = (
    data: Buffer,
    meta: Record<string, string>,
    options: { token?: string; uploadUrl?: string; chunkSize?: number } = {},
  ) =>
    new Promise<{ fileId: string | null; url: string | null }>((resolve, reject) => {
      void (async () => {
        const token = options.token ?? (await me.token());
        const tus = new Upload(data, {
          endpoint: `${origin}/files/uploads`,
          ...(options.uploadUrl ? { uploadUrl: options.uploadUrl } : {}),
          metadata: meta,
          headers: { Authorization: `Bearer ${token}` },
          ...(options.chunkSize ? { chunkSize: options.chunkSize } : {}),
          retryDelays: [],
          storeFingerprintForResuming: false,
          onError: reject,
          onSuccess: (payload) =>
            resolve({
              fileId: payload.lastResponse.getHeader('Satchel-File-Id') ?? null,
              url: tus.url,
            }),
        });
        tus.start();
      })();
    });

  const tusRequest = async (
    method: string,
    url: string,
    headers: Record<string, string>,
    body?: Buffer,
  ) => {
    const response = await fetch(url.startsWith('http') ? url : `${origin}${url}`, {
      method,
      headers: {
        'Tus-Resumable': '1.0.0',
        Authorization: `Bearer ${await me.token()}`,
        ...headers,
      },
      ...(body ? { body: new Uint8Array(body) } : {}),
    });
    const text = await response.text();
    return {
      status: response.status,
      headers: response.headers,
      body: (text.startsWith('{') ? JSON.parse(text) : { text }) as Json,
    };
  };

  /** Links are absolute under PUBLIC_URL (http://x here); the test's server stands in for it. */
  const here = (url: string) => {
    const parsed = new URL(url);
    expect(parsed.origin).toBe('http://x');
    return `${origin}${parsed.pathname}${parsed.search}`;
  };

  const files = async (who = me, project = projectId) =>
    who.call('GET', `/api/file?endpoint=get-files&projectId=${project}`);

  const download = async (fileId: string, extra = '') => {
    const link = await me.call(
      'GET',
      `/api/file?endpoint=get-download-url&id=${fileId}&expiryMinutes=5${extra}`,
    );
    expect(link.status).toBe(200);
    const response = await fetch(here(link.body.url as string));
    return { link: link.body, response, data: Buffer.from(await response.arrayBuffer()) };
  };

  const storedBlobs = async () => {
    const names: string[] = [];
    for await (const blob of me.t.files.storage.list()) names.push(blob.name);
    return names;
  };
  const stagedUploads = async () =>
    (await readdir(path.join(me.t.tmp, 'uploads')).catch(() => [] as string[])).filter(
      (name) => !name.endsWith('.json'),
    );

  beforeAll(async () => {
    me = await createRegisteredUserApp({ maxFileBytes: MAX_FILE_BYTES, publicUrl: 'http://x' });
    other = await createRegisteredUserApp();
    server = serve({ fetch: me.t.app.fetch, port: 0, hostname: '127.0.0.1' });
    await new Promise((resolve) => server.once('listening', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    projectId = await createProject(me, 'Site');
    otherProjectId = await createProject(other, 'Theirs');
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await other.t.cleanup();
    await me.t.cleanup();
  });

  it('uploads in chunks, writes the row with its checksum, and the signed link gives the bytes', async () => {
    const data = bytes(3 * 1024 * 1024 + 17);
    const proposed = randomUUID();
    const done = await upload(
      data,
      { projectId, filename: 'Brief – v1.pdf', filetype: 'application/pdf', fileId: proposed },
      { chunkSize: 1024 * 1024 },
    );
    expect(done.fileId).toBe(proposed);
    const listed = await files();
    expect(listed.status).toBe(200);
    const row = listed.body.files.find((file: Json) => file.id === proposed);
    expect(row).toMatchObject({
      name: 'Brief – v1.pdf',
      folder: '',
      size: data.length,
      type: 'application/pdf',
      checksum: sha256(data),
      uploadedBy: me.user.id,
      visibleToClient: true,
    });
    expect(row.versions).toHaveLength(1);
    const got = await download(proposed);
    expect(got.response.status).toBe(200);
    expect(sha256(got.data)).toBe(sha256(data));
    expect(got.response.headers.get('content-disposition')).toContain('attachment');
    expect(got.response.headers.get('x-content-type-options')).toBe('nosniff');
    // The file's own sandboxing CSP, not the app's: a served file never runs as our page.
    expect(got.response.headers.get('content-security-policy')).toMatch(/^sandbox;/);
    expect(await stagedUploads()).toEqual([]);
  });

  it('takes a whole file in the creating POST (creation-with-upload) and answers 201 with its id', async () => {
    const data = bytes(64 * 1024, 3);
    const created = await tusRequest(
      'POST',
      '/files/uploads',
      {
        'Upload-Length': String(data.length),
        'Upload-Metadata': metadataHeader({ projectId, filename: 'one-go.bin' }),
        'Content-Type': 'application/offset+octet-stream',
      },
      data,
    );
    expect(created.status).toBe(201);
    const fileId = created.headers.get('Satchel-File-Id') as string;
    const row = (await files()).body.files.find((file: Json) => file.id === fileId);
    expect(row).toMatchObject({ name: 'one-go.bin', size: data.length, checksum: sha256(data) });
    expect(await stagedUploads()).toEqual([]);
  });

  it('resumes after the connection is cut mid-PATCH, and the bytes arrive intact', async () => {
    const data = bytes(2 * 1024 * 1024, 7);
    const created = await tusRequest('POST', '/files/uploads', {
      'Upload-Length': String(data.length),
      'Upload-Metadata': metadataHeader({ projectId, filename: 'cut.bin' }),
    });
    expect(created.status).toBe(201);
    const location = created.headers.get('location') as string;
    const url = new URL(location, origin).toString();
    // A PATCH whose connection dies after 700 KiB: the server keeps what arrived.
    const token = await me.token();
    await new Promise<void>((resolve) => {
      const req = httpRequest(url, {
        method: 'PATCH',
        headers: {
          'Tus-Resumable': '1.0.0',
          'Upload-Offset': '0',
          'Content-Type': 'application/offset+octet-stream',
          Authorization: `Bearer ${token}`,
        },
      });
      req.on('error', () => resolve());
      req.write(data.subarray(0, 700 * 1024), () => {
        setTimeout(() => {
          req.destroy();
          resolve();
        }, 200);
      });
    });
    let offset = 0;
    for (let i = 0; i < 50 && offset === 0; i += 1) {
      const head = await tusRequest('HEAD', url, {});
      offset = Number(head.headers.get('upload-offset'));
      if (offset === 0) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(offset).toBeGreaterThan(0);
    expect(offset).toBeLessThan(data.length);
    const done = await upload(data, { projectId, filename: 'cut.bin' }, { uploadUrl: url });
    expect(done.fileId).toBeTruthy();
    const got = await download(done.fileId as string);
    expect(sha256(got.data)).toBe(sha256(data));
  });

  it('a finished upload answers its HEAD as complete with the file id: a device that missed the last answer ends it without sending again', async () => {
    const data = bytes(300 * 1024, 21);
    const meta = { projectId, filename: 'missed-answer.bin' };
    const first = await upload(data, meta, { chunkSize: 100 * 1024 });
    expect(first.fileId).toBeTruthy();
    const url = first.url as string;
    const head = await tusRequest('HEAD', url, {});
    expect(head.status).toBe(200);
    expect(head.headers.get('upload-offset')).toBe(String(data.length));
    expect(head.headers.get('upload-length')).toBe(String(data.length));
    expect(head.headers.get('satchel-file-id')).toBe(first.fileId);
    // The device resumes from its saved upload URL: tus-js-client's HEAD says done, no PATCH.
    const patches: string[] = [];
    const resumed = await new Promise<string | null>((resolve, reject) => {
      void (async () => {
        const tus = new Upload(data, {
          uploadUrl: url,
          metadata: meta,
          headers: { Authorization: `Bearer ${await me.token()}` },
          retryDelays: [],
          storeFingerprintForResuming: false,
          onBeforeRequest: (request) => {
            patches.push(request.getMethod());
          },
          onError: reject,
          onSuccess: ({ lastResponse }) =>
            resolve(lastResponse.getHeader('Satchel-File-Id') ?? null),
        });
        tus.start();
      })();
    });
    expect(resumed).toBe(first.fileId);
    expect(patches).toEqual(['HEAD']);
    const row = (await files()).body.files.find((file: Json) => file.id === first.fileId);
    expect(row.versions).toHaveLength(1);
    // Someone who may not add files to the project learns nothing of it.
    const eve = await me.tokens.sign(newTestUser('eve'));
    const theirs = await fetch(url, {
      method: 'HEAD',
      headers: { 'Tus-Resumable': '1.0.0', Authorization: `Bearer ${eve}` },
    });
    expect(theirs.status).toBe(404);
  });

  it('a second upload of a name makes a version; the same bytes again add nothing', async () => {
    const first = bytes(1000, 11);
    const second = bytes(2000, 12);
    const a = await upload(first, { projectId, filename: 'logo.png', filetype: 'image/png' });
    const b = await upload(second, { projectId, filename: 'LOGO.png', filetype: 'image/png' });
    expect(b.fileId).toBe(a.fileId);
    const again = await upload(second, { projectId, filename: 'logo.png', filetype: 'image/png' });
    expect(again.fileId).toBe(a.fileId);
    const row = (await files()).body.files.find((file: Json) => file.id === a.fileId);
    expect(row.versions.map((version: Json) => version.number)).toEqual([1, 2]);
    expect(row.size).toBe(2000);
    expect(sha256((await download(a.fileId as string)).data)).toBe(sha256(second));
    expect(sha256((await download(a.fileId as string, '&version=1')).data)).toBe(sha256(first));
    const inline = await download(a.fileId as string, '&inline=true');
    expect(inline.response.headers.get('content-disposition')).toMatch(/^inline/);
    // Both versions' bytes are stored, and nothing else from the duplicate.
    const blobs = await storedBlobs();
    for (const version of row.versions) expect(blobs).toContain(version.blobName);
  });

  it('refuses bad input with clear 4xx errors, leaving no bytes and no row', async () => {
    const before = {
      files: (await files()).body.files.length,
      blobs: (await storedBlobs()).length,
    };
    const create = (meta: Record<string, string>, length: number) =>
      tusRequest('POST', '/files/uploads', {
        'Upload-Length': String(length),
        'Upload-Metadata': metadataHeader(meta),
      });
    const traversal = await create({ projectId, filename: '../../etc/passwd' }, 10);
    expect(traversal.status).toBe(400);
    expect(traversal.body).toMatchObject({
      error: { code: 'VALIDATION_FAILED', message: 'A file name cannot contain / or \\' },
    });
    const folderTraversal = await create({ projectId, filename: 'a.txt', folder: '../x' }, 10);
    expect(folderTraversal.status).toBe(400);
    const long = await create({ projectId, filename: `${'a'.repeat(1000)}.txt` }, 10);
    expect(long.status).toBe(400);
    expect(long.body.error.message).toBe('A file name is at most 255 characters');
    const empty = await create({ projectId, filename: 'empty.txt' }, 0);
    expect(empty.status).toBe(400);
    expect(empty.body.error.message).toBe('The file is empty (0 bytes).');
    const tooLarge = await create({ projectId, filename: 'big.bin' }, MAX_FILE_BYTES + 1);
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body.error).toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
      message: 'This file is larger than the 8 MiB a single upload may be.',
    });
    const foreign = await create({ projectId: otherProjectId, filename: 'x.txt' }, 10);
    expect(foreign.status).toBe(404);
    const unknown = await create({ projectId: randomUUID(), filename: 'x.txt' }, 10);
    expect(unknown.status).toBe(404);
    expect(foreign.body.error.message).toBe(unknown.body.error.message);
    const anonymous = await fetch(`${origin}/files/uploads`, {
      method: 'POST',
      headers: {
        'Tus-Resumable': '1.0.0',
        'Upload-Length': '10',
        'Upload-Metadata': metadataHeader({ projectId, filename: 'x.txt' }),
      },
    });
    expect(anonymous.status).toBe(401);

    // More bytes than Upload-Length, and a PATCH at the wrong offset.
    const small = await create({ projectId, filename: 'small.txt' }, 10);
    const smallUrl = new URL(small.headers.get('location') as string, origin).toString();
    const patch = (offset: number, body: Buffer) =>
      tusRequest(
        'PATCH',
        smallUrl,
        { 'Upload-Offset': String(offset), 'Content-Type': 'application/offset+octet-stream' },
        body,
      );
    expect((await patch(5, bytes(5))).status).toBe(409);
    const over = await patch(0, bytes(20));
    expect(over.status).toBe(413);
    // Someone else cannot continue, read or end my upload: it does not exist for them.
    const eve = await me.tokens.sign(newTestUser('eve'));
    for (const method of ['HEAD', 'DELETE']) {
      const theirs = await fetch(smallUrl, {
        method,
        headers: { 'Tus-Resumable': '1.0.0', Authorization: `Bearer ${eve}` },
      });
      expect(theirs.status).toBe(404);
    }
    expect((await tusRequest('HEAD', smallUrl, {})).status).toBe(200);
    expect((await tusRequest('DELETE', smallUrl, {})).status).toBe(204);
    expect((await tusRequest('HEAD', smallUrl, {})).status).toBe(404);

    // An upload to a project deleted while it was under way: refused at the last byte.
    const doomed = await createProject(me, 'Doomed');
    const late = await create({ projectId: doomed, filename: 'late.txt' }, 4);
    const lateUrl = new URL(late.headers.get('location') as string, origin).toString();
    expect(
      (await me.call('DELETE', `/api/project?endpoint=delete-project&id=${doomed}&cascade=true`))
        .status,
    ).toBe(200);
    const lastByte = await tusRequest(
      'PATCH',
      lateUrl,
      { 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' },
      bytes(4),
    );
    expect(lastByte.status).toBe(404);
    expect((await tusRequest('HEAD', lateUrl, {})).status).toBe(404);

    // The plan's storage: 1 GiB on Free, nearly all taken.
    await me.t.db.query(
      'INSERT INTO file_blob (blob_name, workspace_id, file_id, size) VALUES ($1, $2, $3, $4)',
      [randomUUID(), me.workspaceId, randomUUID(), 1024 ** 3 - 100],
    );
    const full = await create({ projectId, filename: 'one-more.bin' }, 1000);
    expect(full.status).toBe(413);
    expect(full.body.error.details).toMatchObject({ limit: 'storageBytes', plan: 'free' });
    await me.t.db.query('DELETE FROM file_blob WHERE size = $1', [1024 ** 3 - 100]);

    const created = await me.call('POST', '/api/file?endpoint=create-file', {
      id: randomUUID(),
      workspaceId: me.workspaceId,
      projectId,
      name: 'no-bytes.txt',
    });
    expect(created.status).toBe(422);

    expect((await files()).body.files.length).toBe(before.files);
    expect((await storedBlobs()).length).toBe(before.blobs);
    expect(await stagedUploads()).toEqual([]);
  });

  it('keeps other workspaces out of files and links', async () => {
    const mine = (await upload(bytes(100, 3), { projectId, filename: 'private.txt' }))
      .fileId as string;
    expect((await files(other, projectId)).status).toBe(404);
    expect((await other.call('GET', `/api/file?endpoint=get-download-url&id=${mine}`)).status).toBe(
      404,
    );
    expect(
      (await other.call('PATCH', `/api/file?endpoint=update-file&id=${mine}`, { name: 'x.txt' }))
        .status,
    ).toBe(404);
    expect((await other.call('DELETE', `/api/file?endpoint=delete-file&id=${mine}`)).status).toBe(
      404,
    );
    expect(
      (
        await other.call(
          'GET',
          `/api/file-storage?endpoint=get-file-storage&workspaceId=${me.workspaceId}`,
        )
      ).status,
    ).toBe(403);
  });

  it('renames and moves, refuses a taken name, and a deleted file takes its bytes and links with it', async () => {
    const a = (
      await upload(bytes(300, 21), { projectId, filename: 'a.txt', filetype: 'text/plain' })
    ).fileId as string;
    await upload(bytes(300, 22), { projectId, filename: 'b.txt' });
    const taken = await me.call('PATCH', `/api/file?endpoint=update-file&id=${a}`, {
      name: 'B.txt',
    });
    expect(taken.status).toBe(422);
    const moved = await me.call('PATCH', `/api/file?endpoint=update-file&id=${a}`, {
      name: 'b.txt',
      folder: 'Drafts/2026',
    });
    expect(moved.status).toBe(200);
    expect(moved.body.file).toMatchObject({ name: 'b.txt', folder: 'Drafts/2026' });
    const badFolder = await me.call('PATCH', `/api/file?endpoint=update-file&id=${a}`, {
      folder: 'a/../b',
    });
    expect(badFolder.status).toBe(400);

    const link = await me.call('GET', `/api/file?endpoint=get-download-url&id=${a}`);
    const tampered = new URL(here(link.body.url as string));
    tampered.searchParams.set('dn', 'other.txt');
    expect((await fetch(tampered)).status).toBe(403);
    const storage = await me.call(
      'GET',
      `/api/file-storage?endpoint=get-file-storage&workspaceId=${me.workspaceId}`,
    );
    expect(storage.body).toMatchObject({ plan: 'free', maxFileBytes: MAX_FILE_BYTES });
    const row = (await files()).body.files.find((file: Json) => file.id === a);

    expect((await me.call('DELETE', `/api/file?endpoint=delete-file&id=${a}`)).status).toBe(200);
    const revoked = await fetch(here(link.body.url as string));
    expect(revoked.status).toBe(403);
    expect(((await revoked.json()) as Json).error.message).toMatch(/deleted/);
    expect(await storedBlobs()).toContain(row.blobName);
    expect(await me.t.files.sweeps.releaseDeleted()).toBe(1);
    expect(await storedBlobs()).not.toContain(row.blobName);
    const after = await me.call(
      'GET',
      `/api/file-storage?endpoint=get-file-storage&workspaceId=${me.workspaceId}`,
    );
    expect(after.body.usedBytes).toBe(storage.body.usedBytes - 300);
    expect(after.body.fileCount).toBe(storage.body.fileCount - 1);
  });
});
