/**
 * Settings > Data's export, end to end on the device: read every table, gather the files' bytes
 * when asked, lay out and zip, then hand back the zip as a Blob named for the download. Works
 * offline (files not kept here are listed in the README instead). Progress is reported per
 * table, per file and per megabyte zipped, and the work pauses between steps so the page paints.
 */
import type { AppDatabase } from '../db/app-database.ts';
import { collectFileBytes, type FileBytesSource } from './collect-file-bytes.ts';
import {
  archiveEntries,
  zipEntries,
  type ExportProgress,
  type MissingFile,
} from './export-archive.ts';
import { exportFileName } from './export-file-name.ts';
import { readWorkspaceTables } from './read-workspace-tables.ts';

export interface ExportWorkspaceOptions {
  db: AppDatabase;
  workspace: { id: string; name: string };
  /** The files' bytes too; null leaves them out (their records are exported either way). */
  files: FileBytesSource | null;
  onProgress?: (progress: ExportProgress) => void;
  now?: () => Date;
}

export interface WorkspaceExport {
  fileName: string;
  blob: Blob;
  recordCount: number;
  fileCount: number;
  missingFiles: MissingFile[];
}

/** A macrotask, so a progress update paints before the next step. */
const pause = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

export async function exportWorkspace(options: ExportWorkspaceOptions): Promise<WorkspaceExport> {
  const { db, workspace, files: source, onProgress } = options;
  const at = (options.now ?? (() => new Date()))();
  const tables = await readWorkspaceTables(db, workspace.id, (done, total) =>
    onProgress?.({ phase: 'reading', done, total }),
  );
  const { files, missing } = source
    ? await collectFileBytes(tables, source, (done, total) =>
        onProgress?.({ phase: 'files', done, total }),
      )
    : { files: [], missing: [] };
  await pause();
  const entries = archiveEntries({
    workspace: { id: workspace.id, name: workspace.name },
    exportedAt: at.toISOString(),
    tables,
    filesRequested: source !== null,
    files,
    missingFiles: missing,
  });
  const chunks = await zipEntries(entries, {
    onProgress: (done, total) => onProgress?.({ phase: 'packing', done, total }),
    pause,
  });
  return {
    fileName: exportFileName(workspace.name, at),
    blob: new Blob(chunks as BlobPart[], { type: 'application/zip' }),
    recordCount: tables.reduce((sum, table) => sum + table.rows.length, 0),
    fileCount: files.length,
    missingFiles: missing,
  };
}
