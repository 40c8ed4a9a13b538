/**
 * Files' rules beside their derived CRUD, and the two file operations that are not CRUD:
 * - `create-file` is refused: a file row is written by the upload that stores its bytes
 *   (server/files/upload-route.ts), never without them;
 * - a rename or move may not land on a name another file of that folder has (names compare
 *   without case: "Brief.pdf" and "brief.pdf" would be the same file once downloaded);
 * - `get-download-url` signs a link to one version's bytes for a member; `get-file-storage`
 *   says what the workspace uses of its plan's storage.
 */
import {
  DEFAULT_LINK_MINUTES,
  type getDownloadUrl,
  type getFileStorage,
} from '#contract/endpoints/file.ts';
import { fileEntity, type FileVersion } from '#contract/entities/file.ts';
import type { Queryable } from '../db/database.ts';
import { AppError, ErrorCode } from '../http/app-error.ts';
import type { EndpointHandler } from '../http/endpoint-handler.ts';
import { storageUsed } from '../files/file-records.ts';
import type { EntityHooks } from './entity-handlers.ts';
import { entitySql } from './entity-sql.ts';
import type { ShareLinkDeps } from './file-share-link.ts';
import { workspacePlan } from './plan-limits.ts';
import { requireWorkspaceRole } from './workspace-access.ts';

type Row = Record<string, unknown>;

const sql = entitySql(fileEntity as never);

export const UPLOAD_TO_ADD =
  'A file is added by uploading it (tus at /files/uploads), which writes its row with its bytes.';

async function requireFreeName(tx: Queryable, next: Row): Promise<void> {
  const { rowCount } = await tx.query(
    `SELECT 1 FROM project_file
     WHERE project_id = $1 AND folder = $2 AND lower(name) = lower($3) AND id <> $4`,
    [next.projectId, next.folder, next.name, next.id],
  );
  if (rowCount === 0) return;
  throw new AppError(
    ErrorCode.BUSINESS_RULE,
    `A file named "${String(next.name)}" is already in this folder.`,
    { details: [{ path: 'body.name', message: 'Another file in this folder has this name' }] },
  );
}

export const fileHooks: EntityHooks = {
  beforeCreate() {
    return Promise.reject(new AppError(ErrorCode.BUSINESS_RULE, UPLOAD_TO_ADD));
  },
  async beforeUpdate({ tx, current, patch }) {
    if ('name' in patch || 'folder' in patch) await requireFreeName(tx, { ...current, ...patch });
  },
};

/** Content types a browser may show in place; anything else (HTML and SVG above all) downloads. */
const INLINE_TYPES = /^(image\/(png|jpeg|gif|webp|avif)|application\/pdf|text\/plain)$/;

export function canShowInline(type: string): boolean {
  return INLINE_TYPES.test(type.split(';')[0]?.trim().toLowerCase() ?? '');
}

export interface FileHandlerDeps extends ShareLinkDeps {
  maxFileBytes: number;
}

const NO_SUCH_FILE = 'No such file.';
const NOT_SET_UP = 'File storage is not set up on this server.';

export function createFileHandlers(deps: FileHandlerDeps | null): {
  'file/get-download-url': EndpointHandler<typeof getDownloadUrl>;
  'file-storage/get-file-storage': EndpointHandler<typeof getFileStorage>;
} {
  return {
    async 'file/get-download-url'({ query, identity, tx }) {
      if (!deps) throw new AppError(ErrorCode.UNAVAILABLE, NOT_SET_UP);
      const { rows } = await tx.query<Row>(`SELECT ${sql.select} FROM ${sql.table} WHERE id = $1`, [
        query.id,
      ]);
      const row = rows[0] ? sql.toRow(rows[0]) : null;
      if (!row) throw new AppError(ErrorCode.NOT_FOUND, NO_SUCH_FILE);
      try {
        await requireWorkspaceRole(tx, String(row.workspaceId), identity.userId);
      } catch {
        throw new AppError(ErrorCode.NOT_FOUND, NO_SUCH_FILE);
      }
      const versions = row.versions as FileVersion[];
      const version =
        query.version === undefined
          ? versions.at(-1)
          : versions.find((candidate) => candidate.number === query.version);
      if (!version) {
        throw new AppError(ErrorCode.NOT_FOUND, `This file has no version ${query.version}.`);
      }
      const minutes = query.expiryMinutes ?? DEFAULT_LINK_MINUTES;
      const expiresAt = new Date(Date.now() + minutes * 60_000);
      const fileName = query.downloadFileName ?? String(row.name);
      const contentType = version.type || 'application/octet-stream';
      const url = await deps.storage.downloadUrl(version.blobName, {
        expiresAt,
        downloadFileName: fileName,
        contentType,
        inline: query.inline === 'true' && canShowInline(contentType),
      });
      return { url, expiresAt: expiresAt.toISOString(), fileName };
    },

    async 'file-storage/get-file-storage'({ query, identity, tx }) {
      await requireWorkspaceRole(tx, query.workspaceId, identity.userId);
      const plan = await workspacePlan(tx, query.workspaceId);
      const { rows } = await tx.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM project_file WHERE workspace_id = $1',
        [query.workspaceId],
      );
      return {
        workspaceId: query.workspaceId,
        usedBytes: await storageUsed(tx, query.workspaceId),
        limitBytes: plan.limits.storageBytes,
        plan: plan.id,
        fileCount: rows[0]?.n ?? 0,
        maxFileBytes: deps?.maxFileBytes ?? 0,
      };
    },
  };
}
