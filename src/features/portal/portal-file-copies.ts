/**
 * Copies of the files a client opened in the portal, kept on the device (Cache Storage) so they
 * open again offline: on a phone with no signal the client still has the drawings they looked at
 * yesterday.
 *
 * Invariants:
 * - A copy is keyed by project, file and version: a newer version of a file replaces the copies
 *   of its older ones, so the device never shows the client a file the studio has since replaced
 *   as if it were current (the list says which version a copy is).
 * - Copies of a project go when the client leaves the portal on this device (with the offline
 *   copy of the page, portal-snapshot.ts): a shared phone keeps nothing once they leave.
 * - Without Cache Storage (an old browser, a private window that refuses it) nothing is kept and
 *   nothing fails: opening a file simply needs the network.
 */

const CACHE_NAME = 'satchel-portal-files';
/** Cache Storage keys are requests: a path of our own that no server route answers. */
const KEY_PREFIX = '/__portal-file-copies__';

export interface CopiedFile {
  readonly id: string;
  readonly version: number;
  readonly name: string;
  readonly type: string;
}

export interface PortalFileCopies {
  /** Versions kept per file id for a project. */
  kept(projectId: string): Promise<ReadonlyMap<string, number>>;
  /** Keeps the bytes of one version, replacing the file's other versions. */
  keep(projectId: string, file: CopiedFile, bytes: Blob): Promise<void>;
  /** The kept bytes of that version, or null. */
  open(projectId: string, file: CopiedFile): Promise<Blob | null>;
  /** Drops every copy of a project. */
  forget(projectId: string): Promise<void>;
}

const keyOf = (projectId: string, fileId: string, version: number) =>
  `${KEY_PREFIX}/${encodeURIComponent(projectId)}/${encodeURIComponent(fileId)}/${version}`;

/** project id, file id and version of a cache key (its URL's path), or null for another key. */
function parseKey(url: string): { projectId: string; fileId: string; version: number } | null {
  const path = new URL(url, 'http://device').pathname;
  if (!path.startsWith(`${KEY_PREFIX}/`)) return null;
  const [projectId, fileId, version] = path.slice(KEY_PREFIX.length + 1).split('/');
  if (!projectId || !fileId || !version || !/^\d+$/.test(version)) return null;
  return {
    projectId: decodeURIComponent(projectId),
    fileId: decodeURIComponent(fileId),
    version: Number(version),
  };
}

export function createPortalFileCopies(
  storage: CacheStorage | undefined = typeof caches === 'undefined' ? undefined : caches,
): PortalFileCopies {
  const open = async (): Promise<Cache | null> => {
    if (!storage) return null;
    try {
      return await storage.open(CACHE_NAME);
    } catch {
      // Refused (private mode, storage pressure): the portal works without copies.
      return null;
    }
  };
  const keysOf = async (cache: Cache, projectId: string) =>
    (await cache.keys())
      .map((request) => ({ request, key: parseKey(request.url) }))
      .filter((entry) => entry.key?.projectId === projectId);

  return {
    async kept(projectId) {
      const cache = await open();
      const versions = new Map<string, number>();
      if (!cache) return versions;
      for (const { key } of await keysOf(cache, projectId)) {
        if (key) versions.set(key.fileId, Math.max(versions.get(key.fileId) ?? 0, key.version));
      }
      return versions;
    },

    async keep(projectId, file, bytes) {
      const cache = await open();
      if (!cache) return;
      for (const { request, key } of await keysOf(cache, projectId)) {
        if (key?.fileId === file.id && key.version !== file.version) await cache.delete(request);
      }
      try {
        await cache.put(
          keyOf(projectId, file.id, file.version),
          new Response(bytes, {
            headers: {
              'Content-Type': file.type || 'application/octet-stream',
              'X-File-Name': encodeURIComponent(file.name),
            },
          }),
        );
      } catch {
        // Over quota: the file opened, it just is not kept.
      }
    },

    async open(projectId, file) {
      const cache = await open();
      if (!cache) return null;
      const response = await cache.match(keyOf(projectId, file.id, file.version));
      return response ? response.blob() : null;
    },

    async forget(projectId) {
      const cache = await open();
      if (!cache) return;
      for (const { request } of await keysOf(cache, projectId)) await cache.delete(request);
    },
  };
}
