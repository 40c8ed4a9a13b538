import optimizeLocales from '@react-aria/optimize-locales-plugin';
import tailwindcss from '@tailwindcss/vite';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin, type ProxyOptions, type Rolldown } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { APP_BACKGROUND_COLOR, APP_THEME_COLOR, appManifestIcons } from './contract/app-icons.ts';
import { prerenderSite } from './scripts/prerender-site.mjs';

const backend = 'http://localhost:8080';

/**
 * Origin written into the prerendered pages' canonical and Open Graph URLs and the sitemap. The
 * build reads PUBLIC_URL (the same variable the server reads at run time); without it, the
 * production address. It changes no behaviour: links inside the app stay relative.
 */
const publicUrl = new URL(process.env.PUBLIC_URL || 'https://satchel.app').origin;

// Only the server's own prefixes go to the backend. `/auth/v1` and not `/auth`: the SPA owns
// `/auth/confirm-registration`, which must stay a client route in dev too.
const proxy: Record<string, ProxyOptions> = {
  '/api': { target: backend, changeOrigin: true },
  '/auth/v1': { target: backend, changeOrigin: true },
  '/hubs': { target: backend, changeOrigin: true, ws: true },
  '/files': { target: backend, changeOrigin: true },
  '/healthz': { target: backend, changeOrigin: true },
};

/** A chunk's file and every file it imports statically, from the client bundle's chunk graph. */
function staticGraphOf(bundle: Rolldown.OutputBundle, module: string): string[] {
  const chunks = Object.values(bundle).filter((item) => item.type === 'chunk');
  // The module's own chunk, or the group chunk it was put in (portalChunkGroups).
  const root =
    chunks.find((chunk) => chunk.facadeModuleId?.endsWith(module)) ??
    chunks.find((chunk) => chunk.moduleIds.some((id) => id.endsWith(module)));
  if (!root) throw new Error(`No chunk for ${module}: is it still imported dynamically?`);
  const files = new Set<string>();
  const visit = (fileName: string) => {
    if (files.has(fileName)) return;
    files.add(fileName);
    const chunk = chunks.find((item) => item.fileName === fileName);
    for (const imported of chunk?.imports ?? []) visit(imported);
  };
  visit(root.fileName);
  return [...files];
}

/**
 * src/main.tsx imports the app dynamically, so that a prerendered page evaluates none of it until
 * the visitor engages. The app shell (index.html) starts it at once: it gets modulepreload links
 * for the app chunk and everything it imports, so the app loads in parallel with the entry, as
 * if it were imported statically. (The prerender step drops these again from prerendered pages.)
 */
function preloadAppChunk(appModule: string): Plugin {
  return {
    name: 'satchel:preload-app-chunk',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, context) {
        if (!context.bundle) return html;
        return staticGraphOf(context.bundle, appModule)
          .filter((file) => !html.includes(`/${file}"`))
          .map((file) => ({
            tag: 'link',
            attrs: { rel: 'modulepreload', crossorigin: true, href: `/${file}` },
            injectTo: 'head' as const,
          }));
      },
    },
  };
}

/**
 * The client portal's pages start src/app/mount-portal.tsx instead of the app: its prerendered
 * project page preloads that chunk and its imports (scripts/prerender-site.mjs).
 */
const portalModule = 'src/app/mount-portal.tsx';
let portalPreloads: string[] = [];
/**
 * Every icon the app uses (some 100, a few hundred bytes each) in one file. Left to itself the
 * bundler puts each icon in a chunk of its own, by which entries share it: the portal's page
 * fetched 16 of them, six at a time over HTTP/1.1, for 5 KB.
 */
const chunkGroups = [{ name: 'icons', test: /[\\/]node_modules[\\/]lucide-react[\\/]/ }];

function collectPortalChunks(): Plugin {
  return {
    name: 'satchel:portal-chunks',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((item) => item.type === 'chunk');
      if (!chunks.some((chunk) => chunk.isEntry && chunk.facadeModuleId?.endsWith('/index.html')))
        return;
      portalPreloads = staticGraphOf(bundle, portalModule);
    },
  };
}

/**
 * Modules loaded on their own (route modules, dynamic imports) left out of the precache, with the
 * chunks only they import. The service worker caches each when it first loads (src/sw/sw.ts), so
 * a screen used once online opens offline afterwards. Two kinds:
 *
 * - Screens that can do nothing without the network: billing results, sign-up, password reset,
 *   email confirmations, a share link's page, an invitation's page, the portal's chat, and the notification hub (SignalR, live updates
 *   only; mount-app.tsx loads it again when the network is back).
 * - Screens rarely opened, kept out to hold the precache within its 2 MiB budget (ARCHITECTURE.md
 *   section 11): settings, the members' change request center, the notifications page, the public
 *   site's secondary pages and the portal demo.
 *
 * Login, the dashboard and the daily screens, the home, pricing and features pages and the client
 * portal stay (offline, login says what is wrong; tests/e2e/pwa.spec.ts reloads /pricing and opens
 * /features offline, whose chunks the app never loaded; a client re-opens the portal offline).
 */
const networkOnlyModules = [
  '/src/routes/_public/billing-',
  '/src/routes/_public/subscription/',
  '/src/routes/_guest/signup.tsx',
  '/src/routes/_guest/forgot-password.tsx',
  '/src/routes/_guest/reset-password.tsx',
  '/src/routes/_guest/verify-email.tsx',
  '/src/routes/_app/auth/confirm-registration.tsx',
  '/src/routes/_portal/shared/',
  // Shown right after the account is deleted, which needs the server.
  '/src/routes/_guest/account-deleted.tsx',
  // Accepting an invitation happens on the server: the page is no use offline.
  '/src/routes/invite.$token.tsx',
  // The portal's live chat (reads, paging, the composer). Kept by the service worker once loaded;
  // without it, portal-chat-messages.tsx (precached, small) shows the messages saved on the device.
  '/src/features/portal/portal-chat.tsx',
  '/src/realtime/create-notification-hub.ts',
  // tus-js-client: uploads run only online (src/files/upload-runner.ts loads it with the first).
  '/node_modules/tus-js-client/',
];
const rarelyUsedModules = [
  '/src/routes/_app/settings.tsx',
  // Settings > Data (export and import, with fflate and papaparse): lazy inside settings.
  '/src/features/settings/data-settings.tsx',
  '/src/routes/_app/change-requests.tsx',
  // The full notifications page (the header's bell lists the newest): its list comes from the
  // server, so offline after a reload it could only say the notifications could not be loaded.
  '/src/routes/_app/notifications.tsx',
  '/src/routes/_public/client-portal-demo.tsx',
  '/src/routes/_public/contact.tsx',
  '/src/routes/_public/demo.tsx',
  // The demo's services, sample data and bar: loaded only in demo mode.
  '/src/demo/start-demo.ts',
  '/src/demo/demo-bar.tsx',
  '/src/routes/_public/faq.tsx',
  '/src/routes/_public/feedback.tsx',
  '/src/routes/_public/privacy-policy.tsx',
  '/src/routes/_public/terms-of-service.tsx',
];
const notPrecachedModules = [...networkOnlyModules, ...rarelyUsedModules];
/** Filled from the client bundle's chunk graph; read by the precache's manifest transform. */
const notPrecachedFiles = new Set<string>();

function collectNotPrecachedChunks(): Plugin {
  return {
    name: 'satchel:not-precached-chunks',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((item) => item.type === 'chunk');
      // The app's own bundle only (not the service worker's or the prerender step's).
      if (!chunks.some((chunk) => chunk.isEntry && chunk.facadeModuleId?.endsWith('/index.html')))
        return;
      const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
      const isNotPrecached = (id: string | null) =>
        notPrecachedModules.some((module) => id?.includes(module) ?? false);
      const needed = new Set<string>();
      const visit = (fileName: string) => {
        if (needed.has(fileName)) return;
        needed.add(fileName);
        for (const imported of byFile.get(fileName)?.imports ?? []) visit(imported);
      };
      // Everything a chunk that loads on its own (the entry, any dynamic import) needs, unless
      // that chunk is one of those modules.
      for (const chunk of chunks) {
        if ((chunk.isEntry || chunk.isDynamicEntry) && !isNotPrecached(chunk.facadeModuleId)) {
          visit(chunk.fileName);
        }
      }
      notPrecachedFiles.clear();
      for (const chunk of chunks)
        if (!needed.has(chunk.fileName)) notPrecachedFiles.add(chunk.fileName);
    },
  };
}

export default defineConfig({
  plugins: [
    // The router plugin must run before the React plugin so that code-split route modules are
    // produced before React Refresh transforms them.
    tanstackRouter({
      target: 'react',
      routesDirectory: 'src/routes',
      generatedRouteTree: 'src/routeTree.gen.ts',
      autoCodeSplitting: true,
      addExtensions: true,
      quoteStyle: 'single',
    }),
    // The app speaks English only, so react-aria's built-in strings (drag-and-drop, calendar and
    // list announcements) ship in en-US alone: the other 33 languages cost ~100 KiB of precache
    // and would only have made screen readers mix languages with our English labels.
    { ...optimizeLocales.vite({ locales: ['en-US'] }), enforce: 'pre' },
    react(),
    tailwindcss(),
    preloadAppChunk('src/app/mount-app.tsx'),
    collectPortalChunks(),
    collectNotPrecachedChunks(),
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'src/sw',
      filename: 'sw.ts',
      registerType: 'prompt',
      // We register with workbox-window ourselves (src/app/register-service-worker.ts); an
      // injected registration script would also break the `script-src 'self'` CSP.
      injectRegister: false,
      manifest: {
        name: 'Satchel',
        short_name: 'Satchel',
        description:
          'Offline-first workspace for freelancers and agencies: clients, projects, tasks, files, chat and payments, with a client portal.',
        start_url: '/dashboard',
        scope: '/',
        display: 'standalone',
        theme_color: APP_THEME_COLOR,
        background_color: APP_BACKGROUND_COLOR,
        icons: appManifestIcons,
      },
      // The manifest's icons are not precached: the browser fetches them itself on install.
      includeManifestIcons: false,
      injectManifest: {
        globPatterns: ['**/*.{js,css,html,svg,png,woff2,webmanifest}'],
        // Prerendered pages are for first visits and crawlers; offline, the service worker answers
        // every navigation with the app shell (index.html). The share image is for other sites.
        globIgnores: [
          '**/node_modules/**',
          'sw.js',
          'workbox-*.js',
          'home.html',
          '404.html',
          '*/**/index.html',
          'og-image.png',
          // Inter's Latin Extended, Cyrillic, Greek and Vietnamese subsets load only when a page
          // shows those characters (unicode-range), and src/sw/sw.ts caches each then; a device
          // that never showed them online uses the system font for them offline. Latin stays
          // precached. Keeps the precache within its 2 MiB budget.
          'assets/inter-latin-ext-*.woff2',
          'assets/inter-cyrillic-*.woff2',
          'assets/inter-greek-*.woff2',
          'assets/inter-vietnamese-*.woff2',
          // pdf.js (library chunk and worker, about 1.6 MB) loads only when a PDF preview opens;
          // src/sw/sw.ts caches it then, so kept PDFs preview offline after the first preview.
          'assets/pdfjs-*.js',
          'assets/pdf.worker.min-*.mjs',
          // The manifest's large icons: the browser fetches them itself when installing the app.
          'icons/icon-512.png',
          'icons/icon-maskable-512.png',
          'icons/icon-192.png',
        ],
        manifestTransforms: [
          (entries) => ({ manifest: entries.filter((entry) => !notPrecachedFiles.has(entry.url)) }),
        ],
      },
      devOptions: { enabled: false },
    }),
    // The storage key is src/ui/theme.ts's themeStorageKey (importing it here would pull DOM types
    // into the config's program); tests/e2e/public-site.spec.ts checks they agree.
    prerenderSite({
      publicUrl,
      themeStorageKey: 'satchel-theme',
      portalPreloads: () => portalPreloads,
    }),
  ],
  build: {
    outDir: 'dist',
    rolldownOptions: {
      output: {
        // pdf.js's chunk gets a name of its own, so the precache can leave it out by name.
        chunkFileNames: (chunk) =>
          chunk.facadeModuleId?.includes('/node_modules/pdfjs-dist/')
            ? 'assets/pdfjs-[hash].js'
            : 'assets/[name]-[hash].js',
        codeSplitting: { groups: chunkGroups },
      },
    },
  },
  server: { proxy },
  preview: { proxy },
});
