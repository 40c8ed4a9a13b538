/**
 * Files the client attached to a change request while offline, kept on the device (Cache
 * Storage) until the request is sent: the portal has no upload queue of its own, and
 * localStorage, where the request waits (portal-outbox.ts), holds text only. The request's outbox
 * entry names its files by key; when the network is back each file is uploaded, then the request
 * goes with their ids, then the copies are dropped.
 *
 * Invariants:
 * - A key is made here, once per kept file, under its project: two files of the same name stay
 *   two files. Copies stay while their request waits, like the request itself (leaving the portal
 *   keeps both for the next visit); they go when it is sent or removed.
 * - Without Cache Storage (an old browser, a private window that refuses it) or over quota,
 *   `keep` throws PendingFilesUnavailable and nothing is half kept: the form says the file needs
 *   a connection, as it did before files could wait.
 */

const CACHE_NAME = 'satchel-portal-pending-files';
/** Cache Storage keys are requests: a path of our own that no server route answers. */
const KEY_PREFIX = '/__portal-pending-files__';

/** A kept file as a waiting request names it. */
export interface PendingFileRef {
  readonly key: string;
  readonly name: string;
  readonly type: string;
  readonly size: number;
}

export interface PortalPendingFiles {
  /** Keeps the file's bytes on the device; throws PendingFilesUnavailable when it cannot. */
  keep(projectId: string, file: File): Promise<PendingFileRef>;
  /** The kept file, or null when it is gone (storage cleared by the browser). */
  read(projectId: string, ref: PendingFileRef): Promise<File | null>;
  /** Drops kept files (sent, or taken back by the client). */
  drop(projectId: string, refs: readonly PendingFileRef[]): Promise<void>;
}

export class PendingFilesUnavailable extends Error {
  constructor() {
    super('This device cannot keep files for later.');
    this.name = 'PendingFilesUnavailable';
  }
}

const requestOf = (projectId: string, key: string) =>
  `${KEY_PREFIX}/${encodeURIComponent(projectId)}/${encodeURIComponent(key)}`;

export function createPortalPendingFiles(
  storage: CacheStorage | undefined = typeof caches === 'undefined' ? undefined : caches,
): PortalPendingFiles {
  const open = async (): Promise<Cache | null> => {
    if (!storage) return null;
    try {
      return await storage.open(CACHE_NAME);
    } catch {
      return null;
    }
  };

  return {
    async keep(projectId, file) {
      const cache = await open();
      if (!cache) throw new PendingFilesUnavailable();
      const ref: PendingFileRef = {
        key: crypto.randomUUID(),
        name: file.name,
        type: file.type,
        size: file.size,
      };
      try {
        await cache.put(
          requestOf(projectId, ref.key),
          new Response(file, {
            headers: { 'Content-Type': file.type || 'application/octet-stream' },
          }),
        );
      } catch {
        throw new PendingFilesUnavailable();
      }
      return ref;
    },

    async read(projectId, ref) {
      const cache = await open();
      const response = await cache?.match(requestOf(projectId, ref.key));
      if (!response) return null;
      const bytes = await response.blob();
      return new File([bytes], ref.name, { type: ref.type });
    },

    async drop(projectId, refs) {
      const cache = await open();
      if (!cache) return;
      for (const ref of refs) await cache.delete(requestOf(projectId, ref.key));
    },
  };
}
