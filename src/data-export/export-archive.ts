/**
 * The export's zip, built on the device from what it holds (so it works offline):
 *
 *   README.txt            what is inside, counts, and every file whose bytes could not be had
 *   workspace.json        every synced entity's rows (contract/synced-entities.ts order: a parent
 *                         before its children), plus the same file manifest as the README
 *   csv/<plural>.csv      one CSV per entity, formula-escaped (csv-cell.ts), header from the
 *                         declaration so an empty table still says what it would hold
 *   files/<project>/<folder>/<name>   the files' bytes, when asked for
 *
 * Pure apart from fflate: the layout (archiveEntries) and the zipping (zipEntries) take plain
 * data, so tests and the benchmark run them without a browser. Each entry's text is made a row at
 * a time and deflated a megabyte at a time, so the whole workspace never sits in memory as one
 * text (a phone exporting 60,000 records holds the rows and the compressed zip, little more).
 */
import { Zip, ZipDeflate, ZipPassThrough } from 'fflate';
import type { AnySyncedEntity } from '#contract/synced-entity.ts';
import { exportColumns } from './export-columns.ts';
import { csvLines } from './rows-to-csv.ts';

export const EXPORT_FORMAT = 'satchel-workspace-export';
export const EXPORT_FORMAT_VERSION = 1;

export interface ExportTable {
  entity: AnySyncedEntity;
  /** Rows as exportRow gives them (no device-local fields). */
  rows: readonly Record<string, unknown>[];
}

export interface ExportedFile {
  fileId: string;
  path: string;
  bytes: Uint8Array;
}

export interface MissingFile {
  fileId: string;
  path: string;
  reason: string;
}

export interface ExportContent {
  workspace: { id: string; name: string };
  exportedAt: string;
  tables: readonly ExportTable[];
  /** Whether the user asked for the files' bytes (the README says so either way). */
  filesRequested: boolean;
  files: readonly ExportedFile[];
  missingFiles: readonly MissingFile[];
}

export interface ArchiveEntry {
  path: string;
  /** The entry's content in pieces (text a row at a time, or a file's bytes), made when zipped. */
  parts: () => Iterable<string | Uint8Array>;
  /** Its share of the work, for progress: one per row, one per KiB of a file's bytes. */
  units: number;
  /** Text deflates well; files (images, PDFs, zips) mostly are compressed already: stored. */
  compress: boolean;
}

export type ExportPhase = 'reading' | 'files' | 'packing';

export interface ExportProgress {
  phase: ExportPhase;
  done: number;
  total: number;
}

/**
 * workspace.json, one row per line: readable in an editor and made a row at a time, never as one
 * nested JSON.stringify of the whole workspace.
 */
export function* workspaceJsonParts(content: ExportContent): Generator<string> {
  const head = {
    format: EXPORT_FORMAT,
    formatVersion: EXPORT_FORMAT_VERSION,
    exportedAt: content.exportedAt,
    workspace: content.workspace,
    files: {
      included: content.filesRequested,
      kept: content.files.map(({ fileId, path }) => ({ fileId, path })),
      missing: content.missingFiles,
    },
  };
  yield `${JSON.stringify(head).slice(0, -1)},"entities":{\n`;
  for (const [index, { entity, rows }] of content.tables.entries()) {
    yield `${JSON.stringify(entity.name)}:[`;
    for (const [i, row] of rows.entries()) yield `${i === 0 ? '\n' : ',\n'}${JSON.stringify(row)}`;
    yield `${rows.length > 0 ? '\n]' : ']'}${index < content.tables.length - 1 ? ',\n' : '\n'}`;
  }
  yield '}}\n';
}

export function workspaceJson(content: ExportContent): string {
  return [...workspaceJsonParts(content)].join('');
}

export function readmeText(content: ExportContent): string {
  const lines = [
    `Satchel export of the workspace "${content.workspace.name}"`,
    `Made on ${content.exportedAt} from the data on this device.`,
    '',
    'workspace.json  every record, by kind (the same data as the CSV files, exactly as stored)',
    'csv/            one spreadsheet per kind of record',
    '                A cell starting with = + - @ or a tab is written with a leading single',
    '                quote so spreadsheets show it as text instead of running it as a formula.',
    content.filesRequested
      ? 'files/          the files of each project, by project and folder'
      : 'files/          not included (tick "Include files" to add them)',
    '',
    'Records:',
    ...content.tables.map(({ entity, rows }) => `  ${entity.plural}: ${rows.length}`),
  ];
  if (content.filesRequested) {
    lines.push('', `Files included: ${content.files.length}`);
    if (content.missingFiles.length > 0) {
      lines.push(
        `Files not included: ${content.missingFiles.length} (their records are in workspace.json)`,
        ...content.missingFiles.map(({ path, reason }) => `  ${path}: ${reason}`),
      );
    }
  }
  return `${lines.join('\n')}\n`;
}

/** Every entry of the zip, in the order they are written. */
export function archiveEntries(content: ExportContent): ArchiveEntry[] {
  const rowCount = content.tables.reduce((sum, table) => sum + table.rows.length, 0);
  return [
    { path: 'README.txt', parts: () => [readmeText(content)], units: 1, compress: true },
    {
      path: 'workspace.json',
      parts: () => workspaceJsonParts(content),
      units: rowCount + 1,
      compress: true,
    },
    ...content.tables.map(({ entity, rows }) => ({
      path: `csv/${entity.plural}.csv`,
      parts: () => csvLines(exportColumns(entity), rows),
      units: rows.length + 1,
      compress: true,
    })),
    ...content.files.map(({ path, bytes }) => ({
      path,
      parts: () => [bytes],
      units: Math.ceil(bytes.length / 1024) + 1,
      compress: false,
    })),
  ];
}

/** Text is encoded and deflated in pieces of about this many characters. */
const CHUNK_CHARS = 1024 * 1024;

export interface ZipOptions {
  /** Called with units done of all units (ArchiveEntry.units), after each piece zipped. */
  onProgress?: (done: number, total: number) => void;
  /** Awaited between pieces, so a page can paint its progress (nothing in Node). */
  pause?: () => Promise<void>;
}

const encoder = new TextEncoder();

/**
 * Zips the entries a piece at a time (fflate's streaming Zip, on this thread: no worker, so the
 * page's content security policy needs nothing new). Resolves the zip's chunks, which a page
 * turns into one Blob without copying them into one array first.
 */
export async function zipEntries(
  entries: readonly ArchiveEntry[],
  options: ZipOptions = {},
): Promise<Uint8Array[]> {
  const chunks: Uint8Array[] = [];
  let failure: Error | null = null;
  const zip = new Zip((error, chunk) => {
    if (error) failure = error;
    else chunks.push(chunk);
  });
  const total = entries.reduce((sum, entry) => sum + entry.units, 0);
  let before = 0;
  for (const entry of entries) {
    const file = entry.compress
      ? // Level 1: 2.6x faster than the default 6 on 60,000 records for a zip 1.4x the size
        // (BENCHMARKS.md, export); a phone's wait matters more than a few megabytes.
        new ZipDeflate(entry.path, { level: 1 })
      : new ZipPassThrough(entry.path);
    zip.add(file);
    let pending: string[] = [];
    let pendingChars = 0;
    let units = 0;
    const flush = async (final: boolean) => {
      file.push(encoder.encode(pending.join('')), final);
      pending = [];
      pendingChars = 0;
      if (failure) throw failure;
      options.onProgress?.(before + Math.min(units, entry.units), total);
      await options.pause?.();
    };
    for (const part of entry.parts()) {
      if (typeof part === 'string') {
        pending.push(part);
        pendingChars += part.length;
        units += 1;
        if (pendingChars >= CHUNK_CHARS) await flush(false);
      } else {
        if (pending.length > 0) await flush(false);
        units += Math.ceil(part.length / 1024);
        file.push(part, false);
      }
    }
    await flush(true);
    before += entry.units;
  }
  zip.end();
  if (failure) throw failure as Error;
  return chunks;
}
