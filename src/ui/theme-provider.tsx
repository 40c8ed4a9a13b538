import { createContext, type ReactNode } from 'react';
import type { ThemeController } from './theme.ts';

export const ThemeContext = createContext<ThemeController | null>(null);

export interface ThemeProviderProps {
  controller: ThemeController;
  children: ReactNode;
}

export function ThemeProvider({ controller, children }: ThemeProviderProps) {
  return <ThemeContext value={controller}>{children}</ThemeContext>;
}
