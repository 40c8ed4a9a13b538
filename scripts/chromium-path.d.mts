export type ResolvedChromium =
  | {
      path: string;
      source: 'CHROMIUM_PATH' | 'system' | '@sparticuz/chromium';
      env: Record<string, string>;
    }
  | { error: string };

/** CHROMIUM_PATH, the system's Chromium, or the one packaged in @sparticuz/chromium. */
export declare function resolveChromium(
  env?: Record<string, string | undefined>,
  systemPath?: string,
): Promise<ResolvedChromium>;
