/**
 * Opening and downloading a file from the screens: the kept copy when this device has the
 * version asked for (no network needed), else a signed link from the server. Offline without a
 * copy, it says so instead of failing silently.
 */
import { useCallback, useMemo } from 'react';
import type { AppDatabase } from '../../db/app-database.ts';
import { latestVersionNumber, type LocalFile } from '../../data/files.ts';
import {
  openInNewTab,
  previewKindOf,
  previewText,
  safeBlobOf,
  saveFromUrl,
  TEXT_PREVIEW_BYTES,
} from '../../files/file-access.ts';
import { getCopy } from '../../files/file-copies.ts';
import type { FilesRuntime } from '../../files/files-runtime.ts';

export type OpenableFile = Pick<LocalFile, 'id' | 'name' | 'type' | 'versions' | 'size'>;

export class NotOnDeviceError extends Error {
  constructor(name: string) {
    super(
      `“${name}” isn't kept on this device, so it can't open offline. Connect to open it, or choose Keep offline next time.`,
    );
    this.name = 'NotOnDeviceError';
  }
}

/** An object URL that lives long enough for the browser to start with it. */
function temporaryUrl(blob: Blob): string {
  const url = URL.createObjectURL(blob);
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
  return url;
}

export interface FileOpener {
  /** Saves the file (a version of it, or its latest) to the user's downloads. */
  download(file: OpenableFile, version?: number): Promise<void>;
  /** Opens an image, PDF or text in a new tab (the browser's own viewer). */
  openInTab(file: OpenableFile, version?: number): Promise<void>;
  /** The first few KB of a text file. */
  readText(file: OpenableFile): Promise<{ text: string; cut: boolean }>;
}

export function useFileOpener(db: AppDatabase, runtime: FilesRuntime): FileOpener {
  const { getDownloadLink, network, api } = runtime;

  const linkOf = useCallback(
    async (file: OpenableFile, version: number, inline: boolean) => {
      if (!network.isOnline()) throw new NotOnDeviceError(file.name);
      return getDownloadLink({ id: file.id, version, ...(inline ? { inline } : {}) });
    },
    [getDownloadLink, network],
  );

  const download = useCallback(
    async (file: OpenableFile, version = latestVersionNumber(file)) => {
      const copy = await getCopy(db, file.id, version);
      if (copy) {
        saveFromUrl(temporaryUrl(copy.blob), file.name);
        return;
      }
      const link = await linkOf(file, version, false);
      saveFromUrl(link.url, link.fileName);
    },
    [db, linkOf],
  );

  const openInTab = useCallback(
    (file: OpenableFile, version = latestVersionNumber(file)) =>
      openInNewTab(
        (async () => {
          const copy = await getCopy(db, file.id, version);
          if (copy) return temporaryUrl(safeBlobOf(copy));
          return (await linkOf(file, version, previewKindOf(file.type) !== 'none')).url;
        })(),
      ),
    [db, linkOf],
  );

  const readText = useCallback(
    async (file: OpenableFile) => {
      const copy = await getCopy(db, file.id, latestVersionNumber(file));
      if (copy) return previewText(copy.blob);
      const link = await linkOf(file, latestVersionNumber(file), true);
      const response = await api.fetch(link.url, {
        headers: { Range: `bytes=0-${TEXT_PREVIEW_BYTES - 1}` },
      });
      if (!response.ok) throw new Error(`The preview could not load (${response.status}).`);
      const preview = await previewText(await response.blob());
      return { text: preview.text, cut: file.size > TEXT_PREVIEW_BYTES };
    },
    [db, linkOf, api],
  );

  return useMemo(() => ({ download, openInTab, readText }), [download, openInTab, readText]);
}
