/**
 * GET|HEAD /files/d/:blobName: the bytes behind a signed local download link (signed-link.ts),
 * streamed from storage with single-range support, as Azure answers a SAS. A link works while it
 * is signed, unexpired and its file still exists: deleting a file stops its links at once.
 *
 * Files are user content served from our own origin, so the answer is locked down: nosniff keeps
 * a browser from guessing HTML, and a sandbox CSP makes an HTML or SVG opened here an opaque
 * page that runs no script and reaches nothing of ours.
 */
import { Readable } from 'node:stream';
import { Hono } from 'hono';
import type { AppEnv } from '../http/app-env.ts';
import { AppError, ErrorCode } from '../http/app-error.ts';
import type { Logger } from '../logger.ts';
import type { SignedLinks } from './signed-link.ts';
import type { BlobStorage } from './storage/blob-storage.ts';
import { contentDispositionHeader } from './content-disposition-header.ts';

export const DOWNLOAD_CSP =
  "sandbox; default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'";
/**
 * The browser may reuse a download this long at most (and never past the link's expiry): short,
 * because a cached copy outlives a file's deletion.
 */
const MAX_CACHE_SECONDS = 3600;

export function createDownloadRoute(deps: {
  storage: Pick<BlobStorage, 'stat' | 'read'>;
  links: Pick<SignedLinks, 'verify'>;
  /** The blob still belongs to a file that exists. */
  isLive: (blobName: string) => Promise<boolean>;
  logger?: Logger;
}): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  // Hono answers HEAD with this GET handler and drops the body; the handler opens no stream then.
  app.get('/d/:blobName', async (c) => {
    const now = new Date();
    const link = await deps.links.verify(c.req.url, now, c.req.method);
    if (!link.ok) {
      throw new AppError(
        ErrorCode.FORBIDDEN,
        link.reason === 'expired'
          ? 'This download link has expired.'
          : 'This download link is not valid.',
      );
    }
    const { blobName } = link;
    if (!(await deps.isLive(blobName))) {
      throw new AppError(
        ErrorCode.FORBIDDEN,
        'This file has been deleted; the link no longer works.',
      );
    }
    const stat = await deps.storage.stat(blobName);
    if (!stat) {
      (deps.logger ?? c.get('logger')).error({ blobName }, 'a live file has no blob in storage');
      throw new AppError(ErrorCode.NOT_FOUND, 'This file’s contents are missing from storage.');
    }
    const { size } = stat;
    // Blobs are write-once under a fresh name, so name and size identify the bytes.
    const etag = `"${blobName}-${size}"`;
    const secondsLeft = Math.floor((link.expiresAt.getTime() - now.getTime()) / 1000);
    const headers = new Headers({
      'Content-Type': link.contentType,
      'Content-Disposition': contentDispositionHeader(link.downloadFileName, link.inline),
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': DOWNLOAD_CSP,
      'Cache-Control': `private, max-age=${Math.min(secondsLeft, MAX_CACHE_SECONDS)}`,
      'Accept-Ranges': 'bytes',
      ETag: etag,
    });

    if (matchesEtag(c.req.header('If-None-Match'), etag)) {
      return new Response(null, { status: 304, headers });
    }
    const ifRange = c.req.header('If-Range');
    const range =
      ifRange === undefined || ifRange === etag
        ? parseRange(c.req.header('Range'), size)
        : { kind: 'full' as const };
    if (range.kind === 'unsatisfiable') {
      headers.set('Content-Range', `bytes */${size}`);
      headers.delete('Content-Type');
      headers.delete('Content-Disposition');
      return new Response(null, { status: 416, headers });
    }
    const partial = range.kind === 'partial';
    const start = partial ? range.start : 0;
    const end = partial ? range.end : size - 1;
    headers.set('Content-Length', String(end - start + 1));
    if (partial) headers.set('Content-Range', `bytes ${start}-${end}/${size}`);
    const status = partial ? 206 : 200;
    if (c.req.method === 'HEAD' || size === 0) return new Response(null, { status, headers });

    const bytes = await deps.storage.read(blobName, { start, end });
    // Pulled as the client reads (backpressure); a client that leaves cancels it, closing the file.
    const body = Readable.toWeb(bytes) as ReadableStream<Uint8Array>;
    return new Response(body, { status, headers });
  });

  return app;
}

type ByteRange =
  | { kind: 'full' }
  | { kind: 'partial'; start: number; end: number }
  | {
      kind: 'unsatisfiable';
    };

/**
 * One `bytes=a-b`, `bytes=a-` or `bytes=-n` (RFC 9110 14.1.2), clamped to the blob. Anything else
 * (several ranges, another unit, nonsense) is ignored and the whole blob served, as the RFC allows.
 */
export function parseRange(header: string | undefined, size: number): ByteRange {
  const match = header === undefined ? null : /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return { kind: 'full' };
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return { kind: 'full' };
  const firstByte = first === '' ? null : Number(first);
  const lastByte = last === '' ? null : Number(last);
  if (firstByte === null) {
    // A suffix: the last n bytes.
    const length = lastByte ?? 0;
    if (length === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'partial', start: Math.max(0, size - length), end: size - 1 };
  }
  if (!Number.isSafeInteger(firstByte)) return { kind: 'unsatisfiable' };
  if (lastByte !== null && lastByte < firstByte) return { kind: 'full' };
  if (firstByte >= size) return { kind: 'unsatisfiable' };
  return { kind: 'partial', start: firstByte, end: Math.min(lastByte ?? size - 1, size - 1) };
}

function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  return ifNoneMatch
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === etag || tag === '*');
}
