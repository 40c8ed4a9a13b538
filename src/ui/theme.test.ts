import { afterEach, describe, expect, it, vi } from 'vitest';
import { createThemeController, resolveTheme, themeStorageKey } from './theme.ts';

function fakeMedia(initial: boolean) {
  const target = new EventTarget() as EventTarget & { matches: boolean };
  target.matches = initial;
  return target as unknown as MediaQueryList & { matches: boolean };
}

function setup(stored: string | null, systemDark = false) {
  const storage = new Map<string, string>();
  if (stored !== null) storage.set(themeStorageKey, stored);
  const media = fakeMedia(systemDark);
  const controller = createThemeController({
    document,
    storage: {
      getItem: (key) => storage.get(key) ?? null,
      setItem: (key, value) => void storage.set(key, value),
      removeItem: (key) => void storage.delete(key),
    },
    matchMedia: () => media,
  });
  return { controller, storage, media };
}

afterEach(() => {
  document.documentElement.className = '';
});

describe('resolveTheme', () => {
  it('follows the system only for the system preference', () => {
    expect(resolveTheme('system', true)).toBe('dark');
    expect(resolveTheme('system', false)).toBe('light');
    expect(resolveTheme('light', true)).toBe('light');
    expect(resolveTheme('dark', false)).toBe('dark');
  });
});

describe('createThemeController', () => {
  it('defaults to the system preference and applies it to <html> at once', () => {
    const { controller } = setup(null, true);
    expect(controller.getState()).toEqual({ preference: 'system', resolved: 'dark' });
    expect(document.documentElement.classList.contains('dark')).toBe(true);
  });

  it('reads a stored choice and ignores garbage', () => {
    expect(setup('light', true).controller.getState().resolved).toBe('light');
    expect(setup('purple', false).controller.getState().preference).toBe('system');
  });

  it('persists a choice to satchel-theme and forgets it for system', () => {
    const { controller, storage } = setup(null);
    controller.setPreference('dark');
    expect(storage.get('satchel-theme')).toBe('dark');
    expect(document.documentElement.classList.contains('dark')).toBe(true);
    expect(document.documentElement.classList.contains('light')).toBe(false);
    controller.setPreference('system');
    expect(storage.has('satchel-theme')).toBe(false);
    expect(document.documentElement.classList.contains('light')).toBe(true);
  });

  it('follows OS changes while on system', () => {
    const { controller, media } = setup(null, false);
    const listener = vi.fn();
    controller.subscribe(listener);
    media.matches = true;
    media.dispatchEvent(new Event('change'));
    expect(controller.getState().resolved).toBe('dark');
    expect(listener).toHaveBeenCalledTimes(1);
    controller.dispose();
  });

  it('survives storage that throws', () => {
    const controller = createThemeController({
      document,
      storage: {
        getItem: () => {
          throw new Error('denied');
        },
        setItem: () => {
          throw new Error('denied');
        },
        removeItem: () => undefined,
      },
      matchMedia: undefined,
    });
    expect(controller.getState().preference).toBe('system');
    controller.setPreference('dark');
    expect(controller.getState().resolved).toBe('dark');
  });
});
