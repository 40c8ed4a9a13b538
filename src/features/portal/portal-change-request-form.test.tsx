/**
 * The client's new change request with attachments: files upload as they are chosen, the request
 * waits for them and carries their ids, a failed file says why and can be tried again or removed
 * (focus follows), and attaching is off while offline.
 */
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PortalChangeRequestForm } from './portal-change-request-form.tsx';
import type { ChangeRequestDraft } from './portal-outbox.ts';
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

function renderForm(options: { offline?: boolean } = {}) {
  const uploads = scriptedUploads();
  const submitted: ChangeRequestDraft[] = [];
  const onDone = vi.fn();
  render(
    <main>
      <PortalChangeRequestForm
        projectId={projectId}
        offline={options.offline ?? false}
        newId={() => requestId}
        uploadFile={uploads.uploadFile}
        submit={(draft) => {
          submitted.push(draft);
          return Promise.resolve({ ok: true });
        }}
        onDone={onDone}
        onCancel={() => undefined}
      />
    </main>,
  );
  return { ...uploads, submitted, onDone };
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

  it('offline, attaching is off and says it needs a connection', () => {
    renderForm({ offline: true });
    const attach = screen.getByRole('button', { name: 'Attach files' });
    expect(attach.hasAttribute('disabled')).toBe(true);
    expect(screen.getByText('Attaching files needs a connection.').id).toBe(
      attach.getAttribute('aria-describedby'),
    );
  });
});
