import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { strFromU8, unzipSync } from 'fflate';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AppDatabase } from '../../db/app-database.ts';
import { blobBytes } from '../../data-export/collect-file-bytes.ts';
import { stopFilesRuntime } from '../../files/files-runtime.ts';
import { fakeFilesApi, fileRow, renderWithFiles, seedProject } from '../files/files-test-utils.tsx';
import {
  createTestDatabase,
  expectAccessible,
  WS,
} from '../projects/project-screen-test-utils.tsx';
import type * as FileCopies from '../../files/file-copies.ts';
import { getCopy } from '../../files/file-copies.ts';
import { DataSettings } from './data-settings.tsx';

// fake-indexeddb clones a jsdom Blob into a plain object (a browser keeps it a Blob): the kept
// copy is read from the table as the app reads it, and only its bytes are given back as a Blob.
vi.mock('../../files/file-copies.ts', async (importOriginal) => {
  const actual: typeof FileCopies = await importOriginal();
  return {
    ...actual,
    getCopy: vi.fn(async (...args: Parameters<typeof FileCopies.getCopy>) => {
      const copy = await actual.getCopy(...args);
      return copy ? { ...copy, blob: new Blob([`kept v${copy.version}`]) } : undefined;
    }),
  };
});

const databases: AppDatabase[] = [];
let saved: Blob[] = [];
let clicks: ReturnType<typeof vi.spyOn>;

beforeEach(() => {
  saved = [];
  // jsdom has no object URLs; the export's download goes through one.
  URL.createObjectURL = vi.fn((blob: Blob) => {
    saved.push(blob);
    return `blob:test/${saved.length}`;
  });
  URL.revokeObjectURL = vi.fn();
  clicks = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
});

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.mocked(getCopy).mockClear();
  for (const db of databases.splice(0)) {
    stopFilesRuntime(db);
    db.close();
  }
});

async function setup() {
  const db = await createTestDatabase();
  databases.push(db);
  const seeded = await seedProject(db);
  const { api, network } = fakeFilesApi({});
  renderWithFiles(<DataSettings />, db, api);
  await screen.findByRole('heading', { name: 'Export your data' });
  return { db, network, api, ...seeded };
}

async function savedZip() {
  await waitFor(() => expect(saved).toHaveLength(1));
  return unzipSync(await blobBytes(saved[0]!));
}

describe('Settings > Data: export', () => {
  it('downloads a zip of the workspace made from the device, with its name and counts', async () => {
    const { db } = await setup();
    await db.clients.update((await db.clients.toArray())[0]!.id, { company: '=HYPERLINK("x")' });
    await userEvent.setup().click(screen.getByRole('button', { name: 'Export workspace' }));
    const done = await screen.findByText(/Exported \d+ records?/);
    const today = new Date();
    const day = `${today.getFullYear()}-${String(today.getMonth() + 1).padStart(2, '0')}-${String(today.getDate()).padStart(2, '0')}`;
    expect(done.textContent).toContain(`satchel-studio-${day}.zip`);

    const zip = await savedZip();
    const json = JSON.parse(strFromU8(zip['workspace.json']!)) as {
      entities: Record<string, { name?: string; company?: string }[]>;
    };
    expect(json.entities.client?.[0]).toMatchObject({ name: 'Acme', company: '=HYPERLINK("x")' });
    expect(json.entities.project?.[0]?.name).toBe('Website');
    expect(strFromU8(zip['csv/clients.csv']!)).toContain(`'=HYPERLINK(""x"")`);
    expect(clicks).toHaveBeenCalledTimes(1);
  });

  it('offline, adds the kept files and lists the others instead of failing', async () => {
    const { db, network, project, api } = await setup();
    const kept = fileRow(project.id, { name: 'brief.txt' });
    const remote = fileRow(project.id, { name: 'video.mov' });
    await db.files.bulkPut([kept, remote]);
    await db.fileCopies.put({
      fileId: kept.id,
      version: 1,
      workspaceId: WS,
      projectId: project.id,
      size: 4,
      type: 'text/plain',
      blob: new Blob(['kept']),
      keptAt: '2026-03-02T00:00:00.000Z',
    });
    network.set(false);
    const user = userEvent.setup();
    await user.click(screen.getByRole('checkbox', { name: /Include files/ }));
    expect(screen.getByText(/You are offline: only files kept on this device/)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Export workspace' }));
    expect(await screen.findByText(/1 file could not be added/)).toBeTruthy();
    const zip = await savedZip();
    expect(strFromU8(zip['files/Website/brief.txt']!)).toBe('kept v1');
    expect(getCopy).toHaveBeenCalledTimes(2);
    expect(zip['files/Website/video.mov']).toBeUndefined();
    expect(strFromU8(zip['README.txt']!)).toMatch(/files\/Website\/video\.mov: Offline/);
    // Offline: nothing was downloaded (the fetch is the files API's vi.fn).
    expect((api as { fetch: unknown }).fetch).not.toHaveBeenCalled();
  });
});

function csvFile(text: string, name = 'clients.csv') {
  return new File([text], name, { type: 'text/csv' });
}

describe('Settings > Data: import clients', () => {
  it('previews, maps, shows the bad row and imports the good ones through the outbox', async () => {
    const { db } = await setup();
    const user = userEvent.setup();
    const input = document.querySelector<HTMLInputElement>('input[type="file"]')!;
    await user.upload(
      input,
      csvFile(
        'Client name,E-mail,Stage\nAda Lovelace,ada@example.com,lead\nNo Email,not-an-email,active\nGrace Hopper,,\n',
      ),
    );
    const preview = await screen.findByRole('region', { name: /Preview of the first 3 rows/ });
    expect(within(preview).getByText('Ada Lovelace')).toBeTruthy();
    // The headers were guessed: Client name -> Name, E-mail -> Email, Stage -> Status.
    expect(
      within(preview)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Row', 'Name', 'Email', 'Status']);
    const problems = screen.getByRole('table', { name: 'Problems by row' });
    const cells = within(problems)
      .getAllByRole('row')
      .slice(1)
      .map((row) =>
        within(row)
          .getAllByRole('cell')
          .map((cell) => cell.textContent),
      );
    expect(cells).toEqual([['3', 'Email', 'Enter a valid email address']]);
    expect(screen.getByText(/2 rows are ready; 1 row has problems/)).toBeTruthy();
    await expectAccessible();

    await user.click(screen.getByRole('button', { name: 'Import 2 clients' }));
    expect(await screen.findByText(/Imported 2 clients from clients.csv/)).toBeTruthy();
    expect(screen.getByText(/Skipped row 3/)).toBeTruthy();
    const names = (await db.clients.toArray()).map((client) => client.name).sort();
    expect(names).toEqual(['Acme', 'Ada Lovelace', 'Grace Hopper']);
    const creates = (await db.outbox.toArray()).filter(
      (entry) => entry.operation === 'create-client',
    );
    expect(creates).toHaveLength(3);
  });

  it('lets the user change a column and says when no column holds the name', async () => {
    await setup();
    const user = userEvent.setup();
    await user.upload(
      document.querySelector<HTMLInputElement>('input[type="file"]')!,
      csvFile('Who,Mail\nAda,ada@example.com\n'),
    );
    expect(await screen.findByText(/Choose the column that holds each client's name/)).toBeTruthy();
    expect(screen.getByRole('button', { name: /Import/ }).getAttribute('disabled')).not.toBeNull();
    await user.click(screen.getByRole('button', { name: /Who/ }));
    await user.click(await screen.findByRole('option', { name: 'Name' }));
    expect(await screen.findByText(/All 1 rows are ready|The row is ready/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Import 1 client' })).toBeTruthy();
  });

  it('refuses a 50 MB file and a non-CSV file before reading them', async () => {
    await setup();
    const read = vi.spyOn(FileReader.prototype, 'readAsText');
    const user = userEvent.setup({ applyAccept: false });
    const input = document.querySelector<HTMLInputElement>('input[type="file"]')!;
    const big = csvFile('Name\nAda\n', 'huge.csv');
    Object.defineProperty(big, 'size', { value: 50 * 1024 * 1024 });
    await user.upload(input, big);
    expect((await screen.findByRole('alert')).textContent).toMatch(
      /"huge.csv" is 50.0 MB; the limit is 5 MB/,
    );
    await user.upload(
      document.querySelector<HTMLInputElement>('input[type="file"]')!,
      new File(['x'], 'photo.png', { type: 'image/png' }),
    );
    expect((await screen.findByRole('alert')).textContent).toMatch(/"photo.png" is not a CSV file/);
    expect(read).not.toHaveBeenCalled();
  });
});
