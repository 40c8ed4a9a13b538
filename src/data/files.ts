/**
 * Project files on this device: the synced `file` rows (contract/entities/file.ts), read live from
 * the local database, and the three changes a device may make to one (rename, move to a folder,
 * show or hide it in the portal) and its delete, written through the generic entity writes like
 * tasks and notes (entity-writes.ts), so they work offline and sync later. A file is never
 * created here: bytes arrive by upload (src/files/upload-queue.ts) and the row by pull.
 */
import { fileEntity } from '#contract/entities/file.ts';
import type { AppDatabase, LocalRow } from '../db/app-database.ts';
import { useLiveQuery } from '../db/live-query.ts';
import { entityWrites } from './entity-writes.ts';

export { latestVersion, latestVersionNumber, uploadedAt } from './file-versions.ts';

export type LocalFile = LocalRow<'file'>;

export const fileWrites = entityWrites(fileEntity);

const live = <T extends { _deleted: boolean }>(rows: T[]) => rows.filter((row) => !row._deleted);

/** Folder, then name as a person reads it (case-insensitive, numbers in order), then id. */
export function byFolderAndName(a: LocalFile, b: LocalFile): number {
  return (
    a.folder.localeCompare(b.folder, undefined, { sensitivity: 'base', numeric: true }) ||
    a.name.localeCompare(b.name, undefined, { sensitivity: 'base', numeric: true }) ||
    (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
  );
}

export async function listProjectFiles(
  db: AppDatabase,
  workspaceId: string,
  projectId: string,
): Promise<LocalFile[]> {
  const rows = await db.files
    .where('[workspaceId+projectId]')
    .equals([workspaceId, projectId])
    .toArray();
  return live(rows).sort(byFolderAndName);
}

/** The files of every project of a client, newest change first, with their project's name. */
export async function listClientFiles(
  db: AppDatabase,
  workspaceId: string,
  clientId: string,
): Promise<{ file: LocalFile; projectName: string; clientId: string }[]> {
  const projects = live(
    await db.projects.where('[workspaceId+clientId]').equals([workspaceId, clientId]).toArray(),
  );
  const pages = await Promise.all(
    projects.map(async (project) =>
      (await listProjectFiles(db, workspaceId, project.id)).map((file) => ({
        file,
        projectName: project.name,
        clientId,
      })),
    ),
  );
  return pages
    .flat()
    .sort(
      (a, b) => (a.file.updatedAt < b.file.updatedAt ? 1 : -1) || byFolderAndName(a.file, b.file),
    );
}

export function useProjectFiles(db: AppDatabase, workspaceId: string, projectId: string) {
  return useLiveQuery(
    () => listProjectFiles(db, workspaceId, projectId),
    [db, workspaceId, projectId],
  );
}

export function useClientFiles(db: AppDatabase, workspaceId: string, clientId: string) {
  return useLiveQuery(
    () => listClientFiles(db, workspaceId, clientId),
    [db, workspaceId, clientId],
  );
}

/** The folders in use, with every parent of a nested one ("A/B" brings "A"), sorted. */
export function foldersOf(files: readonly Pick<LocalFile, 'folder'>[]): string[] {
  const folders = new Set<string>();
  for (const { folder } of files) {
    if (folder === '') continue;
    const parts = folder.split('/');
    for (let depth = 1; depth <= parts.length; depth += 1) {
      folders.add(parts.slice(0, depth).join('/'));
    }
  }
  return [...folders].sort((a, b) => a.localeCompare(b, undefined, { sensitivity: 'base' }));
}
