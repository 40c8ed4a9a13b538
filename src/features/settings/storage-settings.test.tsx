import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CallEndpoint } from '#contract/define-endpoint.ts';
import type { AppDatabase } from '../../db/app-database.ts';
import { stopFilesRuntime } from '../../files/files-runtime.ts';
import { fakeFilesApi, fileRow, renderWithFiles, seedProject } from '../files/files-test-utils.tsx';
import { createTestDatabase, WS } from '../projects/project-screen-test-utils.tsx';
import type { DeviceStorage } from './device-storage.ts';
import { formatBytes } from './format-bytes.ts';
import { StorageSettings } from './storage-settings.tsx';

afterEach(cleanup);

function fakeStorage(options: { persisted: boolean; grant: boolean }) {
  let persisted = options.persisted;
  return {
    estimate: vi.fn(() => Promise.resolve({ usage: 12_400_000, quota: 2_000_000_000 })),
    persisted: vi.fn(() => Promise.resolve(persisted)),
    persist: vi.fn(() => {
      persisted = options.grant;
      return Promise.resolve(options.grant);
    }),
  } satisfies DeviceStorage;
}

describe('StorageSettings', () => {
  it('shows space used against the quota and asks the browser to keep the data', async () => {
    const storage = fakeStorage({ persisted: false, grant: true });
    render(<StorageSettings storage={storage} />);
    const meter = await screen.findByRole('meter', { name: 'Space used' });
    expect(meter.getAttribute('aria-valuetext')).toBe('12 MB of 2 GB');
    expect(screen.getByText(/Not persistent yet/)).toBeTruthy();

    await userEvent.setup().click(screen.getByRole('button', { name: 'Keep data on this device' }));
    expect(storage.persist).toHaveBeenCalledTimes(1);
    expect(await screen.findByText(/Persistent: the browser will not clear/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Keep data on this device' })).toBeNull();
  });

  it('explains a refusal and leaves the button to try again', async () => {
    const storage = fakeStorage({ persisted: false, grant: false });
    render(<StorageSettings storage={storage} />);
    await userEvent
      .setup()
      .click(await screen.findByRole('button', { name: 'Keep data on this device' }));
    expect(await screen.findByText(/The browser said no for now/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Keep data on this device' })).toBeTruthy();
  });

  it('says so when storage is already persistent, without offering the button', async () => {
    render(<StorageSettings storage={fakeStorage({ persisted: true, grant: true })} />);
    expect(await screen.findByText(/Persistent: the browser will not clear/)).toBeTruthy();
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('copes with a browser that has no storage manager', () => {
    render(<StorageSettings storage={null} />);
    expect(screen.getByText(/This browser does not report its storage/)).toBeTruthy();
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('copes with a storage manager missing estimate, persisted and persist', async () => {
    render(<StorageSettings storage={{}} />);
    expect(await screen.findByText(/does not say how much space/)).toBeTruthy();
    expect(screen.getByText(/does not say whether it may clear/)).toBeTruthy();
    expect(screen.getByText(/cannot be asked to keep it/)).toBeTruthy();
    expect(screen.queryByRole('meter')).toBeNull();
  });

  it('treats a failing estimate as unknown, not as an error', async () => {
    const storage: DeviceStorage = {
      estimate: () => Promise.reject(new Error('SecurityError')),
      persisted: () => Promise.resolve(false),
    };
    render(<StorageSettings storage={storage} />);
    expect(await screen.findByText(/does not say how much space/)).toBeTruthy();
  });
});

describe('formatBytes', () => {
  it('uses decimal units like the operating system', () => {
    expect(formatBytes(0)).toBe('0 bytes');
    expect(formatBytes(1)).toBe('1 byte');
    expect(formatBytes(812_000)).toBe('812 KB');
    expect(formatBytes(1_450_000_000)).toBe('1.4 GB');
    expect(formatBytes(Number.NaN)).toBe('unknown');
  });
});

describe('StorageSettings: files', () => {
  const databases: AppDatabase[] = [];
  afterEach(() => {
    for (const db of databases.splice(0)) stopFilesRuntime(db);
  });

  async function setup(storage: () => Promise<unknown>) {
    const db = await createTestDatabase();
    databases.push(db);
    const { project } = await seedProject(db);
    const file = fileRow(project.id, { name: 'brief.txt' });
    await db.files.put(file);
    await db.keptProjects.put({ projectId: project.id, workspaceId: WS });
    await db.fileCopies.put({
      fileId: file.id,
      version: 1,
      workspaceId: WS,
      projectId: project.id,
      size: 2.5 * 1024 * 1024,
      type: 'text/plain',
      blob: new Blob(['x']),
      keptAt: '2026-03-02T00:00:00.000Z',
    });
    const callEndpoint = vi.fn(storage) as unknown as CallEndpoint;
    const { api, network } = fakeFilesApi();
    renderWithFiles(
      <StorageSettings
        storage={fakeStorage({ persisted: true, grant: true })}
        callEndpoint={callEndpoint}
      />,
      db,
      api,
    );
    return { db, callEndpoint, network };
  }

  it("shows the workspace's file storage against the plan and frees kept copies", async () => {
    const { db, callEndpoint } = await setup(() =>
      Promise.resolve({
        workspaceId: WS,
        usedBytes: 350 * 1024 * 1024,
        limitBytes: 1024 ** 3,
        plan: 'free',
        fileCount: 12,
        maxFileBytes: 250 * 1024 * 1024,
      }),
    );
    const meter = await screen.findByRole('meter', { name: 'File storage used' });
    expect(meter.getAttribute('aria-valuetext')).toBe('350 MB of 1 GB');
    expect(screen.getByText('12')).toBeTruthy();
    expect(screen.getByText('250 MB')).toBeTruthy();
    expect(callEndpoint).toHaveBeenCalledWith(
      expect.objectContaining({ operation: 'get-file-storage' }),
      { query: { workspaceId: WS } },
    );

    const kept = await screen.findByRole('list', { name: 'Kept files by project' });
    expect(within(kept).getByText('Website')).toBeTruthy();
    expect(screen.getByText(/1 file kept,/).textContent).toContain('2.5 MB');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Free space of Website' }));
    await waitFor(async () => expect(await db.fileCopies.count()).toBe(0));
    expect(await db.keptProjects.count()).toBe(0);
    expect(await screen.findByText(/No file is kept on this device/)).toBeTruthy();
  });

  it('says offline that the figures need the network, and shows a failure with Try again', async () => {
    let fail = true;
    await setup(() =>
      fail
        ? Promise.reject(Object.assign(new Error('Server busy'), { status: 503 }))
        : Promise.resolve({
            workspaceId: WS,
            usedBytes: 0,
            limitBytes: 1_000_000_000,
            plan: 'free',
            fileCount: 0,
            maxFileBytes: 250_000_000,
          }),
    );
    expect(await screen.findByText('Server busy')).toBeTruthy();
    fail = false;
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('meter', { name: 'File storage used' })).toBeTruthy();
    await userEvent.setup().click(screen.getByRole('button', { name: /Free all/ }));
    expect(await screen.findByText(/No file is kept on this device/)).toBeTruthy();
  });
});
