/**
 * The shell's resume of the device's upload queue after a reload: an upload queued before (no
 * files screen open, no runtime started) is sent by the shell alone, through the real runner and
 * tus-js-client against the fake tus server.
 */
import { waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { createFakeNetwork, createFakeTusServer } from '../../files/files-test-fakes.ts';
import type { FilesApi } from '../../files/files-runtime.ts';
import { queueUploads, uploadsTable } from '../../files/upload-queue.ts';
import { filesTestDatabases, renderWithFiles, seedProject } from './files-test-utils.tsx';
import { ResumeQueuedUploads } from './resume-queued-uploads.tsx';

const newDatabase = filesTestDatabases();

async function setup() {
  const db = await newDatabase();
  const { project } = await seedProject(db);
  const server = createFakeTusServer({ fileIdFor: () => '0190a000-0000-7000-8000-000000000001' });
  const api: FilesApi = {
    getAccessToken: () => Promise.resolve('token-1'),
    getDownloadLink: null,
    fetch: vi.fn(),
    transport: { httpStack: server.httpStack },
    locks: null,
    network: createFakeNetwork(true),
    endpoint: 'http://localhost/files/uploads',
  };
  return { db, project, server, api };
}

describe('ResumeQueuedUploads', { timeout: 30_000 }, () => {
  it('sends an upload queued before the reload, with no files screen open', async () => {
    const { db, project, server, api } = await setup();
    const [queued] = await queueUploads(
      db,
      { workspaceId: project.workspaceId, projectId: project.id, folder: '' },
      [
        {
          name: 'brief.txt',
          type: 'text/plain',
          size: 12,
          blob: new Blob(['hello world!'], { type: 'text/plain' }),
        },
      ],
    );

    renderWithFiles(<ResumeQueuedUploads />, db, api);

    await waitFor(async () =>
      expect((await uploadsTable(db).get(queued!.id))?.fileId).toBe(
        '0190a000-0000-7000-8000-000000000001',
      ),
    );
    const [sent] = [...server.uploads.values()];
    expect(sent?.metadata).toMatchObject({ projectId: project.id, filename: 'brief.txt' });
    expect(await new Blob(sent!.chunks).text()).toBe('hello world!');
  });
});
