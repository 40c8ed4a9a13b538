/**
 * The files' bytes for an export: the copy kept on this device first (it needs no network), else
 * a download when online. A file that can be had neither way (offline and not kept, a failed
 * download, a deleted blob) is listed with its reason instead of failing the whole export: the
 * user still gets every record and every other file.
 */
import { fileEntity } from '#contract/entities/file.ts';
import { projectEntity } from '#contract/entities/project.ts';
import { latestVersionNumber } from '../data/file-versions.ts';
import type { FileVersion } from '#contract/entities/file.ts';
import { fileArchivePath, uniquePath } from './archive-paths.ts';
import type { ExportedFile, ExportTable, MissingFile } from './export-archive.ts';

export interface FileBytesSource {
  /** The bytes kept on this device for exactly this version, if any. */
  kept: (fileId: string, version: number) => Promise<Blob | undefined>;
  /** A download from the server; null when offline (or no server here). */
  download: ((fileId: string, version: number) => Promise<Blob>) | null;
}

interface FileRow {
  id: string;
  projectId: string;
  name: string;
  folder: string;
  versions: readonly FileVersion[];
}

export async function blobBytes(blob: Blob): Promise<Uint8Array> {
  // jsdom's Blob has no arrayBuffer(); Response reads any Blob.
  const buffer =
    typeof blob.arrayBuffer === 'function'
      ? await blob.arrayBuffer()
      : await new Response(blob).arrayBuffer();
  return new Uint8Array(buffer);
}

function reasonOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/\s+/g, ' ').trim() || 'The download failed.';
}

export async function collectFileBytes(
  tables: readonly ExportTable[],
  source: FileBytesSource,
  onFile?: (done: number, total: number) => void,
): Promise<{ files: ExportedFile[]; missing: MissingFile[] }> {
  const rowsOf = (name: string) => tables.find((table) => table.entity.name === name)?.rows ?? [];
  const projectNames = new Map(
    rowsOf(projectEntity.name).map((row) => [String(row.id), String(row.name ?? row.id)]),
  );
  const fileRows = rowsOf(fileEntity.name) as unknown as readonly FileRow[];
  const taken = new Set<string>();
  const files: ExportedFile[] = [];
  const missing: MissingFile[] = [];
  let done = 0;
  for (const file of fileRows) {
    const path = uniquePath(
      fileArchivePath(projectNames.get(file.projectId) ?? file.projectId, file.folder, file.name),
      taken,
    );
    const version = latestVersionNumber(file);
    try {
      const kept = await source.kept(file.id, version);
      if (kept) {
        files.push({ fileId: file.id, path, bytes: await blobBytes(kept) });
      } else if (!source.download) {
        missing.push({
          fileId: file.id,
          path,
          reason: 'Offline, and not kept on this device. Export again when online.',
        });
      } else {
        files.push({
          fileId: file.id,
          path,
          bytes: await blobBytes(await source.download(file.id, version)),
        });
      }
    } catch (error) {
      missing.push({ fileId: file.id, path, reason: reasonOf(error) });
    }
    done += 1;
    onFile?.(done, fileRows.length);
  }
  return { files, missing };
}
