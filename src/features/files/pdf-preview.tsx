/**
 * The first pages of a PDF, drawn on canvases by pdf.js (loaded on first use, see pdf-render.ts),
 * in the file preview dialog. A document pdf.js cannot open (password, damage, not a PDF, the
 * viewer not on this device) shows "This PDF could not be shown" and the browser's viewer and the
 * download as ways out.
 */
import type { PDFDocumentProxy, RenderTask } from 'pdfjs-dist';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { AppDatabase } from '../../db/app-database.ts';
import type { FilesRuntime } from '../../files/files-runtime.ts';
import { Button } from '../../ui/button.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { describePdfError, morePagesNote, pageLabel, previewPageNumbers } from './pdf-pages.ts';
import { openPdf, readPdfBytes, renderPage } from './pdf-render.ts';

/** Used until the box has been measured (jsdom, a hidden dialog). */
const DEFAULT_BOX_WIDTH = 600;

type PdfState =
  | { status: 'loading' }
  | { status: 'ready'; doc: PDFDocumentProxy }
  | { status: 'error'; error: unknown };

export interface PdfPreviewProps {
  db: AppDatabase;
  runtime: FilesRuntime;
  fileId: string;
  fileName: string;
  fileSize: number;
  version: number;
  onOpenInTab: () => void;
  onDownload: () => void;
}

export function PdfPreview({
  db,
  runtime,
  fileId,
  fileName,
  fileSize,
  version,
  onOpenInTab,
  onDownload,
}: PdfPreviewProps) {
  const [state, setState] = useState<PdfState>({ status: 'loading' });
  const boxRef = useRef<HTMLDivElement>(null);
  const [boxWidth, setBoxWidth] = useState(DEFAULT_BOX_WIDTH);

  useLayoutEffect(() => {
    const width = boxRef.current?.clientWidth ?? 0;
    if (width > 0) setBoxWidth(width);
  }, []);

  useEffect(() => {
    let live = true;
    let opened: PDFDocumentProxy | null = null;
    setState({ status: 'loading' });
    readPdfBytes(db, runtime, { id: fileId, name: fileName, size: fileSize }, version)
      .then(openPdf)
      .then(
        (doc) => {
          opened = doc;
          if (live) setState({ status: 'ready', doc });
          else void doc.destroy();
        },
        (error: unknown) => {
          if (live) setState({ status: 'error', error });
        },
      );
    return () => {
      live = false;
      void opened?.destroy();
    };
  }, [db, runtime, fileId, fileName, fileSize, version]);

  return (
    <div ref={boxRef} className="flex flex-col gap-3">
      {state.status === 'loading' ? (
        <p role="status" className="flex items-center gap-2 text-sm text-fg-muted">
          <Spinner size="small" /> Loading the PDF…
        </p>
      ) : state.status === 'error' ? (
        <div className="flex flex-col gap-3 rounded-lg border border-border bg-surface-muted p-4">
          <p role="alert" className="flex flex-col gap-1">
            <span className="font-medium text-fg">This PDF could not be shown.</span>
            <span className="text-sm text-fg-muted">{describePdfError(state.error)}</span>
          </p>
          <div className="flex flex-col gap-2 sm:flex-row">
            <Button variant="secondary" onPress={onOpenInTab}>
              Open in browser
            </Button>
            <Button variant="secondary" onPress={onDownload}>
              Download
            </Button>
          </div>
        </div>
      ) : (
        <PdfPages doc={state.doc} fileName={fileName} boxWidth={boxWidth} />
      )}
    </div>
  );
}

function PdfPages({
  doc,
  fileName,
  boxWidth,
}: {
  doc: PDFDocumentProxy;
  fileName: string;
  boxWidth: number;
}) {
  const total = doc.numPages;
  const note = morePagesNote(total);
  return (
    <>
      <div
        tabIndex={0}
        role="group"
        aria-label={`First pages of ${fileName}`}
        className="flex max-h-[60dvh] flex-col gap-4 overflow-y-auto rounded-lg border border-border bg-surface-muted p-2 outline-none focus-visible:ring-2 focus-visible:ring-ring sm:p-3"
      >
        {previewPageNumbers(total).map((number) => (
          <PdfPage
            key={number}
            doc={doc}
            number={number}
            total={total}
            fileName={fileName}
            // The group's padding and border: the page fills what is left.
            boxWidth={Math.max(1, boxWidth - 26)}
          />
        ))}
      </div>
      {note ? <p className="text-sm text-fg-muted">{note}</p> : null}
    </>
  );
}

function PdfPage({
  doc,
  number,
  total,
  fileName,
  boxWidth,
}: {
  doc: PDFDocumentProxy;
  number: number;
  total: number;
  fileName: string;
  boxWidth: number;
}) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const [status, setStatus] = useState<'drawing' | 'drawn' | 'failed'>('drawing');

  useEffect(() => {
    let live = true;
    let task: RenderTask | null = null;
    setStatus('drawing');
    doc
      .getPage(number)
      .then((page) => {
        const canvas = canvasRef.current;
        if (!live || !canvas) return;
        task = renderPage(page, canvas, boxWidth);
        return task.promise.then(() => {
          if (live) setStatus('drawn');
        });
      })
      .catch((error: unknown) => {
        // A cancelled render is this effect's own cleanup, not a failure.
        if (live && !(error instanceof Error && error.name === 'RenderingCancelledException')) {
          setStatus('failed');
        }
      });
    return () => {
      live = false;
      task?.cancel();
    };
  }, [doc, number, boxWidth]);

  return (
    <figure className="flex flex-col items-center gap-1">
      {status === 'failed' ? (
        <p className="w-full rounded-md bg-surface p-4 text-sm text-fg-muted">
          Page {number} could not be drawn.
        </p>
      ) : (
        <canvas
          ref={canvasRef}
          role="img"
          aria-label={pageLabel(number, total, fileName)}
          aria-busy={status === 'drawing'}
          className="h-auto w-full rounded-sm bg-white shadow-sm"
        />
      )}
      {/* The canvas's name already says this to assistive technology. */}
      <figcaption aria-hidden="true" className="text-xs text-fg-muted">
        Page {number} of {total}
      </figcaption>
    </figure>
  );
}
