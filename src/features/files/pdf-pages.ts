/**
 * The PDF preview's pure parts: how many pages it draws, how big, what each page is called and
 * what a failure says. pdf.js itself loads only when a preview opens (`pdf-render.ts`).
 */

/** The preview draws at most this many pages; the browser's viewer shows the rest. */
export const PDF_PREVIEW_PAGES = 3;

/**
 * A PDF not kept on the device downloads whole to be previewed; above this size the preview
 * leaves it to the browser's viewer, which loads only the pages it shows.
 */
export const PDF_PREVIEW_MAX_DOWNLOAD_BYTES = 25 * 1024 * 1024;

/** A canvas side never exceeds this many pixels (memory on phones; browsers' own limits). */
export const PDF_MAX_CANVAS_SIDE = 4096;

/** The pages the preview draws for a document of `total` pages: 1, 2, 3 or fewer. */
export function previewPageNumbers(total: number): number[] {
  const count = Math.max(0, Math.min(PDF_PREVIEW_PAGES, Math.floor(total)));
  return Array.from({ length: count }, (_, index) => index + 1);
}

/** A page canvas's accessible name: "Page 1 of 4 of plan.pdf". */
export function pageLabel(page: number, total: number, fileName: string): string {
  return `Page ${page} of ${total} of ${fileName}`;
}

/** The line under the pages when the document has more than the preview shows. */
export function morePagesNote(total: number): string | null {
  if (total <= PDF_PREVIEW_PAGES) return null;
  return `The first ${PDF_PREVIEW_PAGES} of ${total} pages. Open the PDF in a new tab for the rest.`;
}

export interface PageSize {
  /** Canvas pixels (the bitmap). */
  pixelWidth: number;
  pixelHeight: number;
  /** The scale to render at, from PDF points to canvas pixels. */
  scale: number;
}

/**
 * The bitmap for a page of `pageWidth` x `pageHeight` points shown `boxWidth` CSS pixels wide on
 * a screen of `pixelRatio` (capped at 2: sharper costs memory and shows no better on a phone).
 * No side goes over PDF_MAX_CANVAS_SIDE; the page keeps its proportions.
 */
export function pageSize(
  pageWidth: number,
  pageHeight: number,
  boxWidth: number,
  pixelRatio: number,
): PageSize {
  if (!(pageWidth > 0) || !(pageHeight > 0)) return { pixelWidth: 1, pixelHeight: 1, scale: 1 };
  const ratio = Math.min(2, Math.max(1, Number.isFinite(pixelRatio) ? pixelRatio : 1));
  const width = Math.max(1, boxWidth) * ratio;
  let scale = width / pageWidth;
  const longest = Math.max(pageWidth, pageHeight) * scale;
  if (longest > PDF_MAX_CANVAS_SIDE) scale *= PDF_MAX_CANVAS_SIDE / longest;
  return {
    pixelWidth: Math.max(1, Math.floor(pageWidth * scale)),
    pixelHeight: Math.max(1, Math.floor(pageHeight * scale)),
    scale,
  };
}

/** Thrown when pdf.js itself cannot load (offline before it was ever fetched, a failed chunk). */
export class PdfViewerUnavailableError extends Error {
  constructor(options?: { cause?: unknown }) {
    super('The PDF viewer could not load.', options);
    this.name = 'PdfViewerUnavailableError';
  }
}

/** Thrown instead of downloading a PDF too large to preview from the network. */
export class PdfTooLargeError extends Error {
  constructor() {
    super('The PDF is too large to preview here.');
    this.name = 'PdfTooLargeError';
  }
}

/**
 * What the error state says under "This PDF could not be shown", from what failed: pdf.js names
 * its errors (PasswordException, InvalidPDFException, ...), the loader and the byte source theirs.
 */
export function describePdfError(error: unknown): string {
  const name = error instanceof Error ? error.name : '';
  switch (name) {
    case 'PasswordException':
      return 'It is protected by a password. Open it in your browser to enter the password, or download it.';
    case 'InvalidPDFException':
    case 'FormatError':
      return 'The file is damaged or is not a PDF. Download it to open it in another app.';
    case 'PdfViewerUnavailableError':
      return 'The PDF viewer is not on this device yet: connect once to load it. You can still download the file.';
    case 'PdfTooLargeError':
      return 'It is too large to preview here. Open it in your browser’s viewer, or keep it offline to preview it here.';
    case 'NotOnDeviceError':
      return error instanceof Error ? error.message : '';
    default:
      return 'Open it in your browser’s viewer, or download it.';
  }
}
