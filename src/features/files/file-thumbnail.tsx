/**
 * A file's picture: for an image (never SVG), its kept copy through an object URL, or online a
 * signed inline link; for anything else, or while it loads or when it cannot, an icon by type.
 */
import { useEffect, useState } from 'react';
import type { AppDatabase } from '../../db/app-database.ts';
import { useLiveQuery } from '../../db/live-query.ts';
import { latestVersionNumber, type LocalFile } from '../../data/files.ts';
import { previewKindOf } from '../../files/file-access.ts';
import type { FilesRuntime } from '../../files/files-runtime.ts';
import { fileIconOf } from './file-format.ts';

/** An object URL for a Blob, revoked when the Blob changes or the component goes. */
export function useObjectUrl(blob: Blob | null | undefined): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!blob || typeof URL.createObjectURL !== 'function') {
      setUrl(null);
      return;
    }
    const next = URL.createObjectURL(blob);
    setUrl(next);
    return () => URL.revokeObjectURL(next);
  }, [blob]);
  return url;
}

/** The image's address: its kept copy first, else (online) an inline link. */
export function useImageUrl(
  db: AppDatabase,
  runtime: FilesRuntime,
  file: Pick<LocalFile, 'id' | 'type' | 'versions'>,
  online: boolean,
): string | null {
  const isImage = previewKindOf(file.type) === 'image';
  const version = latestVersionNumber(file);
  const copy = useLiveQuery(
    async () => (isImage ? ((await db.fileCopies.get([file.id, version])) ?? null) : null),
    [db, file.id, version, isImage],
  );
  const local = useObjectUrl(copy?.blob);
  const [remote, setRemote] = useState<{ key: string; url: string } | null>(null);
  const key = `${file.id}:${version}`;
  const wantRemote = isImage && copy === null && online;
  useEffect(() => {
    if (!wantRemote) return;
    let live = true;
    runtime
      .getDownloadLink({ id: file.id, version, inline: true })
      .then((link) => {
        if (live) setRemote({ key, url: link.url });
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [wantRemote, runtime, file.id, version, key]);
  if (local) return local;
  return wantRemote && remote?.key === key ? remote.url : null;
}

export function FileThumbnail({
  db,
  runtime,
  file,
  online,
  large = false,
}: {
  db: AppDatabase;
  runtime: FilesRuntime;
  file: Pick<LocalFile, 'id' | 'type' | 'name' | 'versions'>;
  online: boolean;
  large?: boolean;
}) {
  const url = useImageUrl(db, runtime, file, online);
  const [broken, setBroken] = useState<string | null>(null);
  const Icon = fileIconOf(file.type, file.name);
  const box = large ? 'aspect-[4/3] w-full rounded-t-xl' : 'size-10 shrink-0 rounded-lg';
  if (url && broken !== url) {
    return (
      <img
        src={url}
        alt=""
        loading="lazy"
        decoding="async"
        onError={() => setBroken(url)}
        className={`${box} bg-surface-muted object-cover`}
      />
    );
  }
  return (
    <span className={`${box} grid place-items-center bg-surface-muted text-fg-muted`}>
      <Icon aria-hidden="true" size={large ? 36 : 20} />
    </span>
  );
}
