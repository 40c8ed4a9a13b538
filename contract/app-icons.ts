/**
 * The app's icons and colours as a web app manifest lists them: the app's own manifest
 * (vite.config.ts) and each client portal's (server/portal/portal-manifest.ts) install with the
 * same face.
 */
export const APP_THEME_COLOR = '#9a4a17';
export const APP_BACKGROUND_COLOR = '#faf8f5';

export const appManifestIcons = [
  { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
  { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
  { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
];
