import { describe, expect, it } from 'vitest';
import { NotOnDeviceError } from './file-open.ts';
import {
  describePdfError,
  morePagesNote,
  PDF_MAX_CANVAS_SIDE,
  pageLabel,
  pageSize,
  PdfTooLargeError,
  PdfViewerUnavailableError,
  previewPageNumbers,
} from './pdf-pages.ts';

const named = (name: string) => Object.assign(new Error('pdf.js said no'), { name });

describe('previewPageNumbers', () => {
  it('draws every page of a short document and the first three of a long one', () => {
    expect(previewPageNumbers(1)).toEqual([1]);
    expect(previewPageNumbers(3)).toEqual([1, 2, 3]);
    expect(previewPageNumbers(250)).toEqual([1, 2, 3]);
  });

  it('draws nothing for an empty or nonsensical count', () => {
    expect(previewPageNumbers(0)).toEqual([]);
    expect(previewPageNumbers(-2)).toEqual([]);
  });
});

describe('pageLabel and morePagesNote', () => {
  it('names a page with its number, the count and the file', () => {
    expect(pageLabel(1, 4, 'plan.pdf')).toBe('Page 1 of 4 of plan.pdf');
  });

  it('mentions the rest only when there is more than the preview shows', () => {
    expect(morePagesNote(3)).toBeNull();
    expect(morePagesNote(12)).toBe(
      'The first 3 of 12 pages. Open the PDF in a new tab for the rest.',
    );
  });
});

describe('pageSize', () => {
  it('fills the box at the screen’s pixel ratio, keeping the page’s proportions', () => {
    // A4 (595 x 842 points) in a 300 px box on a 2x screen: 600 canvas pixels wide.
    const size = pageSize(595, 842, 300, 2);
    expect(size.pixelWidth).toBe(600);
    expect(size.pixelHeight).toBe(Math.floor(842 * (600 / 595)));
    expect(size.scale).toBeCloseTo(600 / 595);
  });

  it('caps the pixel ratio at 2 and treats below 1 as 1', () => {
    expect(pageSize(500, 500, 250, 3).pixelWidth).toBe(500);
    expect(pageSize(500, 500, 250, 0.5).pixelWidth).toBe(250);
    expect(pageSize(500, 500, 250, Number.NaN).pixelWidth).toBe(250);
  });

  it('keeps the longest side within the canvas limit (a very tall page)', () => {
    const size = pageSize(100, 10_000, 600, 2);
    expect(size.pixelHeight).toBeLessThanOrEqual(PDF_MAX_CANVAS_SIDE);
    expect(size.pixelWidth).toBe(Math.floor(100 * size.scale));
  });

  it('answers a 1 x 1 bitmap for a page without a size instead of NaN', () => {
    expect(pageSize(0, 842, 300, 1)).toEqual({ pixelWidth: 1, pixelHeight: 1, scale: 1 });
  });
});

describe('describePdfError', () => {
  it('tells a password-protected PDF from a damaged one', () => {
    expect(describePdfError(named('PasswordException'))).toMatch(/password/);
    expect(describePdfError(named('InvalidPDFException'))).toMatch(/damaged or is not a PDF/);
  });

  it('says when the viewer itself is missing and when the file is too large', () => {
    expect(describePdfError(new PdfViewerUnavailableError())).toMatch(/connect once/);
    expect(describePdfError(new PdfTooLargeError())).toMatch(/too large/);
  });

  it('passes on the offline message of a file not on the device', () => {
    const error = new NotOnDeviceError('plan.pdf');
    expect(describePdfError(error)).toBe(error.message);
  });

  it('falls back to the ways out for anything else', () => {
    expect(describePdfError(new TypeError('Failed to fetch'))).toBe(
      'Open it in your browser’s viewer, or download it.',
    );
    expect(describePdfError('not an error')).toBe(
      'Open it in your browser’s viewer, or download it.',
    );
  });
});
