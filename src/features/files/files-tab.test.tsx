import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { AppDatabase } from '../../db/app-database.ts';
import { expectAccessible } from '../projects/project-screen-test-utils.tsx';
import { FilesTab } from './files-tab.tsx';
import {
  fakeFilesApi,
  filesTestDatabases,
  fileRow,
  renderWithFiles,
  seedProject,
} from './files-test-utils.tsx';

const newDatabase = filesTestDatabases();
// jsdom has no object URLs; the test sees which Blob each was made for.
const createObjectURL = vi.fn((_blob: Blob) => `blob:test/${crypto.randomUUID()}`);
beforeAll(() => {
  URL.createObjectURL = createObjectURL;
  URL.revokeObjectURL = vi.fn();
});

async function setup(bytes: Record<string, string> = {}) {
  const db = await newDatabase();
  const { project, ctx } = await seedProject(db);
  const fake = fakeFilesApi(bytes);
  const user = userEvent.setup();
  renderWithFiles(<FilesTab project={project} />, db, fake.api);
  await screen.findByRole('button', { name: 'Upload files' });
  return { db, project, ctx, user, ...fake };
}

const pickerInput = () => document.querySelector<HTMLInputElement>('input[type="file"]')!;
const outbox = (db: AppDatabase) => db.outbox.toArray();

describe('FilesTab', { timeout: 30_000 }, () => {
  it('uploads picked files with a named progress bar, then lists the file when its row arrives', async () => {
    const { db, project, user, server } = await setup();
    expect(await screen.findByText('No files in Website yet')).toBeTruthy();
    server.holdPatches = true;

    await user.upload(pickerInput(), [
      new File(['hello world!'], 'brief.txt', { type: 'text/plain' }),
      new File(['abcd'], 'notes.txt', { type: 'text/plain' }),
    ]);
    const bar = await screen.findByRole('progressbar', { name: 'Upload of brief.txt' });
    await waitFor(() => expect(bar.getAttribute('aria-valuetext')).toBe('Uploading 50 %'));
    expect(screen.getByRole('progressbar', { name: 'Upload of notes.txt' })).toBeTruthy();

    server.holdPatches = false;
    server.release();
    await screen.findAllByText(/Uploaded, adding to the list/);
    const [entry] = await db.uploads.toArray();
    // The file row arrives by pull: the upload makes way for it.
    await db.files.put(fileRow(project.id, { id: entry!.fileId!, name: entry!.name }));
    expect(await screen.findByRole('button', { name: entry!.name })).toBeTruthy();
    await waitFor(() =>
      expect(screen.queryByRole('progressbar', { name: `Upload of ${entry!.name}` })).toBeNull(),
    );
  });

  it('says an upload waits for the network offline, and sends it when back', async () => {
    const { db, user, network, server } = await setup();
    network.set(false);
    await user.upload(pickerInput(), new File(['x'], 'plan.pdf', { type: 'application/pdf' }));
    expect(await screen.findByText(/You're offline/)).toBeTruthy();
    expect(
      (await screen.findByRole('progressbar', { name: 'Upload of plan.pdf' })).getAttribute(
        'aria-valuetext',
      ),
    ).toBe('Waiting for the network');
    expect(server.requests).toEqual([]);

    network.set(true);
    await waitFor(async () => expect((await db.uploads.toArray())[0]?.fileId).not.toBeNull());
  });

  it('shows why an upload failed, and retries it', async () => {
    const { db, user, server } = await setup();
    server.refuseNext('POST', 413, 'This file is larger than the 250 MB a single upload may be.');
    await user.upload(pickerInput(), new File(['x'], 'movie.mov', { type: 'video/quicktime' }));
    expect(
      await screen.findByText(/Failed: This file is larger than the 250 MB a single upload may be/),
    ).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Retry movie.mov' }));
    await waitFor(async () => expect((await db.uploads.toArray())[0]?.fileId).not.toBeNull());
  });

  it('refuses an empty file on the device, without the server, offering Remove but no Retry', async () => {
    const { db, user, server } = await setup();
    await user.upload(pickerInput(), new File([], 'empty.txt', { type: 'text/plain' }));
    expect(await screen.findByText(/Failed: The file is empty \(0 bytes\)\./)).toBeTruthy();
    expect((await db.uploads.toArray())[0]).toMatchObject({ status: 'failed', size: 0 });
    // Trying again can only be refused again: nothing offers it, nothing reaches the server.
    expect(screen.queryByRole('button', { name: 'Retry empty.txt' })).toBeNull();
    expect(server.requests).toEqual([]);
    await expectAccessible();
    await user.click(screen.getByRole('button', { name: 'Remove empty.txt' }));
    await waitFor(async () => expect(await db.uploads.count()).toBe(0));
    // Focus goes to the next thing to do rather than the page.
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Upload files' })),
    );
    expect(server.requests).toEqual([]);
  });

  it('keeps Retry for a refusal that may pass later (a session that ended)', async () => {
    const { db, user, server } = await setup();
    server.refuseNext('POST', 401, 'Sign in first.');
    await user.upload(pickerInput(), new File(['x'], 'brief.pdf', { type: 'application/pdf' }));
    expect(await screen.findByText(/Failed: Sign in first\./)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Retry brief.pdf' }));
    await waitFor(async () => expect((await db.uploads.toArray())[0]?.fileId).not.toBeNull());
  });

  it('names the plan’s storage limit when an upload is refused for it, and links to upgrading', async () => {
    const { user, server } = await setup();
    const GIB = 1024 ** 3;
    const serverWords = 'This file does not fit in the Free plan’s 1 GiB of storage.';
    const limit = { limit: 'storageBytes', plan: 'free', upgradePath: '/settings?tab=billing' };
    server.refuseNext('POST', 413, serverWords, { ...limit, max: GIB, used: GIB });
    await user.upload(pickerInput(), new File(['x'], 'movie.mov', { type: 'video/quicktime' }));
    expect(
      await screen.findByText(/Failed: Your Free plan’s 1 GB of storage is full\./),
    ).toBeTruthy();
    expect(screen.queryByText(new RegExp(serverWords))).toBeNull();
    const upgrade = screen.getByRole('link', { name: 'Upgrade plan' });
    expect(upgrade.getAttribute('href')).toBe('/settings?tab=billing');
    await expectAccessible();
    // Reachable from the keyboard, before the upload's Retry.
    upgrade.blur();
    screen.getByRole('button', { name: 'Upload files' }).focus();
    let steps = 0;
    while (document.activeElement !== upgrade && steps++ < 30) await user.tab();
    expect(document.activeElement).toBe(upgrade);
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Retry movie.mov' }));

    // A file that does not fit in what is left says what is used.
    await user.click(screen.getByRole('button', { name: 'Remove movie.mov' }));
    server.refuseNext('POST', 413, serverWords, { ...limit, max: GIB, used: GIB / 2 });
    await user.upload(pickerInput(), new File(['x'], 'film.mov', { type: 'video/quicktime' }));
    expect(
      await screen.findByText(
        /Failed: This file doesn’t fit in your Free plan’s 1 GB of storage \(512 MB used\)\./,
      ),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Upgrade plan' })).toBeTruthy();
  });

  it('cancels an upload: it leaves the list and the server upload is terminated', async () => {
    const { db, user, server } = await setup();
    server.holdPatches = true;
    await user.upload(pickerInput(), new File(['abcdef'], 'draft.txt', { type: 'text/plain' }));
    await screen.findByRole('progressbar', { name: 'Upload of draft.txt' });
    await waitFor(() => expect(server.requests.map((r) => r.method)).toContain('PATCH'));
    await user.click(screen.getByRole('button', { name: 'Cancel draft.txt' }));
    await waitFor(() => expect(server.terminated).toHaveLength(1));
    expect(await db.uploads.count()).toBe(0);
    await waitFor(() => expect(screen.queryByRole('progressbar')).toBeNull());
  });

  it('renames a file from its menu as a patch of the name', async () => {
    const db = await newDatabase();
    const { project } = await seedProject(db);
    const file = fileRow(project.id, { name: 'brief.txt' });
    await db.files.put(file);
    const { api } = fakeFilesApi();
    const user = userEvent.setup();
    renderWithFiles(<FilesTab project={project} />, db, api);

    await user.click(await screen.findByRole('button', { name: 'Actions for brief.txt' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Rename…' }));
    const field = await screen.findByRole('textbox', { name: 'File name' });
    await user.clear(field);
    await user.type(field, 'brief v2.txt{Enter}');
    expect(await screen.findByRole('button', { name: 'brief v2.txt' })).toBeTruthy();
    expect((await outbox(db)).at(-1)).toMatchObject({
      operation: 'update-file',
      args: { name: 'brief v2.txt' },
    });
    await waitFor(() =>
      expect(document.activeElement?.getAttribute('data-file-open')).toBe(file.id),
    );

    // A name the contract refuses stays in the field with the reason.
    await user.click(screen.getByRole('button', { name: 'Actions for brief v2.txt' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Rename…' }));
    const again = await screen.findByRole('textbox', { name: 'File name' });
    await user.clear(again);
    await user.type(again, 'a/b.txt{Enter}');
    expect(await screen.findByText('A file name cannot contain / or \\')).toBeTruthy();
  });

  it('deletes with Undo (Ctrl+Z) and moves focus to the next file', async () => {
    const db = await newDatabase();
    const { project } = await seedProject(db);
    const first = fileRow(project.id, { name: 'a-first.txt' });
    const second = fileRow(project.id, { name: 'b-second.txt' });
    await db.files.bulkPut([first, second]);
    const { api } = fakeFilesApi();
    const user = userEvent.setup();
    renderWithFiles(<FilesTab project={project} />, db, api);

    await user.click(await screen.findByRole('button', { name: 'Actions for a-first.txt' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Delete' }));
    await screen.findByText(/“a-first.txt” deleted/);
    await waitFor(() => expect(screen.queryByRole('button', { name: 'a-first.txt' })).toBeNull());
    await waitFor(() =>
      expect(document.activeElement?.getAttribute('data-file-open')).toBe(second.id),
    );
    expect((await outbox(db)).at(-1)).toMatchObject({ operation: 'delete-file' });

    fireEvent.keyDown(document.activeElement ?? document.body, { key: 'z', ctrlKey: true });
    expect(await screen.findByRole('button', { name: 'a-first.txt' })).toBeTruthy();
    expect((await outbox(db)).some((entry) => entry.operation === 'delete-file')).toBe(false);
  });

  it('keeps a file offline, then previews and downloads it with no network', async () => {
    const db = await newDatabase();
    const { project } = await seedProject(db);
    const file = fileRow(project.id, { name: 'brief.txt' });
    await db.files.put(file);
    const { api, network, getDownloadLink } = fakeFilesApi({ [file.id]: 'Kick-off on Monday' });
    const user = userEvent.setup();
    renderWithFiles(<FilesTab project={project} />, db, api);

    await user.click(await screen.findByRole('button', { name: 'Actions for brief.txt' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Keep offline' }));
    expect(await screen.findByText('Kept offline')).toBeTruthy();
    expect(await screen.findByText(/1 file kept on this device/)).toBeTruthy();

    network.set(false);
    getDownloadLink.mockClear();
    await user.click(screen.getByRole('button', { name: 'brief.txt' }));
    const dialog = await screen.findByRole('dialog');
    expect((await within(dialog).findByLabelText('Beginning of brief.txt')).textContent).toBe(
      'Kick-off on Monday',
    );
    createObjectURL.mockClear();
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    await user.click(within(dialog).getByRole('button', { name: 'Download' }));
    await waitFor(() => expect(click).toHaveBeenCalled());
    click.mockRestore();
    const saved = createObjectURL.mock.calls[0]?.[0];
    expect(await saved?.text()).toBe('Kick-off on Monday');
    expect(getDownloadLink).not.toHaveBeenCalled();
  });

  it('says a file that is not kept cannot open offline', async () => {
    const db = await newDatabase();
    const { project } = await seedProject(db);
    await db.files.put(fileRow(project.id, { name: 'contract.docx', type: 'application/msword' }));
    const { api, network } = fakeFilesApi();
    renderWithFiles(<FilesTab project={project} />, db, api);
    network.set(false);
    expect(
      (await screen.findByRole('button', { name: 'Download contract.docx' })).hasAttribute(
        'disabled',
      ),
    ).toBe(true);
  });

  it('keeps a whole project: files that arrive later are kept too', async () => {
    const db = await newDatabase();
    const { project } = await seedProject(db);
    const early = fileRow(project.id, { name: 'early.txt' });
    await db.files.put(early);
    const { api } = fakeFilesApi();
    const user = userEvent.setup();
    renderWithFiles(<FilesTab project={project} />, db, api);

    await user.click(await screen.findByRole('switch', { name: 'Keep all files offline' }));
    await waitFor(async () => expect(await db.fileCopies.count()).toBe(1));
    const late = fileRow(project.id, { name: 'late.txt' });
    await db.files.put(late);
    await waitFor(async () => expect(await db.fileCopies.get([late.id, 1])).toBeDefined());

    // A newer version replaces the kept bytes.
    await db.files.put(fileRow(project.id, { id: early.id, name: 'early.txt' }, 2));
    await waitFor(async () =>
      expect(
        (await db.fileCopies.where('fileId').equals(early.id).toArray()).map((c) => c.version),
      ).toEqual([2]),
    );

    await user.click(screen.getByRole('switch', { name: 'Keep all files offline' }));
    await waitFor(async () => expect(await db.fileCopies.count()).toBe(0));
  });

  it('lists versions with the uploader, date and a download for each', async () => {
    const db = await newDatabase();
    const { project } = await seedProject(db);
    await db.files.put(fileRow(project.id, { name: 'logo.png', type: 'image/png' }, 3));
    const { api, getDownloadLink } = fakeFilesApi();
    const user = userEvent.setup();
    renderWithFiles(<FilesTab project={project} />, db, api);

    await user.click(await screen.findByRole('button', { name: 'Actions for logo.png' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Versions (3)…' }));
    const list = await screen.findByRole('list', { name: 'Versions' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(3);
    expect(within(list).getAllByText(/You ·/)).toHaveLength(3);
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    await user.click(within(list).getByRole('button', { name: 'Download version 1' }));
    await waitFor(() =>
      expect(getDownloadLink).toHaveBeenCalledWith(expect.objectContaining({ version: 1 })),
    );
    click.mockRestore();
  });

  it('finds files by name in every folder, opens folders and sorts', async () => {
    const db = await newDatabase();
    const { project } = await seedProject(db);
    await db.files.bulkPut([
      fileRow(project.id, { name: 'small.txt', size: 10 }),
      fileRow(project.id, { name: 'big.txt', size: 9000 }),
      fileRow(project.id, { name: 'logo-final.png', folder: 'Designs/Final', type: 'image/png' }),
    ]);
    const { api } = fakeFilesApi();
    const user = userEvent.setup();
    renderWithFiles(<FilesTab project={project} />, db, api);

    const list = await screen.findByRole('list', { name: 'Files in All files' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([expect.stringContaining('big.txt'), expect.stringContaining('small.txt')]);
    await user.click(screen.getByRole('button', { name: /Sort/ }));
    await user.click(await screen.findByRole('option', { name: 'Largest first' }));

    await user.click(screen.getByRole('button', { name: /Designs/ }));
    await user.click(await screen.findByRole('button', { name: /Final/ }));
    expect(await screen.findByRole('button', { name: 'logo-final.png' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'All files' }));

    await user.type(screen.getByRole('searchbox', { name: 'Search files' }), 'logo');
    expect(await screen.findByText('1 file matches “logo” in every folder.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'logo-final.png' })).toBeTruthy();
  });
});
