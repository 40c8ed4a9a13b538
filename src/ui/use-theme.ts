import { use, useSyncExternalStore } from 'react';
import { ThemeContext } from './theme-provider.tsx';
import type { ThemePreference, ThemeState } from './theme.ts';

export interface UseThemeResult extends ThemeState {
  readonly setPreference: (preference: ThemePreference) => void;
}

export function useTheme(): UseThemeResult {
  const controller = use(ThemeContext);
  if (!controller) throw new Error('useTheme must be used inside <ThemeProvider>');
  const state = useSyncExternalStore(controller.subscribe, controller.getState);
  return { ...state, setPreference: controller.setPreference };
}
