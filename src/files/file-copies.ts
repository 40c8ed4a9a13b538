/**
 * "Keep offline": a file's bytes stored on this device (db.fileCopies, one record per file
 * version kept) so it opens with no network, and whole projects kept (db.keptProjects): every
 * file of a kept project is kept, new ones included as they arrive by pull.
 *
 * The keeper (startOfflineKeeper) keeps that true while the app runs: when a kept file gets a
 * newer version, the newer bytes replace the kept ones; a file of a kept project with no copy
 * gets one; a copy whose file is gone (deleted here or on the server) is removed. It works only
 * online and one download at a time (a phone on a weak connection), and downloads a file only
 * inside the Web Lock `satchel-keep:<fileId>` so two tabs never fetch the same bytes.
 */
import type { AppDatabase } from '../db/app-database.ts';
import { observeQuery, useLiveQuery } from '../db/live-query.ts';
import type { FileCopy } from '../db/upload-entry.ts';
import { latestVersionNumber, type LocalFile } from '../data/files.ts';
import type { GetDownloadLink } from './file-access.ts';
import type { NetworkStatus, UploadLocks } from './upload-runner.ts';

export interface KeepDeps {
  db: AppDatabase;
  getDownloadLink: GetDownloadLink;
  fetch: typeof fetch;
}

/** A copy's record without its bytes, for lists and sums (reading a Blob handle is cheap). */
export type CopySummary = Omit<FileCopy, 'blob'>;

/** Downloads the file's latest version and stores it, replacing older kept versions. */
export async function keepFile(
  deps: KeepDeps,
  file: Pick<LocalFile, 'id' | 'workspaceId' | 'projectId' | 'type' | 'versions'>,
): Promise<FileCopy> {
  const version = latestVersionNumber(file);
  const link = await deps.getDownloadLink({ id: file.id, version });
  let response: Response;
  try {
    response = await deps.fetch(link.url);
  } catch {
    throw new Error("Can't reach the server to download this file. Try again when online.");
  }
  if (!response.ok) {
    throw new Error(`The download failed (${response.status}). Try again in a moment.`);
  }
  const blob = await response.blob();
  const copy: FileCopy = {
    fileId: file.id,
    version,
    workspaceId: file.workspaceId,
    projectId: file.projectId,
    size: blob.size,
    type: file.type,
    blob,
    keptAt: new Date().toISOString(),
  };
  await deps.db.transaction('rw', deps.db.fileCopies, async () => {
    await deps.db.fileCopies.where('fileId').equals(file.id).delete();
    await deps.db.fileCopies.put(copy);
  });
  return copy;
}

/**
 * Frees a file's kept bytes. A file of a kept project would only be kept again, so freeing one
 * file stops keeping its project too (its other copies stay); resolves whether it did.
 */
export async function freeFile(
  db: AppDatabase,
  file: Pick<LocalFile, 'id' | 'projectId'>,
): Promise<{ projectReleased: boolean }> {
  return db.transaction('rw', db.fileCopies, db.keptProjects, async () => {
    await db.fileCopies.where('fileId').equals(file.id).delete();
    const kept = await db.keptProjects.get(file.projectId);
    if (kept) await db.keptProjects.delete(file.projectId);
    return { projectReleased: kept !== undefined };
  });
}

export async function keepProject(
  db: AppDatabase,
  project: { id: string; workspaceId: string },
): Promise<void> {
  await db.keptProjects.put({ projectId: project.id, workspaceId: project.workspaceId });
}

/** Stops keeping a project and frees every copy of its files. */
export async function freeProject(
  db: AppDatabase,
  project: { id: string; workspaceId: string },
): Promise<void> {
  await db.transaction('rw', db.fileCopies, db.keptProjects, async () => {
    await db.keptProjects.delete(project.id);
    await db.fileCopies
      .where('[workspaceId+projectId]')
      .equals([project.workspaceId, project.id])
      .delete();
  });
}

/** Frees every kept copy of a workspace (Settings > Storage). */
export async function freeAllCopies(db: AppDatabase, workspaceId: string): Promise<void> {
  await db.transaction('rw', db.fileCopies, db.keptProjects, async () => {
    await db.keptProjects.where('workspaceId').equals(workspaceId).delete();
    await db.fileCopies.where('workspaceId').equals(workspaceId).delete();
  });
}

const summary = ({ blob: _blob, ...rest }: FileCopy): CopySummary => rest;

export async function listCopies(
  db: AppDatabase,
  workspaceId: string,
  projectId?: string,
): Promise<CopySummary[]> {
  const copies =
    projectId === undefined
      ? await db.fileCopies.where('workspaceId').equals(workspaceId).toArray()
      : await db.fileCopies
          .where('[workspaceId+projectId]')
          .equals([workspaceId, projectId])
          .toArray();
  return copies.map(summary);
}

export function useCopies(db: AppDatabase, workspaceId: string, projectId?: string) {
  return useLiveQuery(() => listCopies(db, workspaceId, projectId), [db, workspaceId, projectId]);
}

export function useKeptProject(db: AppDatabase, projectId: string) {
  return useLiveQuery(
    async () => (await db.keptProjects.get(projectId)) !== undefined,
    [db, projectId],
  );
}

/** The copy of exactly this version, if kept. */
export function getCopy(
  db: AppDatabase,
  fileId: string,
  version: number,
): Promise<FileCopy | undefined> {
  return db.fileCopies.get([fileId, version]);
}

export const totalBytes = (copies: readonly Pick<CopySummary, 'size'>[]) =>
  copies.reduce((sum, copy) => sum + copy.size, 0);

/** Files being downloaded for keeping, and why the last try of one failed (this tab only). */
export interface KeepingState {
  busy: ReadonlySet<string>;
  errors: ReadonlyMap<string, string>;
}

export interface OfflineKeeper {
  /** Keeps one file now (the user's "Keep offline"); rejects with the reason it could not. */
  keep: (file: LocalFile) => Promise<void>;
  getState: () => KeepingState;
  subscribe: (listener: () => void) => () => void;
  stop: () => void;
}

export function startOfflineKeeper(
  deps: KeepDeps & { locks: UploadLocks | null; network: NetworkStatus },
): OfflineKeeper {
  const { db, locks, network } = deps;
  let state: KeepingState = { busy: new Set(), errors: new Map() };
  const listeners = new Set<() => void>();
  let stopped = false;
  let working = false;
  let again = false;

  const setState = (change: (busy: Set<string>, errors: Map<string, string>) => void) => {
    const busy = new Set(state.busy);
    const errors = new Map(state.errors);
    change(busy, errors);
    state = { busy, errors };
    for (const listener of listeners) listener();
  };

  const withLock = async (fileId: string, body: () => Promise<void>): Promise<boolean> => {
    if (!locks) {
      await body();
      return true;
    }
    let ran = false;
    await locks.request(`satchel-keep:${fileId}`, { ifAvailable: true }, async (lock) => {
      if (lock === null) return;
      ran = true;
      await body();
    });
    return ran;
  };

  async function download(file: LocalFile): Promise<void> {
    setState((busy, errors) => {
      busy.add(file.id);
      errors.delete(file.id);
    });
    try {
      await withLock(file.id, async () => {
        // Another tab may have kept it meanwhile.
        const have = await db.fileCopies.get([file.id, latestVersionNumber(file)]);
        if (!have) await keepFile(deps, file);
      });
    } catch (error) {
      setState((_, errors) => {
        errors.set(file.id, error instanceof Error ? error.message : 'The download failed.');
      });
      throw error;
    } finally {
      setState((busy) => {
        busy.delete(file.id);
      });
    }
  }

  /** What should be kept and is not, or is kept and should not be. */
  async function plan(): Promise<{ fetch: LocalFile[]; drop: FileCopy[] }> {
    return db.transaction('r', db.files, db.fileCopies, db.keptProjects, async () => {
      const [copies, kept] = await Promise.all([
        db.fileCopies.toArray(),
        db.keptProjects.toArray(),
      ]);
      const keptIds = new Set(copies.map((copy) => copy.fileId));
      const files = new Map<string, LocalFile>();
      for (const id of keptIds) {
        const file = await db.files.get(id);
        if (file) files.set(id, file);
      }
      for (const project of kept) {
        const rows = await db.files
          .where('[workspaceId+projectId]')
          .equals([project.workspaceId, project.projectId])
          .toArray();
        for (const row of rows) if (!row._deleted) files.set(row.id, row);
      }
      const drop = copies.filter((copy) => !files.has(copy.fileId));
      const fetch = [...files.values()].filter(
        (file) =>
          !file._deleted &&
          !copies.some(
            (copy) => copy.fileId === file.id && copy.version === latestVersionNumber(file),
          ),
      );
      return { fetch, drop };
    });
  }

  async function work() {
    if (working) {
      again = true;
      return;
    }
    working = true;
    try {
      do {
        again = false;
        const { fetch, drop } = await plan();
        if (drop.length > 0) {
          await db.fileCopies.bulkDelete(drop.map((copy) => [copy.fileId, copy.version]));
        }
        if (!network.isOnline()) break;
        for (const file of fetch) {
          if (stopped || !network.isOnline()) break;
          if (state.busy.has(file.id) || state.errors.has(file.id)) continue;
          await download(file).catch(() => undefined);
        }
      } while (again && !stopped);
    } finally {
      working = false;
    }
  }

  const stopWatch = observeQuery(
    async () => [
      await db.files.count(),
      await db.keptProjects.count(),
      // A new version changes a row's `versions`: watch the rows of kept files, not only counts.
      (await db.files.toArray()).map((file) => `${file.id}:${file.versions.length}`).join(','),
    ],
    () => void work(),
  );
  const stopNetwork = network.subscribe(() => {
    if (network.isOnline()) {
      // Back online: try again what failed offline.
      setState((_, errors) => errors.clear());
      void work();
    }
  });

  return {
    keep: async (file) => {
      setState((_, errors) => errors.delete(file.id));
      await download(file);
    },
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    stop() {
      stopped = true;
      stopWatch();
      stopNetwork();
      listeners.clear();
    },
  };
}
