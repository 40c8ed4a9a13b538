/**
 * Share links (contract/endpoints/file-share-link.ts). A member of the file's workspace makes,
 * lists and revokes them; anyone holding a link's token may ask what it holds and open it.
 *
 * Invariant: a link's download_count never passes max_downloads. Opening a link counts the
 * download with one conditional UPDATE (live, not expired, under its cap), so two recipients
 * racing for the last download cannot both have it; the answer is a download link valid for
 * SHARED_DOWNLOAD_MINUTES, so revoking a link stops new downloads at once and leaves at most
 * those minutes to one already handed out.
 *
 * Every step is a line in the project's activity (share, unshare, download). A download has no
 * account behind it, so its line names the link's creator: the person answerable for the link.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import {
  SHARED_DOWNLOAD_MINUTES,
  SHARED_FILE_PATH,
  type FileShareLink,
} from '#contract/endpoints/file-share-link.ts';
import type { FileVersion } from '#contract/entities/file.ts';
import type { PasswordHasher } from '../auth/password-hasher.ts';
import type { Queryable } from '../db/database.ts';
import { AppError, ErrorCode } from '../http/app-error.ts';
import { writeEventActivity } from './entity-handlers.ts';
import type { ResourceHandlers } from '../http/endpoint-handler.ts';
import type { RateLimiter, RateLimitRule } from '../http/rate-limiter.ts';
import type { BlobStorage } from '../files/storage/blob-storage.ts';
import { requireShareLinks } from './plan-limits.ts';
import { requireWorkspaceRole } from './workspace-access.ts';

export interface ShareLinkDeps {
  storage: BlobStorage;
  /** Where the app is served: links point at its /shared/ page. */
  publicUrl: string;
  passwords: PasswordHasher;
}

/** Per link and address: a person mistypes a few times; a guesser tries thousands. */
export const sharePasswordRateLimit: RateLimitRule = {
  name: 'share-password',
  max: 10,
  windowMs: 15 * 60_000,
};
/** Per link, whatever the address: guessing spread over many addresses. */
export const sharePasswordLinkRateLimit: RateLimitRule = {
  name: 'share-password-link',
  max: 100,
  windowMs: 60 * 60_000,
};
/** Per address, for looking links up: tokens cannot be guessed, but nobody needs more. */
export const shareLookupRateLimit: RateLimitRule = {
  name: 'share-lookup',
  max: 120,
  windowMs: 60_000,
};

interface LinkRow {
  id: string;
  workspace_id: string;
  project_id: string;
  file_id: string;
  token: string;
  password_hash: string | null;
  expires_at: Date;
  max_downloads: number | null;
  download_count: number;
  last_downloaded_at: Date | null;
  revoked_at: Date | null;
  created_by: string;
  created_at: Date;
  created_by_name: string | null;
}

const LINK_SELECT = `SELECT l.*, trim(p.first_name || ' ' || p.last_name) AS created_by_name
  FROM file_share_link l LEFT JOIN user_profile p ON p.id = l.created_by`;

const NO_SUCH_FILE = 'No such file.';
const NO_SUCH_LINK = 'No such share link.';
const NOT_SET_UP = 'File storage is not set up on this server.';
const INVALID_LINK = 'This link is not valid. Check that you have all of it.';
const WRONG_PASSWORD = 'Wrong password for this link.';

/** Why a link no longer opens, in words for the person holding it (403 for each). */
function deadLinkReason(row: LinkRow, now: Date): string | null {
  if (row.revoked_at) return 'This link was turned off by the person who shared it.';
  if (row.expires_at.getTime() <= now.getTime()) {
    return `This link expired on ${row.expires_at.toUTCString()}.`;
  }
  if (row.max_downloads !== null && row.download_count >= row.max_downloads) {
    return `This link has been used for all ${row.max_downloads} download${row.max_downloads === 1 ? '' : 's'} it allowed.`;
  }
  return null;
}

function toLink(row: LinkRow, publicUrl: string): FileShareLink {
  return {
    id: row.id,
    fileId: row.file_id,
    projectId: row.project_id,
    url: `${publicUrl.replace(/\/+$/, '')}${SHARED_FILE_PATH}${row.token}`,
    createdAt: row.created_at.toISOString(),
    createdBy: row.created_by,
    createdByName: row.created_by_name ?? '',
    expiresAt: row.expires_at.toISOString(),
    maxDownloads: row.max_downloads,
    downloadCount: row.download_count,
    lastDownloadedAt: row.last_downloaded_at?.toISOString() ?? null,
    hasPassword: row.password_hash !== null,
    revokedAt: row.revoked_at?.toISOString() ?? null,
  };
}

interface FileRow {
  id: string;
  workspace_id: string;
  project_id: string;
  name: string;
  versions: FileVersion[];
}

/** The file, if the caller is a member of its workspace; otherwise it does not exist for them. */
async function memberFile(tx: Queryable, fileId: string, userId: string): Promise<FileRow> {
  const { rows } = await tx.query<FileRow>(
    'SELECT id, workspace_id, project_id, name, versions FROM project_file WHERE id = $1',
    [fileId],
  );
  const file = rows[0];
  if (!file) throw new AppError(ErrorCode.NOT_FOUND, NO_SUCH_FILE);
  try {
    await requireWorkspaceRole(tx, file.workspace_id, userId);
  } catch {
    throw new AppError(ErrorCode.NOT_FOUND, NO_SUCH_FILE);
  }
  return file;
}

/** A line in the project's activity for a link event (a file's line, no change-log row). */
async function writeLinkActivity(
  tx: Queryable,
  file: Pick<FileRow, 'id' | 'workspace_id' | 'project_id' | 'name'>,
  actorId: string,
  op: 'share' | 'unshare' | 'download',
  changes: Record<string, { from: unknown; to: unknown }>,
): Promise<void> {
  await writeEventActivity(tx, {
    workspaceId: file.workspace_id,
    projectId: file.project_id,
    actorId,
    entity: 'file',
    entityId: file.id,
    label: file.name,
    op,
    changes,
  });
}

async function linkByToken(tx: Queryable, token: string): Promise<LinkRow> {
  const { rows } = await tx.query<LinkRow>(`${LINK_SELECT} WHERE l.token = $1`, [token]);
  const row = rows[0];
  if (!row) throw new AppError(ErrorCode.FORBIDDEN, INVALID_LINK);
  return row;
}

export function createFileShareLinkHandlers(
  deps: ShareLinkDeps | null,
  rateLimiter: RateLimiter,
): ResourceHandlers<'file-share-link'> & ResourceHandlers<'shared-file'> {
  const need = (): ShareLinkDeps => {
    if (!deps) throw new AppError(ErrorCode.UNAVAILABLE, NOT_SET_UP);
    return deps;
  };

  return {
    async 'file-share-link/create-file-share-link'({ body, identity, tx }) {
      const { passwords, publicUrl } = need();
      const file = await memberFile(tx, body.fileId, identity.userId);
      await requireShareLinks(tx, file.workspace_id);
      const id = randomUUID();
      const passwordHash = body.password ? await passwords.hash(body.password) : null;
      const { rows } = await tx.query<{ id: string }>(
        `INSERT INTO file_share_link
           (id, workspace_id, project_id, file_id, token, password_hash, expires_at, max_downloads, created_by)
         VALUES ($1, $2, $3, $4, $5, $6, now() + make_interval(mins => $7::int), $8, $9)
         RETURNING id`,
        [
          id,
          file.workspace_id,
          file.project_id,
          file.id,
          randomBytes(32).toString('base64url'),
          passwordHash,
          body.expiryMinutes,
          body.maxDownloads,
          identity.userId,
        ],
      );
      const { rows: links } = await tx.query<LinkRow>(`${LINK_SELECT} WHERE l.id = $1`, [
        rows[0]?.id,
      ]);
      const link = toLink(links[0] as LinkRow, publicUrl);
      await writeLinkActivity(tx, file, identity.userId, 'share', {
        expiresAt: { from: null, to: link.expiresAt },
        maxDownloads: { from: null, to: link.maxDownloads },
        password: { from: null, to: link.hasPassword },
      });
      return { link };
    },

    async 'file-share-link/get-file-share-links'({ query, identity, tx }) {
      const { publicUrl } = need();
      await memberFile(tx, query.fileId, identity.userId);
      const { rows } = await tx.query<LinkRow>(
        `${LINK_SELECT} WHERE l.file_id = $1 ORDER BY l.created_at DESC, l.id`,
        [query.fileId],
      );
      return { links: rows.map((row) => toLink(row, publicUrl)) };
    },

    async 'file-share-link/revoke-file-share-link'({ query, identity, tx }) {
      const { publicUrl } = need();
      const { rows } = await tx.query<LinkRow>(`${LINK_SELECT} WHERE l.id = $1 FOR UPDATE OF l`, [
        query.id,
      ]);
      const row = rows[0];
      if (!row) throw new AppError(ErrorCode.NOT_FOUND, NO_SUCH_LINK);
      let file: FileRow;
      try {
        file = await memberFile(tx, row.file_id, identity.userId);
      } catch {
        throw new AppError(ErrorCode.NOT_FOUND, NO_SUCH_LINK);
      }
      if (row.revoked_at) return { link: toLink(row, publicUrl) };
      const { rows: updated } = await tx.query<{ revoked_at: Date }>(
        'UPDATE file_share_link SET revoked_at = now() WHERE id = $1 RETURNING revoked_at',
        [row.id],
      );
      await writeLinkActivity(tx, file, identity.userId, 'unshare', {
        downloads: { from: null, to: row.download_count },
      });
      return {
        link: toLink({ ...row, revoked_at: updated[0]?.revoked_at ?? new Date() }, publicUrl),
      };
    },

    async 'shared-file/get-shared-file'({ query, tx, clientIp }) {
      need();
      rateLimiter.consume(shareLookupRateLimit, clientIp);
      const row = await linkByToken(tx, query.token);
      const { rows } = await tx.query<{
        name: string;
        size: string;
        type: string;
        workspace_name: string;
      }>(
        `SELECT f.name, f.size, f.type, w.name AS workspace_name
         FROM project_file f JOIN workspace w ON w.id = f.workspace_id WHERE f.id = $1`,
        [row.file_id],
      );
      const file = rows[0];
      if (!file) throw new AppError(ErrorCode.FORBIDDEN, INVALID_LINK);
      const dead = deadLinkReason(row, new Date());
      if (dead) throw new AppError(ErrorCode.FORBIDDEN, dead);
      return {
        fileName: file.name,
        size: Number(file.size),
        type: file.type,
        expiresAt: row.expires_at.toISOString(),
        passwordRequired: row.password_hash !== null,
        downloadsLeft: row.max_downloads === null ? null : row.max_downloads - row.download_count,
        sharedBy: file.workspace_name,
      };
    },

    async 'shared-file/open-shared-file'({ body, tx, clientIp }) {
      const { storage, passwords } = need();
      rateLimiter.consume(shareLookupRateLimit, clientIp);
      const found = await linkByToken(tx, body.token);
      const dead = deadLinkReason(found, new Date());
      if (dead) throw new AppError(ErrorCode.FORBIDDEN, dead);
      if (found.password_hash !== null) {
        // Counted before the check, so a right guess after the limit is still refused.
        rateLimiter.consume(sharePasswordRateLimit, `${found.id}:${clientIp}`);
        rateLimiter.consume(sharePasswordLinkRateLimit, found.id);
        if (!body.password || !(await passwords.verify(found.password_hash, body.password))) {
          throw new AppError(ErrorCode.UNAUTHORIZED, WRONG_PASSWORD, {
            details: [{ path: 'body.password', message: 'Wrong password' }],
          });
        }
      }
      const { rows: counted } = await tx.query<{ download_count: number }>(
        `UPDATE file_share_link
         SET download_count = download_count + 1, last_downloaded_at = now()
         WHERE id = $1 AND revoked_at IS NULL AND expires_at > now()
           AND (max_downloads IS NULL OR download_count < max_downloads)
         RETURNING download_count`,
        [found.id],
      );
      const count = counted[0]?.download_count;
      if (count === undefined) {
        // Another download took the last one, or the link was revoked, since it was read.
        const now = await linkByToken(tx, body.token);
        throw new AppError(ErrorCode.FORBIDDEN, deadLinkReason(now, new Date()) ?? INVALID_LINK);
      }
      const { rows: files } = await tx.query<FileRow>(
        'SELECT id, workspace_id, project_id, name, versions FROM project_file WHERE id = $1',
        [found.file_id],
      );
      const file = files[0];
      const version = file?.versions.at(-1);
      if (!file || !version) throw new AppError(ErrorCode.FORBIDDEN, INVALID_LINK);
      const expiresAt = new Date(Date.now() + SHARED_DOWNLOAD_MINUTES * 60_000);
      // Always a download: a shared HTML or SVG file must never run as a page of ours.
      const url = await storage.downloadUrl(version.blobName, {
        expiresAt,
        downloadFileName: file.name,
        contentType: version.type || 'application/octet-stream',
        inline: false,
      });
      await writeLinkActivity(tx, file, found.created_by, 'download', {
        downloads: { from: count - 1, to: count },
        ...(found.max_downloads === null
          ? {}
          : { maxDownloads: { from: found.max_downloads, to: found.max_downloads } }),
      });
      return { url, expiresAt: expiresAt.toISOString(), fileName: file.name };
    },
  };
}
