/**
 * Reading a file's bytes: from the copy kept on this device when there is one (it opens with no
 * network), else through a signed, expiring download link the server gives (`get-download-url`;
 * same-origin /files/d/... on local disk, an Azure SAS URL in production). Links are cached per
 * file version until a minute before they expire, so a grid of thumbnails asks once per image.
 *
 * What a browser may show inline: images (not SVG: it can carry script, so it is only ever
 * downloaded), PDF and plain text. Everything else is downloaded. A PDF's first pages are also
 * drawn in the app's preview by pdf.js (src/features/files/pdf-render.ts), which loads only when
 * a PDF preview opens and is cached by the service worker then, not precached; the whole
 * document opens in the browser's own viewer, in a new tab.
 */
import type { FileCopy } from '../db/upload-entry.ts';

export interface DownloadLink {
  url: string;
  expiresAt: string;
  fileName: string;
}

export interface DownloadLinkQuery {
  id: string;
  version?: number;
  inline?: boolean;
}

export type GetDownloadLink = (query: DownloadLinkQuery) => Promise<DownloadLink>;

const THUMBNAIL_TYPES = new Set([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/avif',
  'image/bmp',
]);

export type PreviewKind = 'image' | 'pdf' | 'text' | 'none';

/** How the app may show a file of this type (by its MIME type, never its name). */
export function previewKindOf(type: string): PreviewKind {
  const base = type.split(';')[0]?.trim().toLowerCase() ?? '';
  if (THUMBNAIL_TYPES.has(base)) return 'image';
  if (base === 'application/pdf') return 'pdf';
  if (base === 'text/plain' || base === 'text/csv' || base === 'text/markdown') return 'text';
  return 'none';
}

/** How many bytes of a text file the preview shows. */
export const TEXT_PREVIEW_BYTES = 4096;

/** A link cache in front of get-download-url: one request per file version and use. */
export function createDownloadLinks(
  get: GetDownloadLink,
  now: () => number = Date.now,
): GetDownloadLink {
  const cache = new Map<string, Promise<DownloadLink>>();
  return (query) => {
    const key = `${query.id}:${query.version ?? 'latest'}:${query.inline ? 'inline' : 'attachment'}`;
    const cached = cache.get(key);
    if (cached) return cached;
    const pending = get(query).then(
      (link) => {
        // Forget it a minute before it expires (or at once if the server's clock says so).
        const ttl = Date.parse(link.expiresAt) - now() - 60_000;
        setTimeout(() => cache.delete(key), Math.max(0, Math.min(ttl, 2 ** 31 - 1)));
        return link;
      },
      (error: unknown) => {
        cache.delete(key);
        throw error;
      },
    );
    cache.set(key, pending);
    return pending;
  };
}

/**
 * A kept copy as a Blob the browser may open: its own type when that is safe to show inline,
 * else plain bytes (a download). An HTML or SVG file opened from a blob: URL would run as a page
 * of this origin; as application/octet-stream it can only be saved.
 */
export function safeBlobOf(copy: Pick<FileCopy, 'blob' | 'type'>): Blob {
  const kind = previewKindOf(copy.type);
  const type =
    kind === 'none'
      ? 'application/octet-stream'
      : kind === 'text'
        ? 'text/plain;charset=utf-8'
        : copy.type;
  return copy.blob.type === type ? copy.blob : new Blob([copy.blob], { type });
}

/** Saves a URL's target under a name (a link with `download`; a cross-origin link saves by its
 * Content-Disposition instead). */
export function saveFromUrl(url: string, fileName: string): void {
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
}

/**
 * A new tab opened at once, in the click (a tab opened after an await is a blocked popup), and
 * pointed at the file once its address is known; closed again if that fails.
 */
export function openInNewTab(address: Promise<string>): Promise<void> {
  const tab = globalThis.open?.('about:blank', '_blank') ?? null;
  if (tab) tab.opener = null;
  return address.then(
    (url) => {
      if (tab) tab.location.href = url;
      else globalThis.open?.(url, '_blank', 'noopener');
    },
    (error: unknown) => {
      tab?.close();
      throw error;
    },
  );
}

/** The first few KB of a text as text (a cut UTF-8 character at the end is dropped). */
export async function previewText(blob: Blob): Promise<{ text: string; cut: boolean }> {
  const head = blob.slice(0, TEXT_PREVIEW_BYTES);
  const bytes = new Uint8Array(await head.arrayBuffer());
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes).replace(/\uFFFD$/, '');
  return { text, cut: blob.size > TEXT_PREVIEW_BYTES };
}
