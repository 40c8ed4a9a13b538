/**
 * The static HTML of a prerendered public page: its head tags (title, description, canonical URL,
 * Open Graph) and the page's markup placed beside the app's mount point. Pure string work, run at
 * build time by the prerender step (scripts/prerender-site.mjs).
 */
import { formatPageTitle } from '../../ui/use-page-title.ts';
import { BOOT_AT_ONCE_ATTRIBUTE, PRERENDERED_ID } from './prerendered-handover.ts';
import { sitePages, type SitePage } from './site-pages.ts';

export { PRERENDERED_ID };

export const OG_IMAGE = { path: '/og-image.png', width: 1200, height: 630 } as const;

export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** `https://satchel.app` + `/pricing`; the home page is the bare origin plus `/`. */
export function canonicalUrl(publicUrl: string, path: string): string {
  return `${publicUrl.replace(/\/+$/, '')}${path}`;
}

export function headTags(page: SitePage, publicUrl: string): string {
  const title = escapeHtml(formatPageTitle(page.title ?? undefined));
  const description = escapeHtml(page.description);
  const url = escapeHtml(canonicalUrl(publicUrl, page.path));
  const image = escapeHtml(canonicalUrl(publicUrl, OG_IMAGE.path));
  return [
    `<title>${title}</title>`,
    `<meta name="description" content="${description}" />`,
    page.indexable ? null : '<meta name="robots" content="noindex" />',
    `<link rel="canonical" href="${url}" />`,
    '<meta property="og:type" content="website" />',
    '<meta property="og:site_name" content="Satchel" />',
    '<meta property="og:locale" content="en_US" />',
    `<meta property="og:title" content="${title}" />`,
    `<meta property="og:description" content="${description}" />`,
    `<meta property="og:url" content="${url}" />`,
    `<meta property="og:image" content="${image}" />`,
    `<meta property="og:image:width" content="${OG_IMAGE.width}" />`,
    `<meta property="og:image:height" content="${OG_IMAGE.height}" />`,
    '<meta property="og:image:alt" content="Satchel, the offline-first workspace for freelancers and agencies" />',
    '<meta name="twitter:card" content="summary_large_image" />',
  ]
    .filter((tag) => tag !== null)
    .join('\n    ');
}

/**
 * The built index.html with this page's head tags, and its markup in a sibling of #root. The app
 * mounts into #root as always (kept hidden while it boots); the page's screen hides the
 * prerendered copy in the commit that shows its own, so the swap is never seen
 * (use-prerendered-takeover.ts).
 */
export function composePrerenderedPage(
  template: string,
  page: SitePage,
  markup: string,
  publicUrl: string,
): string {
  return composeHtml(template, headTags(page, publicUrl), markup, '');
}

function composeHtml(template: string, tags: string, markup: string, copyAttributes: string) {
  if (!template.includes('<div id="root"></div>')) {
    throw new Error('index.html has no empty <div id="root"></div> to prerender beside');
  }
  const withoutHead = prioritisePaint(template)
    .replace(/<title>[\s\S]*?<\/title>\s*/, '')
    .replace(/<meta\s+name="description"[\s\S]*?\/?>\s*/, '')
    // The page is readable without JavaScript, so the "needs JavaScript" notice does not apply.
    .replace(/<noscript>[\s\S]*?<\/noscript>\s*/, '');
  const head = `${tags}\n    <style>#${PRERENDERED_ID}:not([hidden]) + #root { display: none; }</style>\n  </head>`;
  // Replacer functions: the markup holds prices such as "$15", which a replacement string would
  // read as a pattern.
  return withoutHead
    .replace('</head>', () => head)
    .replace(
      '<div id="root"></div>',
      () =>
        `<div id="${PRERENDERED_ID}"${copyAttributes}>${markup}</div>\n    <div id="root"></div>`,
    );
}

/** The not-found page's path at build time: no app route, so the router renders its 404. */
export const NOT_FOUND_RENDER_PATH = '/__not-found__';
/** Where the build writes it; the server answers unknown paths with it (status 404). */
export const NOT_FOUND_FILE = '404.html';

/**
 * The not-found page, served for any unknown path: no canonical URL or Open Graph (it has no URL
 * of its own), never indexed, and the app starts at once on it (its suggestions depend on the
 * path the visitor typed).
 */
export function composeNotFoundPage(template: string, markup: string): string {
  const head = [
    `<title>${escapeHtml(formatPageTitle('Page not found'))}</title>`,
    '<meta name="robots" content="noindex" />',
  ].join('\n    ');
  return composeHtml(template, head, markup, ` ${BOOT_AT_ONCE_ATTRIBUTE}`);
}

/**
 * A prerendered page paints from its HTML and CSS alone, so those go first: the stylesheet and
 * the theme script move to the top of <head>, and the module preloads are dropped so that some
 * 30 script files do not share a slow connection with the stylesheet before the first paint.
 * The app's entry module still loads at once and fetches its imports itself; the app shell
 * (index.html), which has nothing to show without scripts, keeps its preloads.
 */
export function prioritisePaint(template: string): string {
  const critical: string[] = [];
  const rest = template
    .replace(/[ \t]*<link rel="modulepreload"[^>]*>\n?/g, '')
    .replace(
      /[ \t]*(<link rel="stylesheet"[^>]*>|<script src="[^"]*theme-init\.js"><\/script>)\n?/g,
      (_match, tag: string) => {
        critical.push(tag);
        return '';
      },
    );
  const anchor =
    /<meta\s+name="viewport"[^>]*>\n?/.exec(rest) ?? /<meta\s+charset[^>]*>\n?/i.exec(rest);
  if (!anchor)
    throw new Error(
      'index.html has no <meta name="viewport"> or charset to put the stylesheet after',
    );
  const at = anchor.index + anchor[0].length;
  // The theme script first: it must run before the first paint, and it is tiny.
  critical.sort((a, b) => Number(b.includes('theme-init')) - Number(a.includes('theme-init')));
  return `${rest.slice(0, at)}${critical.map((tag) => `    ${tag}\n`).join('')}${rest.slice(at)}`;
}

/** The file a page is written to: `/pricing` -> `pricing/index.html`, `/` -> `home.html`. */
export function prerenderedFile(path: string): string {
  // dist/index.html stays the app shell: the service worker and the SPA fallback serve it for
  // every other path, so the home page cannot live there.
  return path === '/' ? 'home.html' : `${path.replace(/^\/+/, '')}/index.html`;
}

export function sitemapXml(publicUrl: string): string {
  const urls = sitePages
    .filter((page) => page.indexable)
    .map((page) => `  <url><loc>${escapeHtml(canonicalUrl(publicUrl, page.path))}</loc></url>`);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...urls,
    '</urlset>',
    '',
  ].join('\n');
}

/** robots.txt from public/ with the absolute sitemap address appended. */
export function robotsTxt(source: string, publicUrl: string): string {
  return `${source.trimEnd()}\n\nSitemap: ${canonicalUrl(publicUrl, '/sitemap.xml')}\n`;
}
