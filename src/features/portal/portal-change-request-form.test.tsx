/**
 * The client's new change request with attachments: files upload as they are chosen, the request
 * waits for them and carries their ids, a failed file says why and can be tried again or removed
 * (focus follows); offline, a file is kept on the device and goes with the queued request.
 */
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PortalChangeRequestForm } from './portal-change-request-form.tsx';
import type { ChangeRequestDraft } from './portal-outbox.ts';
import {
  PendingFilesUnavailable,
  type PendingFileRef,
  type PortalPendingFiles,
} from './portal-pending-files.ts';
import { PortalUploadError, type PortalUploadFile } from './portal-upload.ts';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const projectId = '0192f3a0-0000-7000-8000-0000000000aa';
const requestId = '0192f3a0-0000-4000-8000-000000000c99';

interface Pending {
  file: File;
  progress: (sent: number) => void;
  succeed: (fileId: string) => void;
  fail: (message: string, status: number) => void;
  aborted: boolean;
}

/** An uploader the test drives: each file waits until the test says how it ends. */
function scriptedUploads() {
  const started: Pending[] = [];
  const uploadFile: PortalUploadFile = (file, { projectId: pid, onProgress }) => {
    expect(pid).toBe(projectId);
    let resolve!: (id: string) => void;
    let reject!: (error: unknown) => void;
    const done = new Promise<string>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    const pending: Pending = {
      file,
      progress: (sent) => onProgress(sent, file.size),
      succeed: resolve,
      fail: (message, status) => reject(new PortalUploadError(message, status)),
      aborted: false,
    };
    started.push(pending);
    return { done, abort: () => void (pending.aborted = true) };
  };
  return { started, uploadFile };
}

/**
 * The device's kept files in a Map (Cache Storage itself is covered in portal-pending-files.test.ts
 * under Node; jsdom's File cannot go into a Response).
 */
function memoryPendingFiles(): PortalPendingFiles {
  const kept = new Map<string, File>();
  return {
    keep: (_projectId, file) => {
      const ref = { key: crypto.randomUUID(), name: file.name, type: file.type, size: file.size };
      kept.set(ref.key, file);
      return Promise.resolve(ref);
    },
    read: (_projectId, ref) => Promise.resolve(kept.get(ref.key) ?? null),
    drop: (_projectId, refs) => {
      for (const ref of refs) kept.delete(ref.key);
      return Promise.resolve();
    },
  };
}

function renderForm(options: { offline?: boolean; pendingFiles?: PortalPendingFiles } = {}) {
  const uploads = scriptedUploads();
  const submitted: ChangeRequestDraft[] = [];
  const keptSubmitted: (readonly PendingFileRef[])[] = [];
  const onDone = vi.fn();
  const pendingFiles = options.pendingFiles ?? memoryPendingFiles();
  const form = (offline: boolean) => (
    <main>
      <PortalChangeRequestForm
        projectId={projectId}
        offline={offline}
        newId={() => requestId}
        uploadFile={uploads.uploadFile}
        pendingFiles={pendingFiles}
        submit={(draft, kept) => {
          submitted.push(draft);
          keptSubmitted.push(kept);
          return Promise.resolve({ ok: true });
        }}
        onDone={onDone}
        onCancel={() => undefined}
      />
    </main>
  );
  const { rerender, unmount } = render(form(options.offline ?? false));
  return {
    ...uploads,
    submitted,
    keptSubmitted,
    onDone,
    pendingFiles,
    setOffline: (offline: boolean) => rerender(form(offline)),
    unmount,
  };
}

const fileInput = () => document.querySelector<HTMLInputElement>('input[type="file"]')!;
const attached = () => screen.getByRole('list', { name: 'Attached files' });

describe('PortalChangeRequestForm: attachments', () => {
  it('uploads chosen files at once, waits for them, then sends their ids in order', async () => {
    const user = userEvent.setup();
    const form = renderForm();
    await user.type(screen.getByRole('textbox', { name: /What would you like/ }), 'New photos');
    await user.upload(fileInput(), [
      new File(['a'.repeat(2048)], 'shop.jpg', { type: 'image/jpeg' }),
      new File(['b'], 'notes.txt', { type: 'text/plain' }),
    ]);
    expect(form.started.map((u) => u.file.name)).toEqual(['shop.jpg', 'notes.txt']);
    form.started[0]?.progress(1024);
    const bar = await screen.findByRole('progressbar', { name: 'Uploading shop.jpg' });
    await waitFor(() => expect(bar.getAttribute('value')).toBe('1024'));
    expect(attached().textContent).toContain('1 KB of 2 KB');

    await user.click(screen.getByRole('button', { name: 'Send request' }));
    expect(screen.getByRole('alert').textContent).toBe('Wait for 2 files to finish uploading.');
    expect(form.submitted).toEqual([]);

    form.started[1]?.succeed('0192f3a0-0000-7000-8000-0000000000f2');
    form.started[0]?.succeed('0192f3a0-0000-7000-8000-0000000000f1');
    await waitFor(() => expect(within(attached()).getAllByText(/uploaded$/)).toHaveLength(2));
    const { violations } = await axe.run(document.body, {
      rules: { 'color-contrast': { enabled: false } },
    });
    expect(violations.map((v) => v.id)).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Send request' }));
    await waitFor(() => expect(form.onDone).toHaveBeenCalledWith(requestId));
    expect(form.submitted[0]?.attachmentFileIds).toEqual([
      '0192f3a0-0000-7000-8000-0000000000f1',
      '0192f3a0-0000-7000-8000-0000000000f2',
    ]);
  });

  it("a failed file shows the server's words, can be tried again, and Remove moves focus on", async () => {
    const user = userEvent.setup();
    const form = renderForm();
    await user.type(screen.getByRole('textbox', { name: /What would you like/ }), 'Logo');
    await user.upload(fileInput(), [new File(['x'], 'huge.psd'), new File(['y'], 'small.png')]);
    form.started[0]?.fail('This file is larger than the 100 MiB a single upload may be.', 413);
    expect(
      await within(attached()).findByText(
        'This file is larger than the 100 MiB a single upload may be.',
      ),
    ).toBeTruthy();
    form.started[1]?.succeed('0192f3a0-0000-7000-8000-0000000000f3');
    await user.click(screen.getByRole('button', { name: 'Send request' }));
    expect(screen.getByRole('alert').textContent).toBe(
      'Try the files that did not upload again, or remove them.',
    );

    await user.click(screen.getByRole('button', { name: 'Try huge.psd again' }));
    expect(form.started).toHaveLength(3);
    expect(form.started[2]?.file.name).toBe('huge.psd');

    // Removing the first file stops its upload and puts focus on the next file's Remove.
    await user.click(screen.getByRole('button', { name: 'Remove huge.psd' }));
    expect(form.started[2]?.aborted).toBe(true);
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Remove small.png' })),
    );
    await user.click(screen.getByRole('button', { name: 'Remove small.png' }));
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Attach files' })),
    );
    await user.click(screen.getByRole('button', { name: 'Send request' }));
    await waitFor(() => expect(form.submitted).toHaveLength(1));
    expect(form.submitted[0]).not.toHaveProperty('attachmentFileIds');
  });

  it('offline, a chosen file is kept on the device, not uploaded, and goes with the queued request', async () => {
    const user = userEvent.setup();
    const form = renderForm({ offline: true });
    const attach = screen.getByRole('button', { name: 'Attach files' });
    expect(attach.hasAttribute('disabled')).toBe(false);
    expect(
      screen.getByText(
        'You’re offline: files you attach are kept on this device and sent with your request.',
      ).id,
    ).toBe(attach.getAttribute('aria-describedby'));
    await user.type(screen.getByRole('textbox', { name: /What would you like/ }), 'Site photo');
    await user.upload(fileInput(), [new File(['wall'], 'wall.jpg', { type: 'image/jpeg' })]);
    expect(
      await within(attached()).findByText(/kept on this device, sent with your request$/),
    ).toBeTruthy();
    expect(form.started).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Send request' }));
    await waitFor(() => expect(form.onDone).toHaveBeenCalledWith(requestId));
    expect(form.submitted[0]).not.toHaveProperty('attachmentFileIds');
    const kept = form.keptSubmitted[0] ?? [];
    expect(kept.map((ref) => [ref.name, ref.type, ref.size])).toEqual([
      ['wall.jpg', 'image/jpeg', 4],
    ]);
    // Handed to the queued request: closing the form keeps the copy for the upload to come.
    form.unmount();
    const copy = await form.pendingFiles.read(projectId, kept[0] as PendingFileRef);
    expect(await copy?.text()).toBe('wall');
    expect(copy?.name).toBe('wall.jpg');
  });

  it('a file kept offline uploads at once when the network is back, and its copy goes', async () => {
    const user = userEvent.setup();
    const pendingFiles = memoryPendingFiles();
    const drop = vi.spyOn(pendingFiles, 'drop');
    const form = renderForm({ offline: true, pendingFiles });
    await user.upload(fileInput(), [new File(['plan'], 'plan.pdf')]);
    await within(attached()).findByText(/kept on this device/);
    form.setOffline(false);
    await waitFor(() => expect(form.started.map((u) => u.file.name)).toEqual(['plan.pdf']));
    expect(await form.started[0]?.file.text()).toBe('plan');
    expect(drop).toHaveBeenCalledTimes(1);
    form.started[0]?.succeed('0192f3a0-0000-7000-8000-0000000000f4');
    expect(await within(attached()).findByText(/uploaded$/)).toBeTruthy();
  });

  it('a copy kept for a request never sent is dropped when the form closes', async () => {
    const user = userEvent.setup();
    const pendingFiles = memoryPendingFiles();
    const keep = vi.spyOn(pendingFiles, 'keep');
    const form = renderForm({ offline: true, pendingFiles });
    await user.upload(fileInput(), [new File(['draft'], 'draft.txt')]);
    await within(attached()).findByText(/kept on this device/);
    const ref = await (keep.mock.results[0]?.value as Promise<PendingFileRef>);
    expect(await pendingFiles.read(projectId, ref)).not.toBeNull();
    form.unmount();
    await waitFor(async () => expect(await pendingFiles.read(projectId, ref)).toBeNull());
  });

  it('a device that cannot keep files says the file needs a connection', async () => {
    const user = userEvent.setup();
    renderForm({
      offline: true,
      pendingFiles: {
        ...memoryPendingFiles(),
        keep: () => Promise.reject(new PendingFilesUnavailable()),
      },
    });
    await user.type(screen.getByRole('textbox', { name: /What would you like/ }), 'Video');
    await user.upload(fileInput(), [new File(['x'], 'big.mov')]);
    expect(
      await within(attached()).findByText(
        'This file can’t be kept on this device. Attach it when you’re back online.',
      ),
    ).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Send request' }));
    expect(screen.getByRole('alert').textContent).toBe(
      'Try the files that did not upload again, or remove them.',
    );
  });
});

describe('PortalChangeRequestForm: the wanted-by day', () => {
  it('refuses a day already gone, focused on the field, and sends nothing', async () => {
    const user = userEvent.setup();
    const form = renderForm();
    await user.type(screen.getByRole('textbox', { name: /What would you like/ }), 'New photos');
    const day = screen.getByLabelText('Wanted by (optional)');
    fireEvent.change(day, { target: { value: '2020-01-01' } });
    await user.click(screen.getByRole('button', { name: 'Send request' }));
    expect(await screen.findByText('Choose today or a later day')).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(day));
    expect(form.submitted).toEqual([]);

    fireEvent.change(day, { target: { value: '2999-01-01' } });
    await user.click(screen.getByRole('button', { name: 'Send request' }));
    await waitFor(() => expect(form.submitted).toHaveLength(1));
    expect(form.submitted[0]).toMatchObject({ desiredDate: '2999-01-01' });
  });
});
