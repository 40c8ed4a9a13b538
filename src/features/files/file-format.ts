/** Words and ordering for the Files screens. */
import {
  File as FileIcon,
  FileArchive,
  FileAudio,
  FileImage,
  FileSpreadsheet,
  FileText,
  FileVideo,
  type LucideIcon,
} from 'lucide-react';
import type { LocalFile } from '../../data/files.ts';
import { uploadedAt } from '../../data/file-versions.ts';
import { refusalOf, type StoredUpload } from '../../files/upload-queue.ts';
import type { UploadProgress } from '../../files/upload-progress.ts';
import { fileKindOf, type FileKind } from './file-words.ts';

export { formatBytes, formatFileDate, formatFileDateTime } from './file-words.ts';
export const fileSorts = ['name', 'date', 'size'] as const;
export type FileSort = (typeof fileSorts)[number];

export const fileSortLabels: Record<FileSort, string> = {
  name: 'Name (A–Z)',
  date: 'Newest first',
  size: 'Largest first',
};

const byName = (a: LocalFile, b: LocalFile) =>
  a.name.localeCompare(b.name, undefined, { sensitivity: 'base', numeric: true });

export function sortFiles(files: readonly LocalFile[], sort: FileSort): LocalFile[] {
  const sorted = [...files];
  if (sort === 'name') sorted.sort((a, b) => byName(a, b) || a.id.localeCompare(b.id));
  if (sort === 'size') sorted.sort((a, b) => b.size - a.size || byName(a, b));
  if (sort === 'date') {
    sorted.sort((a, b) => uploadedAt(b).localeCompare(uploadedAt(a)) || byName(a, b));
  }
  return sorted;
}

/** A name matches when every word typed is in it (any case, any accent). */
export function matchesSearch(name: string, query: string): boolean {
  const fold = (text: string) =>
    text
      .normalize('NFD')
      .replace(/\p{Diacritic}/gu, '')
      .toLowerCase();
  const haystack = fold(name);
  return fold(query)
    .split(/\s+/)
    .filter(Boolean)
    .every((word) => haystack.includes(word));
}

const kindIcons: Record<FileKind, LucideIcon> = {
  image: FileImage,
  video: FileVideo,
  audio: FileAudio,
  text: FileText,
  spreadsheet: FileSpreadsheet,
  archive: FileArchive,
  other: FileIcon,
};

export function fileIconOf(type: string, name: string): LucideIcon {
  return kindIcons[fileKindOf(type, name)];
}

/** The last part of a folder path ("Designs/Final" -> "Final"), or "All files" for the top. */
export function folderLabel(folder: string): string {
  return folder === '' ? 'All files' : (folder.split('/').pop() ?? folder);
}

/** The immediate sub-folders of `folder` among every folder in use. */
export function childFolders(all: readonly string[], folder: string): string[] {
  const prefix = folder === '' ? '' : `${folder}/`;
  return all.filter(
    (candidate) =>
      candidate.startsWith(prefix) &&
      candidate !== folder &&
      !candidate.slice(prefix.length).includes('/'),
  );
}

export type UploadPhase =
  | { kind: 'done' }
  | { kind: 'failed'; reason: string }
  | { kind: 'paused'; percent: number }
  | { kind: 'offline'; percent: number }
  | { kind: 'retrying'; percent: number }
  | { kind: 'uploading'; percent: number }
  | { kind: 'waiting' };

/** Where an upload stands, from its entry, its live progress and the network. */
export function uploadPhase(
  entry: StoredUpload,
  progress: UploadProgress | undefined,
  online: boolean,
  now: number,
): UploadPhase {
  if (entry.fileId !== null) return { kind: 'done' };
  if (entry.status === 'failed') {
    return { kind: 'failed', reason: entry.error ?? 'The upload failed.' };
  }
  // Live progress when this tab knows it (it follows the server's offset after a resume).
  const sent = progress?.sent ?? entry.bytesSent ?? 0;
  const percent = entry.size > 0 ? Math.min(100, Math.floor((sent / entry.size) * 100)) : 0;
  if (entry.status === 'paused') return { kind: 'paused', percent };
  if (!online) return { kind: 'offline', percent };
  if ((entry.retryAt ?? 0) > now) return { kind: 'retrying', percent };
  if (entry.status === 'uploading' || progress) return { kind: 'uploading', percent };
  return { kind: 'waiting' };
}

/**
 * A failed upload that trying again cannot fix: the device's own check (refusalOf: an empty file,
 * a name no file may have) refuses it, as the server would, so the screen offers Remove only. Other refusals may pass later (signed in again, storage freed or the
 * plan upgraded, an expired upload started over) and keep Retry; network and server trouble never
 * fails an entry (the runner tries again by itself).
 */
export function isPermanentRefusal(entry: Pick<StoredUpload, 'status' | 'size' | 'name'>): boolean {
  if (entry.status !== 'failed') return false;
  return refusalOf(entry) !== null;
}

export function uploadPhaseText(phase: UploadPhase): string {
  switch (phase.kind) {
    case 'done':
      return 'Uploaded, adding to the list…';
    case 'failed':
      return `Failed: ${phase.reason}`;
    case 'paused':
      return `Paused at ${phase.percent} %`;
    case 'offline':
      return phase.percent > 0
        ? `Waiting for the network (${phase.percent} % sent)`
        : 'Waiting for the network';
    case 'retrying':
      return 'Connection lost, trying again shortly';
    case 'uploading':
      return `Uploading ${phase.percent} %`;
    case 'waiting':
      return 'Waiting to upload';
  }
}
