/**
 * Uploading a new file from the chat composer through the Files tab's upload queue and runner,
 * with the upload layer faked at its boundary (FilesApiProvider: a tiny tus server behind
 * tus-js-client's HttpStack, a network switch, download links): progress, then the chip attaches
 * the file id the server answered and the message carries it; a refusal with Retry and Remove;
 * offline the action is disabled with the reason; drop and paste; the message's attachment opens
 * the file as the Files tab's Download does.
 */
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { AppDatabase } from '../../db/app-database.ts';
import { createFakeNetwork, createFakeTusServer } from '../../files/files-test-fakes.ts';
import type { FilesApi } from '../../files/files-runtime.ts';
import {
  filesTestDatabases,
  fileRow,
  renderWithFiles,
  seedProject,
} from '../files/files-test-utils.tsx';
import { expectAccessible } from '../projects/project-screen-test-utils.tsx';
import ChatTab from './chat-tab.tsx';

const newDatabase = filesTestDatabases();

/** File ids the fake server answers: not the device's proposed ids, to see the answer is used. */
const serverFileId = (n: number) => `0190a000-0000-7000-8000-${String(n).padStart(12, '0')}`;

async function setup() {
  const db = await newDatabase();
  const { project } = await seedProject(db);
  let written = 0;
  const server = createFakeTusServer({ fileIdFor: () => serverFileId((written += 1)) });
  const network = createFakeNetwork(true);
  const getDownloadLink = vi.fn(({ id }: { id: string }) =>
    Promise.resolve({
      url: `https://files.test/d/${id}`,
      expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
      fileName: `${id}.txt`,
    }),
  );
  const api: FilesApi = {
    getAccessToken: () => Promise.resolve('token-1'),
    getDownloadLink,
    fetch: vi.fn(),
    transport: { httpStack: server.httpStack },
    locks: null,
    network,
    endpoint: 'http://localhost/files/uploads',
  };
  const user = userEvent.setup();
  renderWithFiles(<ChatTab project={project} />, db, api);
  const box = await screen.findByRole('textbox', { name: 'Message to Website' });
  return { db, project, server, network, getDownloadLink, user, box };
}

const picker = () => document.querySelector<HTMLInputElement>('form input[type="file"]')!;
const chatCreates = async (db: AppDatabase) =>
  (await db.outbox.toArray()).filter((entry) => entry.operation === 'create-chat-message');

describe('Chat composer uploads', { timeout: 30_000 }, () => {
  it('uploads a file with progress, attaches the server’s file id, and the message opens it', async () => {
    const { db, project, server, getDownloadLink, user, box } = await setup();
    server.holdPatches = true;
    await user.upload(picker(), new File(['hello world!'], 'brief.txt', { type: 'text/plain' }));

    const bar = await screen.findByRole('progressbar', { name: 'Upload of brief.txt' });
    await waitFor(() => expect(bar.getAttribute('aria-valuetext')).toBe('Uploading 50 %'));
    const chips = screen.getByRole('list', { name: 'Files to attach' });
    expect(within(chips).getByText('· Uploading 50 %')).toBeTruthy();
    await expectAccessible();

    // Not sent while the upload runs: said, nothing queued.
    await user.type(box, 'See the brief{Enter}');
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Wait for the file to finish uploading, or remove it.',
    );
    expect(await chatCreates(db)).toHaveLength(0);

    server.holdPatches = false;
    server.release();
    expect(await within(chips).findByText('· Uploaded')).toBeTruthy();
    expect(screen.queryByRole('progressbar')).toBeNull();
    // Nothing to wait for any more: the reason goes.
    expect(screen.queryByRole('alert')).toBeNull();

    await user.type(box, '{Enter}');
    await waitFor(async () => expect(await chatCreates(db)).toHaveLength(1));
    const [entry] = await chatCreates(db);
    expect(entry?.args).toMatchObject({
      text: 'See the brief',
      attachmentFileIds: [serverFileId(1)],
      projectId: project.id,
    });
    expect(screen.queryByRole('list', { name: 'Files to attach' })).toBeNull();

    // The message shows the attachment by name at once (from the upload), then from the file
    // row once it arrives by pull; pressing it downloads the file as the Files tab does.
    const log = screen.getByRole('log', { name: 'Messages about Website' });
    const attachments = await within(log).findByRole('list', { name: 'Attachments' });
    expect(within(attachments).getByRole('button', { name: 'brief.txt' })).toBeTruthy();
    await act(() =>
      db.files.put(fileRow(project.id, { id: serverFileId(1), name: 'brief.txt', size: 12 })),
    );
    await waitFor(async () => expect(await db.uploads.count()).toBe(0));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    await user.click(within(attachments).getByRole('button', { name: 'brief.txt' }));
    await waitFor(() =>
      expect(getDownloadLink).toHaveBeenCalledWith({ id: serverFileId(1), version: 1 }),
    );
    await waitFor(() => expect(click).toHaveBeenCalled());
    click.mockRestore();
    await expectAccessible();
  });

  it('says why an upload failed, retries it, and removes chips with focus kept in place', async () => {
    const { db, server, user, box } = await setup();
    server.refuseNext('POST', 413, 'This file is larger than the 250 MB a single upload may be.');
    await user.upload(picker(), new File(['x'], 'movie.mov', { type: 'video/quicktime' }));
    expect(
      (await screen.findByText(/This file is larger than the 250 MB/)).getAttribute('role'),
    ).toBe('alert');
    await user.type(box, 'The cut{Enter}');
    expect(
      await screen.findByText('Retry the file that did not upload, or remove it.'),
    ).toBeTruthy();
    expect(await chatCreates(db)).toHaveLength(0);
    await expectAccessible();

    await user.click(screen.getByRole('button', { name: 'Retry movie.mov' }));
    const chips = screen.getByRole('list', { name: 'Files to attach' });
    expect(await within(chips).findByText('· Uploaded')).toBeTruthy();

    // A second file refused: removing the first chip moves focus to the next one's first
    // button; removing the last moves it to the text box, and takes the upload off the queue.
    server.refuseNext('POST', 422, 'The server refused this file.');
    await user.upload(picker(), new File(['y'], 'notes.txt', { type: 'text/plain' }));
    await screen.findByRole('button', { name: 'Retry notes.txt' });
    await user.click(screen.getByRole('button', { name: 'Remove movie.mov' }));
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Retry notes.txt' })),
    );
    await user.click(screen.getByRole('button', { name: 'Remove notes.txt' }));
    await waitFor(() => expect(document.activeElement).toBe(box));
    expect(screen.queryByRole('list', { name: 'Files to attach' })).toBeNull();
    await waitFor(async () =>
      expect((await db.uploads.toArray()).map((entry) => entry.name)).not.toContain('notes.txt'),
    );

    // Nothing left to wait for: the message goes, without attachments.
    await user.type(box, '{Enter}');
    await waitFor(async () => expect(await chatCreates(db)).toHaveLength(1));
    expect((await chatCreates(db))[0]?.args).toMatchObject({ attachmentFileIds: [] });
  });

  it('disables uploading offline with the reason in words', async () => {
    const { db, network, box } = await setup();
    const button = screen.getByRole('button', { name: 'Upload a file' });
    expect(button.hasAttribute('disabled')).toBe(false);
    act(() => network.set(false));
    await waitFor(() => expect(button.hasAttribute('disabled')).toBe(true));
    const reason = document.getElementById(button.getAttribute('aria-describedby') ?? '');
    expect(reason?.textContent).toBe(' Uploading a file needs a connection.');
    // A file dropped offline is not queued either.
    fireEvent.drop(box.closest('form')!, {
      dataTransfer: { files: [new File(['z'], 'late.txt')], types: ['Files'] },
    });
    expect(await screen.findByRole('alert')).toHaveProperty(
      'textContent',
      'Uploading a file needs a connection.',
    );
    expect(await db.uploads.count()).toBe(0);
    await expectAccessible();
  });

  it('uploads a file dropped on the composer and a pasted image (named apart)', async () => {
    const { db, box } = await setup();
    fireEvent.drop(box.closest('form')!, {
      dataTransfer: {
        files: [new File(['d'], 'dropped.txt', { type: 'text/plain' })],
        types: ['Files'],
      },
    });
    fireEvent.paste(box, {
      clipboardData: { files: [new File(['p'], 'image.png', { type: 'image/png' })] },
    });
    const chips = await screen.findByRole('list', { name: 'Files to attach' });
    await waitFor(() => expect(within(chips).getAllByText('· Uploaded')).toHaveLength(2));
    expect(within(chips).getByText('dropped.txt')).toBeTruthy();
    expect(within(chips).getByText(/^Pasted image \d{4}-\d\d-\d\d \d\d\.\d\d\.\d\d\.png$/));
    const names = (await db.uploads.toArray()).map((entry) => entry.name);
    expect(names).toEqual(
      expect.arrayContaining(['dropped.txt', expect.stringMatching(/^Pasted image /)]),
    );
  });
});
