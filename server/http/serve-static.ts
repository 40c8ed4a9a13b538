/**
 * Serves the built PWA from dist/. Hashed files under /assets are immutable; HTML and the
 * service worker are never cached so a deploy is seen at once. Compressible files are sent with
 * brotli or gzip, compressed once and kept in memory (dist/ does not change while we run).
 * A public page prerendered at build time is served as its static HTML (`/pricing` ->
 * `pricing/index.html`, `/` -> `home.html`), the client portal's pages (`/client-access` and
 * `/client/{clientId}/project/{projectId}`) as the portal's prerendered page
 * (`client-portal.html`, built by scripts/prerender-site.mjs); other app routes fall back to
 * index.html, the app shell; the API prefixes never do. A path that is no app route (the list the build writes to
 * `app-routes.json`, from the router's own tree) answers 404 with the prerendered not-found page
 * (`404.html`), on which the app still boots. Without that list every path gets the shell.
 */
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import type { Context } from 'hono';
import type { AppEnv } from './app-env.ts';

/**
 * Path prefixes owned by the server: a miss there is a JSON 404, never the SPA. The auth service
 * owns `/auth/v1` only: `/auth/confirm-registration` is an app route (spec section 2).
 */
export const SERVER_PREFIXES = ['/api', '/auth/v1', '/hubs', '/files', '/healthz'] as const;

export function isServerPath(pathname: string): boolean {
  return SERVER_PREFIXES.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`));
}

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};
const COMPRESSIBLE = new Set([
  '.html',
  '.js',
  '.mjs',
  '.css',
  '.json',
  '.webmanifest',
  '.svg',
  '.txt',
  '.xml',
  '.map',
]);
/** Written by the build (scripts/prerender-worker.mjs). */
export const APP_ROUTES_FILE = '/app-routes.json';
export const NOT_FOUND_FILE = '/404.html';
/**
 * The client portal's page: its gate and a project's loading state, one of which its script shows
 * before the first paint, and the portal's scripts preloaded.
 */
export const PORTAL_PAGE_FILE = '/client-portal.html';
const portalPagePath = /^\/client-access\/?$|^\/client\/[^/]+\/project\/[^/]+\/?$/i;

const NEVER_CACHED = new Set(['/index.html', '/sw.js', '/registerSW.js', '/manifest.webmanifest']);
const MIN_COMPRESS_BYTES = 512;

interface Entry {
  raw: Buffer;
  etag: string;
  br?: Buffer;
  gzip?: Buffer;
}

export function createStaticHandler(options: { distDir: string }) {
  const root = path.resolve(options.distDir);
  const cache = new Map<string, Entry | null>();
  let appRoutes: Promise<RouteMatcher | null> | null = null;

  async function load(relative: string): Promise<Entry | null> {
    if (cache.has(relative)) return cache.get(relative) ?? null;
    const absolute = path.join(root, relative);
    // Security: the decoded path must stay inside dist/ (no ../ escapes).
    if (!absolute.startsWith(root + path.sep)) return null;
    let entry: Entry | null = null;
    try {
      if ((await stat(absolute)).isFile()) {
        const raw = await readFile(absolute);
        entry = {
          raw,
          etag: `"${createHash('sha1').update(raw).digest('base64url').slice(0, 22)}"`,
        };
      }
    } catch {
      entry = null;
    }
    cache.set(relative, entry);
    return entry;
  }

  return async function serveStatic(c: Context<AppEnv>): Promise<Response | null> {
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return null;
    let pathname: string;
    try {
      pathname = decodeURIComponent(new URL(c.req.url).pathname);
    } catch {
      return null;
    }
    if (pathname.includes('\0') || isServerPath(pathname)) return null;

    let relative = pathname === '/' ? '/index.html' : pathname;
    let entry: Entry | null = null;
    const prerendered = portalPagePath.test(pathname)
      ? PORTAL_PAGE_FILE
      : prerenderedPage(pathname);
    if (prerendered) {
      entry = await load(prerendered);
      if (entry) relative = prerendered;
    }
    entry ??= await load(relative);
    if (!entry) {
      // Missing hashed assets must 404: answering a stale chunk with HTML breaks the old tab.
      if (pathname.startsWith('/assets/') || (path.extname(pathname) !== '' && !acceptsHtml(c))) {
        return null;
      }
      appRoutes ??= load(APP_ROUTES_FILE).then((file) => file && parseAppRoutes(file.raw));
      const isAppRoute = (await appRoutes)?.(pathname) ?? true;
      if (!isAppRoute)
        return notFound(c, (await load(NOT_FOUND_FILE)) ?? (await load('/index.html')));
      relative = '/index.html';
      entry = await load(relative);
      if (!entry) return null;
    }

    const ext = path.extname(relative);
    const headers: Record<string, string> = {
      'Content-Type': MIME[ext] ?? 'application/octet-stream',
      ETag: entry.etag,
      'Cache-Control': cacheControl(relative),
    };
    if (COMPRESSIBLE.has(ext)) headers.Vary = 'Accept-Encoding';
    if (c.req.header('if-none-match') === entry.etag) return c.body(null, 304, headers);

    let body = entry.raw;
    const encoding =
      COMPRESSIBLE.has(ext) && entry.raw.length >= MIN_COMPRESS_BYTES ? pickEncoding(c) : null;
    if (encoding === 'br') {
      entry.br ??= brotliCompressSync(entry.raw, {
        params: {
          [zlib.BROTLI_PARAM_QUALITY]: 11,
          [zlib.BROTLI_PARAM_SIZE_HINT]: entry.raw.length,
        },
      });
      body = entry.br;
      headers['Content-Encoding'] = 'br';
    } else if (encoding === 'gzip') {
      entry.gzip ??= gzipSync(entry.raw, { level: 9 });
      body = entry.gzip;
      headers['Content-Encoding'] = 'gzip';
    }
    headers['Content-Length'] = String(body.length);
    if (c.req.method === 'HEAD') return c.body(null, 200, headers);
    return c.body(new Uint8Array(body), 200, headers);
  };
}

/** A 404 for a page path: the not-found page (never 304: the status is the point). */
function notFound(c: Context<AppEnv>, entry: Entry | null): Response | null {
  if (!entry) return null;
  const headers: Record<string, string> = {
    'Content-Type': MIME['.html']!,
    'Cache-Control': 'no-cache',
    'Content-Length': String(entry.raw.length),
  };
  if (c.req.method === 'HEAD') return c.body(null, 404, headers);
  return c.body(new Uint8Array(entry.raw), 404, headers);
}

type RouteMatcher = (pathname: string) => boolean;

/**
 * The app's route paths (`/clients/$id`, `/projects/$projectId/activity`) as a matcher: a `$name`
 * segment takes any one segment, a lone `$` the rest of the path. Matching ignores case and a
 * trailing slash, as the router does. An unreadable list matches everything (the shell for all).
 */
export function parseAppRoutes(raw: Buffer | string): RouteMatcher | null {
  let list: unknown;
  try {
    list = JSON.parse(raw.toString());
  } catch {
    return null;
  }
  if (!Array.isArray(list) || !list.every((item) => typeof item === 'string')) return null;
  const segments = (pathname: string) =>
    pathname
      .toLowerCase()
      .split('/')
      .filter((segment) => segment !== '');
  const patterns = list.map(segments);
  return (pathname) => {
    const parts = segments(pathname);
    return patterns.some(
      (pattern) =>
        (pattern.length === parts.length ||
          (pattern.at(-1) === '$' && parts.length >= pattern.length)) &&
        pattern.every((segment, i) => segment.startsWith('$') || segment === parts[i]),
    );
  };
}

/**
 * The prerendered file for a page path, if it could have one: `/` -> `/home.html` (index.html is
 * the app shell the service worker serves for every path), `/a/b` -> `/a/b/index.html`. Paths
 * with an extension or a trailing slash never do.
 */
function prerenderedPage(pathname: string): string | null {
  if (pathname === '/') return '/home.html';
  if (pathname.endsWith('/') || path.extname(pathname) !== '') return null;
  return `${pathname}/index.html`;
}

function cacheControl(relative: string): string {
  if (relative.startsWith('/assets/')) return 'public, max-age=31536000, immutable';
  if (NEVER_CACHED.has(relative)) return 'no-cache, no-store, must-revalidate';
  // Prerendered pages: revalidated on every visit (a deploy is seen at once) but storable, so the
  // back button can restore them from the back/forward cache.
  if (relative.endsWith('.html')) return 'no-cache';
  return 'public, max-age=3600';
}

function acceptsHtml(c: Context<AppEnv>): boolean {
  return (c.req.header('accept') ?? '').includes('text/html');
}

function pickEncoding(c: Context<AppEnv>): 'br' | 'gzip' | null {
  const accept = c.req.header('accept-encoding') ?? '';
  const offered = new Map(
    accept.split(',').map((part) => {
      const [name = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)/.exec(p)?.[1]).find(Boolean);
      return [name.trim().toLowerCase(), q === undefined ? 1 : Number(q)] as const;
    }),
  );
  if ((offered.get('br') ?? 0) > 0) return 'br';
  if ((offered.get('gzip') ?? 0) > 0) return 'gzip';
  return null;
}
