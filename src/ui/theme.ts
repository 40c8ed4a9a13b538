export type ThemePreference = 'light' | 'dark' | 'system';
export type ResolvedTheme = 'light' | 'dark';

export const themeStorageKey = 'satchel-theme';
export const themePreferences: readonly ThemePreference[] = ['light', 'dark', 'system'];

// Browser chrome colour per theme; the same values as --color-canvas in styles.css.
const themeColors: Record<ResolvedTheme, string> = { light: '#faf8f5', dark: '#15120f' };
const darkQuery = '(prefers-color-scheme: dark)';

export function parseThemePreference(value: unknown): ThemePreference {
  return value === 'light' || value === 'dark' ? value : 'system';
}

export function resolveTheme(
  preference: ThemePreference,
  systemPrefersDark: boolean,
): ResolvedTheme {
  if (preference === 'system') return systemPrefersDark ? 'dark' : 'light';
  return preference;
}

/** The class on <html> drives both the `dark:` variant and the token values in styles.css. */
export function applyResolvedTheme(doc: Document, theme: ResolvedTheme): void {
  const root = doc.documentElement;
  root.classList.toggle('dark', theme === 'dark');
  root.classList.toggle('light', theme === 'light');
  for (const meta of doc.querySelectorAll<HTMLMetaElement>('meta[name="theme-color"]')) {
    meta.content = themeColors[theme];
  }
}

export interface ThemeState {
  preference: ThemePreference;
  resolved: ResolvedTheme;
}

/** Its functions are closures: they may be passed around without their object. */
export interface ThemeController {
  readonly getState: () => ThemeState;
  readonly setPreference: (preference: ThemePreference) => void;
  readonly subscribe: (listener: () => void) => () => void;
  readonly dispose: () => void;
}

export interface ThemeEnvironment {
  document: Document;
  storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | undefined;
  matchMedia: ((query: string) => MediaQueryList) | undefined;
}

/**
 * Reads the stored preference, applies it to <html> at once (before React renders, so there is no
 * flash of the wrong theme) and follows the OS setting while the preference is `system`.
 * Storage may be unavailable (private mode, blocked cookies): the theme then lasts for the visit.
 */
export function createThemeController(env: ThemeEnvironment): ThemeController {
  const media = env.matchMedia?.(darkQuery);
  const listeners = new Set<() => void>();

  const read = (): ThemePreference => {
    try {
      return parseThemePreference(env.storage?.getItem(themeStorageKey));
    } catch {
      return 'system';
    }
  };

  const compute = (preference: ThemePreference): ThemeState => ({
    preference,
    resolved: resolveTheme(preference, media?.matches ?? false),
  });

  let state = compute(read());
  applyResolvedTheme(env.document, state.resolved);

  const update = (next: ThemeState) => {
    if (next.preference === state.preference && next.resolved === state.resolved) return;
    state = next;
    applyResolvedTheme(env.document, state.resolved);
    for (const listener of listeners) listener();
  };

  const onSystemChange = () => update(compute(state.preference));
  media?.addEventListener('change', onSystemChange);

  return {
    getState: () => state,
    setPreference: (preference) => {
      try {
        if (preference === 'system') env.storage?.removeItem(themeStorageKey);
        else env.storage?.setItem(themeStorageKey, preference);
      } catch {
        // Not persisted; the choice still applies to this visit.
      }
      update(compute(preference));
    },
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    dispose: () => {
      media?.removeEventListener('change', onSystemChange);
      listeners.clear();
    },
  };
}
