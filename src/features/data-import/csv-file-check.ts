/**
 * Whether a picked file may be imported, decided from its name, type and size only: a 50 MB file
 * is refused before a byte of it is read (reading it whole would stall a phone), and a file that
 * is not CSV is refused with words a person can act on.
 */

export const MAX_IMPORT_BYTES = 5 * 1024 * 1024;

// What browsers and operating systems report for .csv: Windows with Excel says the Excel type.
const CSV_TYPES = new Set([
  'text/csv',
  'application/csv',
  'text/x-csv',
  'application/vnd.ms-excel',
]);

export interface PickedFile {
  name: string;
  size: number;
  type: string;
}

/** The message to show, or null when the file may be read. */
export function csvFileProblem(file: PickedFile): string | null {
  const isCsvName = /\.csv$/i.test(file.name);
  const type = file.type.split(';')[0]?.trim().toLowerCase() ?? '';
  if (!isCsvName && !CSV_TYPES.has(type)) {
    return `"${file.name}" is not a CSV file. In your spreadsheet, choose File > Save as (or Download) > CSV, then pick that file.`;
  }
  if (file.size > MAX_IMPORT_BYTES) {
    const mb = (file.size / 1024 / 1024).toFixed(1);
    return `"${file.name}" is ${mb} MB; the limit is 5 MB. Split it into smaller files and import them one after another.`;
  }
  if (file.size === 0) return `"${file.name}" is empty.`;
  return null;
}
