/**
 * CSV text to a header and rows (papaparse: quoted cells, line breaks inside quotes, commas,
 * semicolons or tabs as a spreadsheet in another language writes them). Rows are numbered as the
 * spreadsheet numbers them (the header is row 1), so an error's "row 7" is row 7 on screen there.
 * Blank rows are dropped and keep their number for the rows after them.
 */
import Papa from 'papaparse';

export interface CsvRow {
  /** The spreadsheet's row number (header = 1). */
  number: number;
  cells: string[];
}

export interface ParsedCsv {
  headers: string[];
  rows: CsvRow[];
}

export function parseClientCsv(text: string): ParsedCsv | { error: string } {
  const parsed = Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), { skipEmptyLines: false });
  const records = parsed.data;
  const header = records[0];
  if (!header || header.every((cell) => cell.trim() === '')) {
    return {
      error: 'The file has no header row. Its first row must name the columns (Name, Email…).',
    };
  }
  const rows: CsvRow[] = [];
  records.slice(1).forEach((cells, index) => {
    if (cells.every((cell) => cell.trim() === '')) return;
    rows.push({ number: index + 2, cells });
  });
  if (rows.length === 0) return { error: 'The file has a header row but no clients under it.' };
  return { headers: header.map((cell, index) => cell.trim() || `Column ${index + 1}`), rows };
}
