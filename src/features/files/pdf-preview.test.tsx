/**
 * The preview's states around pdf.js, with pdf.js itself replaced (jsdom has no canvas drawing;
 * tests/e2e/pdf-preview.spec.ts draws real pages in Chromium).
 */
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AppDatabase } from '../../db/app-database.ts';
import type { FilesRuntime } from '../../files/files-runtime.ts';
import { PdfPreview } from './pdf-preview.tsx';

const render$ = vi.hoisted(() => ({
  readPdfBytes: vi.fn(),
  openPdf: vi.fn(),
  renderPage: vi.fn(),
}));

vi.mock('./pdf-render.ts', () => render$);

function fakeDocument(numPages: number) {
  return {
    numPages,
    getPage: vi.fn((number: number) => Promise.resolve({ pageNumber: number })),
    destroy: vi.fn(() => Promise.resolve()),
  };
}

function renderPreview() {
  const onOpenInTab = vi.fn();
  const onDownload = vi.fn();
  const view = render(
    <PdfPreview
      db={{} as AppDatabase}
      runtime={{} as FilesRuntime}
      fileId="f1"
      fileName="plan.pdf"
      fileSize={2048}
      version={2}
      onOpenInTab={onOpenInTab}
      onDownload={onDownload}
    />,
  );
  return { ...view, onOpenInTab, onDownload };
}

beforeEach(() => {
  render$.readPdfBytes.mockResolvedValue(new Uint8Array([37, 80, 68, 70]));
  render$.renderPage.mockImplementation(() => ({
    promise: Promise.resolve(),
    cancel: vi.fn(),
  }));
});

afterEach(() => {
  cleanup();
  vi.clearAllMocks();
});

describe('PdfPreview', () => {
  it('shows a spinner, then the first three pages named for assistive technology', async () => {
    const doc = fakeDocument(5);
    render$.openPdf.mockResolvedValue(doc);
    const { unmount } = renderPreview();

    expect(screen.getByRole('status').textContent).toBe(' Loading the PDF…');
    const pages = await screen.findAllByRole('img');
    expect(pages.map((page) => page.getAttribute('aria-label'))).toEqual([
      'Page 1 of 5 of plan.pdf',
      'Page 2 of 5 of plan.pdf',
      'Page 3 of 5 of plan.pdf',
    ]);
    expect(screen.getByText(/The first 3 of 5 pages/)).toBeTruthy();
    // The bytes of the version asked for, from the file the dialog shows.
    expect(render$.readPdfBytes).toHaveBeenCalledWith(
      expect.anything(),
      expect.anything(),
      { id: 'f1', name: 'plan.pdf', size: 2048 },
      2,
    );
    await waitFor(() => expect(render$.renderPage).toHaveBeenCalledTimes(3));
    await waitFor(() => expect(pages[0]?.getAttribute('aria-busy')).toBe('false'));

    unmount();
    expect(doc.destroy).toHaveBeenCalled();
  });

  it('draws a short document whole, with no note about more pages', async () => {
    render$.openPdf.mockResolvedValue(fakeDocument(1));
    renderPreview();
    expect(await screen.findByRole('img', { name: 'Page 1 of 1 of plan.pdf' })).toBeTruthy();
    expect(screen.queryByText(/The first 3/)).toBeNull();
  });

  it('shows the error state with both ways out for a password-protected PDF', async () => {
    render$.openPdf.mockRejectedValue(
      Object.assign(new Error('No password given'), { name: 'PasswordException' }),
    );
    const { onOpenInTab, onDownload } = renderPreview();

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('This PDF could not be shown.');
    expect(alert.textContent).toMatch(/protected by a password/);
    expect(screen.queryByRole('img')).toBeNull();

    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Open in browser' }));
    await user.click(screen.getByRole('button', { name: 'Download' }));
    expect(onOpenInTab).toHaveBeenCalledTimes(1);
    expect(onDownload).toHaveBeenCalledTimes(1);
  });

  it('shows the error state when the bytes cannot be read', async () => {
    render$.readPdfBytes.mockRejectedValue(new Error('The PDF could not load (403).'));
    renderPreview();
    expect((await screen.findByRole('alert')).textContent).toContain(
      'This PDF could not be shown.',
    );
    expect(render$.openPdf).not.toHaveBeenCalled();
  });

  it('says in place of a page that it could not be drawn, keeping the others', async () => {
    render$.openPdf.mockResolvedValue(fakeDocument(2));
    render$.renderPage.mockImplementation((page: { pageNumber: number }) => ({
      promise: page.pageNumber === 2 ? Promise.reject(new Error('bad stream')) : Promise.resolve(),
      cancel: vi.fn(),
    }));
    renderPreview();
    expect(await screen.findByText('Page 2 could not be drawn.')).toBeTruthy();
    expect(screen.getByRole('img', { name: 'Page 1 of 2 of plan.pdf' })).toBeTruthy();
    expect(screen.queryByRole('img', { name: /Page 2/ })).toBeNull();
  });
});
