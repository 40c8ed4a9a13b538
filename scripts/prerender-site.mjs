// The prerender step of `vite build`: after the app is bundled, every public page (the list in
// src/features/marketing/site-pages.ts) is rendered by the app itself in jsdom and written to
// dist as static HTML with its own title, description, canonical URL and Open Graph tags, plus
// sitemap.xml and the sitemap line of robots.txt. The app then boots beside that HTML and takes
// the page over (src/features/marketing/use-prerendered-takeover.ts).
//
// It also adds /theme-init.js, a tiny blocking script in <head> that applies the stored or system
// colour theme before the first paint (an inline script would break the `script-src 'self'` CSP).
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import react from '@vitejs/plugin-react';
import { build } from 'vite';

const ENTRY = 'src/app/prerender-page.tsx';
/** The client portal's two pages (its gate and a project page's loading state). */
const PORTAL_ENTRY = 'src/features/portal/portal-prerender.tsx';
export const THEME_INIT_FILE = 'theme-init.js';

/** Applies the theme class to <html> the way src/ui/theme.ts does, before anything paints. */
function themeInitScript(storageKey) {
  return (
    `(function(){var p=null;try{p=localStorage.getItem(${JSON.stringify(storageKey)})}catch(e){}` +
    `var d=p==='dark'||(p!=='light'&&!!window.matchMedia&&matchMedia('(prefers-color-scheme: dark)').matches);` +
    `var c=document.documentElement.classList;c.toggle('dark',d);c.toggle('light',!d)})();\n`
  );
}

/**
 * `portalPreloads` answers, once the app is bundled, the files a portal project page preloads (the
 * portal entry's chunk and its imports, vite.config.ts).
 * @param {{ publicUrl: string; themeStorageKey: string; portalPreloads: () => string[] }} options
 * @returns {import('vite').Plugin}
 */
export function prerenderSite(options) {
  const publicUrl = options.publicUrl.replace(/\/+$/, '');
  /** @type {import('vite').ResolvedConfig} */
  let config;
  let isDone = false;
  return {
    name: 'satchel:prerender',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    generateBundle() {
      this.emitFile({
        type: 'asset',
        fileName: THEME_INIT_FILE,
        source: themeInitScript(options.themeStorageKey),
      });
    },
    transformIndexHtml: {
      order: 'post',
      handler: () => [{ tag: 'script', attrs: { src: `/${THEME_INIT_FILE}` }, injectTo: 'head' }],
    },
    closeBundle: {
      // Before vite-plugin-pwa writes the service worker, so its precache list sees the final dist
      // (prerendered pages are left out of it by globIgnores in vite.config.ts).
      order: 'pre',
      sequential: true,
      async handler(error) {
        if (error || isDone || config.build.ssr) return;
        isDone = true;
        const started = Date.now();
        const distDir = path.resolve(config.root, config.build.outDir);
        const bundleDir = path.join(tmpdir(), `satchel-prerender-${process.pid}-${Date.now()}`);
        try {
          await build({
            configFile: false,
            root: config.root,
            logLevel: 'warn',
            mode: 'production',
            plugins: [react()],
            define: { 'process.env.NODE_ENV': JSON.stringify('production') },
            build: {
              outDir: bundleDir,
              emptyOutDir: true,
              minify: false,
              copyPublicDir: false,
              reportCompressedSize: false,
              lib: {
                entry: {
                  prerender: path.resolve(config.root, ENTRY),
                  'prerender-portal': path.resolve(config.root, PORTAL_ENTRY),
                },
                formats: ['es'],
                fileName: (_format, name) => `${name}.js`,
              },
            },
          });
          const pages = await new Promise((resolve, reject) => {
            const worker = new Worker(new URL('./prerender-worker.mjs', import.meta.url), {
              workerData: {
                bundleFile: path.join(bundleDir, 'prerender.js'),
                portalBundleFile: path.join(bundleDir, 'prerender-portal.js'),
                portalPreloads: options.portalPreloads(),
                themeStorageKey: options.themeStorageKey,
                distDir,
                publicUrl,
              },
            });
            worker.once('message', resolve);
            worker.once('error', reject);
            worker.once('exit', (code) => {
              if (code !== 0) reject(new Error(`prerender worker exited with ${code}`));
            });
          });
          config.logger.info(
            `prerendered ${pages.length} pages for ${publicUrl} in ${Date.now() - started} ms:\n` +
              pages
                .map((p) => `  ${p.path} -> ${p.file} (${(p.bytes / 1024).toFixed(1)} kB)`)
                .join('\n'),
          );
        } finally {
          await rm(bundleDir, { recursive: true, force: true });
        }
      },
    },
  };
}
