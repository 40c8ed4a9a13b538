/**
 * Test-only helpers for the Files screens: a project with files in the local database (rows as a
 * pull writes them), and the files API faked at the network edge (a tiny tus server for uploads,
 * signed links and their bytes for downloads, a network switch).
 */
import type { ReactElement } from 'react';
import { cleanup } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, vi } from 'vitest';
import type { AppDatabase } from '../../db/app-database.ts';
import { createClient } from '../../data/client-mutations.ts';
import { createProject } from '../../data/project-mutations.ts';
import type { LocalFile } from '../../data/files.ts';
import {
  createFakeNetwork,
  createFakeTusServer,
  keepBlobsInFakeIndexedDb,
} from '../../files/files-test-fakes.ts';
import { stopFilesRuntime, type FilesApi } from '../../files/files-runtime.ts';
import {
  createTestDatabase,
  renderWithSync,
  USER_ID,
  WS,
} from '../projects/project-screen-test-utils.tsx';
import { FilesApiProvider } from './use-files-runtime.tsx';

export async function seedProject(db: AppDatabase) {
  const ctx = { db, userId: USER_ID };
  const client = await createClient(ctx, { workspaceId: WS, name: 'Acme' });
  const project = await createProject(ctx, {
    workspaceId: WS,
    clientId: client.id,
    name: 'Website',
    startDate: '2026-03-01',
    currency: 'EUR',
  });
  return { ctx, client, project };
}

let seq = 0;

/** A file row as a pull stores it, with `versions` versions of `text`. */
export function fileRow(
  projectId: string,
  overrides: Partial<LocalFile> & { name: string },
  versions = 1,
): LocalFile {
  seq += 1;
  const size = overrides.size ?? 1200;
  const type = overrides.type ?? 'text/plain';
  const list = Array.from({ length: versions }, (_, index) => ({
    number: index + 1,
    size: size + index,
    type,
    checksum: 'c',
    blobName: `blob-${seq}-${index + 1}`,
    uploadedBy: USER_ID,
    uploadedAt: `2026-03-0${index + 1}T10:00:00.000Z`,
  }));
  return {
    id: `f-${seq}`,
    workspaceId: WS,
    projectId,
    folder: '',
    visibleToClient: true,
    size: list.at(-1)?.size ?? size,
    type,
    checksum: 'c',
    blobName: list.at(-1)?.blobName ?? '',
    uploadedBy: USER_ID,
    versions: list,
    createdAt: '2026-03-01T10:00:00.000Z',
    createdBy: USER_ID,
    updatedAt: `2026-03-0${versions}T10:00:00.000Z`,
    updatedBy: USER_ID,
    version: 1,
    _v: 1,
    _pending: 0,
    _deleted: false,
    _base: {},
    ...overrides,
  };
}

/** The files API at the network edge, all fake; `bytes` answers downloads by file id. */
export function fakeFilesApi(bytes: Record<string, string> = {}) {
  const server = createFakeTusServer();
  const network = createFakeNetwork(true);
  const getDownloadLink = vi.fn(({ id, version }: { id: string; version?: number }) =>
    network.isOnline()
      ? Promise.resolve({
          url: `https://files.test/d/${id}?v=${version ?? 'latest'}`,
          expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
          fileName: id,
        })
      : Promise.reject(Object.assign(new Error('offline'), { status: 0 })),
  );
  const fetch = vi.fn((input: RequestInfo | URL) => {
    const url = input instanceof Request ? input.url : input.toString();
    const id = /\/d\/([^?]+)/.exec(url)?.[1] ?? '';
    const text = bytes[id] ?? '';
    return Promise.resolve({
      ok: true,
      status: 200,
      blob: () => Promise.resolve(new Blob([text], { type: 'text/plain' })),
    } as unknown as Response);
  });
  const api: FilesApi = {
    getAccessToken: () => Promise.resolve('token-1'),
    getDownloadLink,
    fetch,
    transport: { httpStack: server.httpStack },
    locks: null,
    network,
    endpoint: 'http://localhost/files/uploads',
  };
  return { api, server, network, getDownloadLink, fetch };
}

export function renderWithFiles(ui: ReactElement, db: AppDatabase, api: FilesApi) {
  return renderWithSync(<FilesApiProvider api={api}>{ui}</FilesApiProvider>, db);
}

/**
 * A test file's databases for the files code: Blobs kept in fake-indexeddb for the whole file, and
 * after each test the screen unmounted and each database's files runtime (its upload runner and
 * timers) stopped. Call once at the top of the file; the function it returns makes a database.
 */
export function filesTestDatabases(): () => Promise<AppDatabase> {
  let restoreClone: () => void = () => undefined;
  const databases: AppDatabase[] = [];
  beforeAll(() => {
    restoreClone = keepBlobsInFakeIndexedDb();
  });
  afterAll(() => restoreClone());
  afterEach(() => {
    cleanup();
    for (const db of databases.splice(0)) stopFilesRuntime(db);
  });
  return async () => {
    const db = await createTestDatabase();
    databases.push(db);
    return db;
  };
}
