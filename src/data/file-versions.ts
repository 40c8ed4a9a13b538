/**
 * A file row's versions, read without the local database: screens that only format files (the
 * client portal among them) import this and not Dexie.
 */
import type { FileVersion } from '#contract/entities/file.ts';

interface Versioned {
  versions: readonly FileVersion[];
  updatedAt: string;
}

/** The file's newest version (the row's size, type and checksum are its). */
export function latestVersion(file: Pick<Versioned, 'versions'>): FileVersion | null {
  return file.versions.at(-1) ?? null;
}

/** The version number a download or an offline copy of the file's current bytes uses. */
export function latestVersionNumber(file: Pick<Versioned, 'versions'>): number {
  return latestVersion(file)?.number ?? 1;
}

/** When the newest bytes arrived (the row's update time when the server sent no versions). */
export function uploadedAt(file: Versioned): string {
  return latestVersion(file)?.uploadedAt ?? file.updatedAt;
}
