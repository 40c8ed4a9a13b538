import type { Plugin } from 'vite';

export declare const THEME_INIT_FILE: string;

/**
 * Prerenders the public pages and the client portal's two pages after `vite build` and adds the
 * theme-init script.
 */
export declare function prerenderSite(options: {
  publicUrl: string;
  themeStorageKey: string;
  /** The files a portal project page preloads; read once the app is bundled. */
  portalPreloads: () => string[];
}): Plugin;
