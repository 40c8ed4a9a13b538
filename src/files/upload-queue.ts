/**
 * The upload queue on this device (src/db/upload-entry.ts): picking or dropping files writes one
 * entry per file, bytes included, before anything goes on the network, so a file chosen offline,
 * or one whose upload a closed laptop cut short, is still here after a reload. The runner
 * (upload-runner.ts) sends queued entries; these functions are what the screens do to them.
 *
 * An entry's life: queued -> uploading -> done (fileId set) -> removed once the file row it wrote
 * has arrived by pull, so the list shows the upload until the file takes its place. Paused and
 * failed entries wait for the user (Resume, Retry or Cancel). Statuses are written to Dexie as
 * they change (every tab sees them); bytes sent only about once a second (upload-progress.ts).
 */
import { fileNameSchema } from '#contract/entities/file.ts';
import type { PlanLimitRefusal } from '#contract/entities/plan.ts';
import * as v from 'valibot';
import { v7 as uuidv7 } from 'uuid';
import type { AppDatabase } from '../db/app-database.ts';
import { useLiveQuery } from '../db/live-query.ts';
import type { UploadEntry, UploadStatus } from '../db/upload-entry.ts';

/**
 * An entry as stored: the declared record plus what the runner notes on it for every tab and for
 * a reload (neither is indexed): bytes sent, written about once a second, and when a failed
 * attempt is tried again.
 */
export type StoredUpload = UploadEntry & {
  bytesSent?: number;
  retryAt?: number | null;
  /** A failure over the plan's limit (storage full): which, so the screen can offer an upgrade. */
  planLimit?: PlanLimitRefusal | null;
};

/** The part of the uploads table the files code uses, typed with those notes. */
export interface StoredUploads {
  get(id: string): Promise<StoredUpload | undefined>;
  update(id: string, changes: Partial<StoredUpload>): Promise<number>;
  bulkAdd(rows: readonly StoredUpload[]): Promise<unknown>;
  toArray(): Promise<StoredUpload[]>;
  where(index: string): { equals(key: readonly unknown[]): { toArray(): Promise<StoredUpload[]> } };
}

/** The uploads table typed with those notes (Dexie stores what it is given). */
export const uploadsTable = (db: AppDatabase) => db.uploads as unknown as StoredUploads;

export interface PickedFile {
  name: string;
  type: string;
  size: number;
  /** A File is a Blob: IndexedDB keeps its bytes. */
  blob: Blob;
}

export interface QueueTarget {
  workspaceId: string;
  projectId: string;
  /** The folder shown when the files were picked ('' is the top level). */
  folder: string;
}

export interface QueueOptions {
  now?: () => number;
  newId?: () => string;
}

/**
 * A reason to refuse a file before its bytes travel (the server would refuse it the same way):
 * the same bytes under the same name are always refused, so a retry cannot help.
 */
export function refusalOf(file: Pick<PickedFile, 'size' | 'name'>): string | null {
  if (file.size === 0) return 'The file is empty (0 bytes).';
  const name = v.safeParse(fileNameSchema, file.name);
  return name.success ? null : (name.issues[0]?.message ?? 'This file name cannot be used.');
}

/** Writes one entry per file (a file refused locally is written failed, with the reason). */
export async function queueUploads(
  db: AppDatabase,
  target: QueueTarget,
  files: readonly PickedFile[],
  options: QueueOptions = {},
): Promise<StoredUpload[]> {
  const now = options.now ?? Date.now;
  const newId = options.newId ?? uuidv7;
  const entries = files.map((file, index): StoredUpload => {
    const refusal = refusalOf(file);
    return {
      id: newId(),
      workspaceId: target.workspaceId,
      projectId: target.projectId,
      name: file.name.trim(),
      folder: target.folder,
      type: file.type,
      size: file.size,
      blob: file.blob,
      status: refusal ? 'failed' : 'queued',
      uploadUrl: null,
      error: refusal,
      fileId: null,
      // Picked together: the order they were picked in.
      createdAt: new Date(now() + index).toISOString(),
      bytesSent: 0,
    };
  });
  await uploadsTable(db).bulkAdd(entries);
  return entries;
}

/** Done: the server wrote the file row; the entry waits for that row to arrive. */
export const isUploadDone = (entry: Pick<UploadEntry, 'fileId'>) => entry.fileId !== null;

/** Entries the runner may send: queued, or left "uploading" by a tab that went away. */
export const isSendable = (entry: Pick<UploadEntry, 'status' | 'fileId'>) =>
  !isUploadDone(entry) && (entry.status === 'queued' || entry.status === 'uploading');

async function setStatus(
  db: AppDatabase,
  id: string,
  from: readonly UploadStatus[],
  to: UploadStatus,
): Promise<boolean> {
  return db.transaction('rw', db.uploads, async () => {
    const entry = await db.uploads.get(id);
    if (!entry || isUploadDone(entry) || !from.includes(entry.status)) return false;
    await uploadsTable(db).update(id, { status: to, error: null, retryAt: null, planLimit: null });
    return true;
  });
}

export const pauseUpload = (db: AppDatabase, id: string) =>
  setStatus(db, id, ['queued', 'uploading'], 'paused');
export const resumeUpload = (db: AppDatabase, id: string) =>
  setStatus(db, id, ['paused'], 'queued');
export const retryUpload = (db: AppDatabase, id: string) => setStatus(db, id, ['failed'], 'queued');
/** An upload the runner stopped (offline) waits queued, unless the user paused it meanwhile. */
export const requeueUpload = (db: AppDatabase, id: string) =>
  setStatus(db, id, ['uploading'], 'queued');

/**
 * Takes an entry off the queue; resolves it as it was (its uploadUrl says what to terminate on
 * the server), or undefined when it was already gone.
 */
export async function removeUpload(db: AppDatabase, id: string): Promise<StoredUpload | undefined> {
  return db.transaction('rw', db.uploads, async () => {
    const entry = await uploadsTable(db).get(id);
    if (entry) await db.uploads.delete(id);
    return entry;
  });
}

export async function listProjectUploads(
  db: AppDatabase,
  workspaceId: string,
  projectId: string,
): Promise<StoredUpload[]> {
  const rows = await uploadsTable(db)
    .where('[workspaceId+projectId]')
    .equals([workspaceId, projectId])
    .toArray();
  return rows.sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
}

export function useProjectUploads(db: AppDatabase, workspaceId: string, projectId: string) {
  return useLiveQuery(
    () => listProjectUploads(db, workspaceId, projectId),
    [db, workspaceId, projectId],
  );
}
