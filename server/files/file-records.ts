/**
 * The database side of files: committing a finished upload as a file row (a new file, or a new
 * version of the file of that name in that folder), the storage ledger (file_blob) that storage
 * use and the cleanup read, and the checks a download link needs.
 *
 * Invariants:
 * - A file row and its file_blob rows are written in one transaction, after the bytes are in
 *   storage: a row never names bytes that are not there. If the transaction fails, the caller
 *   removes the bytes it stored.
 * - Uploads of one name in one folder of a project are serialised (an advisory lock), so two
 *   devices uploading "brief.pdf" at once make one file with two versions, not two files.
 * - The same bytes uploaded again as the latest version of the same file (a device whose answer
 *   was lost, retrying) add nothing: the existing file is answered.
 */
import { v7 as uuidv7 } from 'uuid';
import { fileEntity, type FileVersion } from '#contract/entities/file.ts';
import { UPGRADE_PATH } from '#contract/entities/plan.ts';
import type { Queryable } from '../db/database.ts';
import { entitySql } from '../endpoints/entity-sql.ts';
import { writeActivity } from '../endpoints/entity-handlers.ts';
import { workspacePlan } from '../endpoints/plan-limits.ts';
import { requireProjectMember } from '../endpoints/workspace-access.ts';
import { AppError, ErrorCode } from '../http/app-error.ts';
import type { ChangeRecorder } from '../sync/change-recorder.ts';
import type { Uploader } from './upload-route.ts';

type Row = Record<string, unknown>;

const sql = entitySql(fileEntity as never);
const entity = sql.entity;

export const PROJECT_GONE = 'The project does not exist, or you do not have access to it.';

/** The project's workspace, checked against the caller's membership (404 otherwise, no probing). */
export async function projectWorkspace(
  tx: Queryable,
  projectId: string,
  userId: string,
): Promise<string> {
  return (await requireProjectMember(tx, projectId, userId, PROJECT_GONE)).workspaceId;
}

/** Bytes of every stored version in the workspace. */
export async function storageUsed(tx: Queryable, workspaceId: string): Promise<number> {
  const { rows } = await tx.query<{ used: string | number }>(
    'SELECT COALESCE(SUM(size), 0) AS used FROM file_blob WHERE workspace_id = $1',
    [workspaceId],
  );
  return Number(rows[0]?.used ?? 0);
}

/** Refuses `size` more bytes beyond the plan's storage (a 413 naming the limit). */
export async function requireStorageRoom(
  tx: Queryable,
  workspaceId: string,
  size: number,
): Promise<void> {
  const plan = await workspacePlan(tx, workspaceId);
  const max = plan.limits.storageBytes;
  const used = await storageUsed(tx, workspaceId);
  if (used + size <= max) return;
  throw new AppError(
    ErrorCode.PAYLOAD_TOO_LARGE,
    `This file does not fit in the ${plan.name} plan's ${formatBytes(max)} of storage (${formatBytes(used)} used). Delete files or upgrade the plan.`,
    { details: { limit: 'storageBytes', plan: plan.id, max, used, upgradePath: UPGRADE_PATH } },
  );
}

export function formatBytes(bytes: number): string {
  const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return unit === 0 ? `${bytes} bytes` : `${Number(value.toFixed(1))} ${units[unit]}`;
}

export interface CommittedUpload {
  fileId: string;
  /** The bytes were already the file's latest version: nothing was written. */
  duplicate: boolean;
  version: number;
}

/**
 * Records a stored blob as a file's newest version (a new file when the folder has no file of
 * that name). Call inside the transaction; the blob must already be in storage.
 */
export async function commitUpload(
  tx: Queryable,
  changes: ChangeRecorder,
  upload: {
    /** Checked again here: a right lost while the bytes arrived stops the commit. */
    uploader: Pick<Uploader, 'workspaceOf' | 'actorId' | 'actorName'>;
    projectId: string;
    proposedFileId: string | null;
    name: string;
    folder: string;
    type: string;
    size: number;
    checksum: string;
    blobName: string;
  },
): Promise<CommittedUpload> {
  const { uploader } = upload;
  const workspaceId = await uploader.workspaceOf(tx, upload.projectId);
  await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [
    `file:${upload.projectId}/${upload.folder}/${upload.name.toLowerCase()}`,
  ]);
  const { rows } = await tx.query<Row>(
    `SELECT ${sql.select} FROM ${sql.table}
     WHERE project_id = $1 AND folder = $2 AND lower(name) = lower($3)
     ORDER BY created_at LIMIT 1 FOR UPDATE`,
    [upload.projectId, upload.folder, upload.name],
  );
  const existing = rows[0] ? sql.toRow(rows[0]) : null;
  const versions = (existing?.versions ?? []) as FileVersion[];
  const latest = versions.at(-1);
  if (existing && latest?.checksum === upload.checksum && latest.size === upload.size) {
    return { fileId: String(existing.id), duplicate: true, version: latest.number };
  }
  await requireStorageRoom(tx, workspaceId, upload.size);

  const fileId = existing ? String(existing.id) : await freshId(tx, upload.proposedFileId);
  const seq = await changes.record({
    workspaceId,
    table: entity.table as never,
    entityId: fileId,
    op: 'upsert',
  });
  const version: FileVersion = {
    number: (latest?.number ?? 0) + 1,
    size: upload.size,
    type: upload.type,
    checksum: upload.checksum,
    blobName: upload.blobName,
    uploadedBy: uploader.actorId,
    uploadedAt: new Date().toISOString(),
  };
  const latestFields = [
    upload.size,
    upload.type,
    upload.checksum,
    upload.blobName,
    uploader.actorId,
    JSON.stringify([...versions, version]),
  ];
  const written = existing
    ? await tx.query<Row>(
        `UPDATE ${sql.table}
         SET size = $2, type = $3, checksum = $4, blob_name = $5, uploaded_by = $6::text,
             versions = $7::jsonb, updated_at = now(), updated_by = $6::uuid, version = $8
         WHERE id = $1 RETURNING ${sql.select}`,
        [fileId, ...latestFields, seq],
      )
    : await tx.query<Row>(
        `INSERT INTO ${sql.table}
           (id, workspace_id, project_id, name, folder, size, type, checksum, blob_name,
            uploaded_by, versions, created_by, updated_by, version)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::text, $11::jsonb, $10::uuid, $10::uuid, $12)
         RETURNING ${sql.select}`,
        [fileId, workspaceId, upload.projectId, upload.name, upload.folder, ...latestFields, seq],
      );
  await tx.query(
    'INSERT INTO file_blob (blob_name, workspace_id, file_id, size) VALUES ($1, $2, $3, $4)',
    [upload.blobName, workspaceId, fileId, upload.size],
  );
  const row = sql.toRow(written.rows[0] as Row);
  await writeActivity(tx, entity, {
    workspaceId,
    seq,
    row,
    actorId: uploader.actorId,
    ...(uploader.actorName === undefined ? {} : { actorName: uploader.actorName }),
    op: existing ? 'update' : 'create',
    ...(existing
      ? { changes: { version: { from: latest?.number ?? 0, to: version.number } } }
      : {}),
  });
  return { fileId, duplicate: false, version: version.number };
}

/** The device's proposed id when it is free, else a new one (ids are never reused or trusted). */
async function freshId(tx: Queryable, proposed: string | null): Promise<string> {
  if (proposed) {
    const { rowCount } = await tx.query('SELECT 1 FROM project_file WHERE id = $1', [proposed]);
    if (rowCount === 0) return proposed;
  }
  return uuidv7();
}

/** A stored blob still belongs to a file that exists (a deleted file's links stop at once). */
export async function isLiveBlob(tx: Queryable, blobName: string): Promise<boolean> {
  const { rowCount } = await tx.query(
    `SELECT 1 FROM file_blob b JOIN project_file f ON f.id = b.file_id WHERE b.blob_name = $1`,
    [blobName],
  );
  return rowCount > 0;
}

/** Ledger rows whose file is gone (deleted, or with its project): their bytes may go. */
export async function releasedBlobs(tx: Queryable, limit: number): Promise<string[]> {
  const { rows } = await tx.query<{ blob_name: string }>(
    `SELECT b.blob_name FROM file_blob b
     WHERE NOT EXISTS (SELECT 1 FROM project_file f WHERE f.id = b.file_id)
     LIMIT $1`,
    [limit],
  );
  return rows.map((row) => row.blob_name);
}

export async function forgetBlob(tx: Queryable, blobName: string): Promise<void> {
  await tx.query('DELETE FROM file_blob WHERE blob_name = $1', [blobName]);
}

export async function isKnownBlob(tx: Queryable, blobName: string): Promise<boolean> {
  const { rowCount } = await tx.query('SELECT 1 FROM file_blob WHERE blob_name = $1', [blobName]);
  return rowCount > 0;
}
