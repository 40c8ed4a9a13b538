import tailwindcss from '@tailwindcss/vite';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type ProxyOptions } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

const backend = 'http://localhost:8080';

// Only the server's own prefixes go to the backend. `/auth/v1` and not `/auth`: the SPA owns
// `/auth/confirm-registration`, which must stay a client route in dev too.
const proxy: Record<string, ProxyOptions> = {
  '/api': { target: backend, changeOrigin: true },
  '/auth/v1': { target: backend, changeOrigin: true },
  '/hubs': { target: backend, changeOrigin: true, ws: true },
  '/files': { target: backend, changeOrigin: true },
  '/healthz': { target: backend, changeOrigin: true },
};

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
    react(),
    tailwindcss(),
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
        theme_color: '#9a4a17',
        background_color: '#faf8f5',
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          {
            src: '/icons/icon-maskable-512.png',
            sizes: '512x512',
            type: 'image/png',
            purpose: 'maskable',
          },
        ],
      },
      injectManifest: {
        globPatterns: ['**/*.{js,css,html,svg,png,woff2,webmanifest}'],
      },
      devOptions: { enabled: false },
    }),
  ],
  build: {
    outDir: 'dist',
  },
  server: { proxy },
  preview: { proxy },
});
