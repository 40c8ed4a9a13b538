/**
 * pdf.js for the PDF preview, imported only when a preview opens: its library chunk and its
 * worker stay out of the service worker's precache (vite.config.ts) and are cached by the worker
 * the first time they load (src/sw/sw.ts), so a kept PDF previews offline from then on.
 *
 * The document's bytes come from where the other previews get theirs: the copy kept on this
 * device, else (online) a signed inline download link.
 */
import type * as PdfJsModule from 'pdfjs-dist';
import type { PDFDocumentProxy, PDFPageProxy, RenderTask } from 'pdfjs-dist';
// Only the worker's address (a string): the worker script itself is fetched by pdf.js.
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';
import type { AppDatabase } from '../../db/app-database.ts';
import type { LocalFile } from '../../data/files.ts';
import { getCopy } from '../../files/file-copies.ts';
import type { FilesRuntime } from '../../files/files-runtime.ts';
import { NotOnDeviceError } from './file-open.ts';
import {
  PDF_PREVIEW_MAX_DOWNLOAD_BYTES,
  PdfTooLargeError,
  PdfViewerUnavailableError,
  pageSize,
} from './pdf-pages.ts';

type PdfJs = typeof PdfJsModule;

let pdfJs: Promise<PdfJs> | null = null;

/** pdf.js and its worker's address, once per page load (a failed load is tried again next time). */
export function loadPdfJs(): Promise<PdfJs> {
  pdfJs ??= import('pdfjs-dist').then(
    (library) => {
      library.GlobalWorkerOptions.workerSrc = workerUrl;
      return library;
    },
    (error: unknown) => {
      pdfJs = null;
      throw new PdfViewerUnavailableError({ cause: error });
    },
  );
  return pdfJs;
}

/** The bytes of one version of a file: its kept copy, else a download (within the cap). */
export async function readPdfBytes(
  db: AppDatabase,
  runtime: FilesRuntime,
  file: Pick<LocalFile, 'id' | 'name' | 'size'>,
  version: number,
): Promise<Uint8Array> {
  const copy = await getCopy(db, file.id, version);
  if (copy) return new Uint8Array(await copy.blob.arrayBuffer());
  if (!runtime.network.isOnline()) throw new NotOnDeviceError(file.name);
  if (file.size > PDF_PREVIEW_MAX_DOWNLOAD_BYTES) throw new PdfTooLargeError();
  const link = await runtime.getDownloadLink({ id: file.id, version, inline: true });
  const response = await runtime.api.fetch(link.url);
  if (!response.ok) throw new Error(`The PDF could not load (${response.status}).`);
  return new Uint8Array(await response.arrayBuffer());
}

/**
 * Opens a document from its bytes. The app's CSP allows no eval and no WebAssembly, so pdf.js
 * is told to use neither (its JavaScript fallbacks draw the same pages). A password-protected
 * PDF rejects with pdf.js's PasswordException (no password prompt here).
 */
export async function openPdf(bytes: Uint8Array): Promise<PDFDocumentProxy> {
  const library = await loadPdfJs();
  const task = library.getDocument({
    data: bytes,
    isEvalSupported: false,
    useWasm: false,
    enableXfa: false,
    stopAtErrors: false,
  });
  return task.promise;
}

/** Draws a page into a canvas `boxWidth` CSS pixels wide; cancel it with the returned task. */
export function renderPage(
  page: PDFPageProxy,
  canvas: HTMLCanvasElement,
  boxWidth: number,
): RenderTask {
  const base = page.getViewport({ scale: 1 });
  const size = pageSize(base.width, base.height, boxWidth, globalThis.devicePixelRatio ?? 1);
  canvas.width = size.pixelWidth;
  canvas.height = size.pixelHeight;
  return page.render({ canvas, viewport: page.getViewport({ scale: size.scale }) });
}
