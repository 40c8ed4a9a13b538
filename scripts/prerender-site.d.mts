import type { Plugin } from 'vite';

export declare const THEME_INIT_FILE: string;

/** Prerenders the public pages after `vite build` and adds the theme-init script. */
export declare function prerenderSite(options: {
  publicUrl: string;
  themeStorageKey: string;
}): Plugin;
