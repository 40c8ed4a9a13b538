import { createMemoryHistory } from '@tanstack/react-router';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AuthController, AuthState } from '../auth/auth-controller.ts';
import { createThemeController } from '../ui/theme.ts';
import { createToaster } from '../ui/toaster.ts';
import { App } from './app.tsx';
import { createAppRouter } from './create-app-router.tsx';

const signedIn: AuthState = {
  status: 'authenticated',
  user: { id: 'u1', email: 'ada@example.com', displayName: 'Ada Lovelace', role: 'admin' },
};
const auth: AuthController = {
  getState: () => signedIn,
  subscribe: () => () => undefined,
  signOut: () => Promise.resolve(),
  dispose: () => undefined,
};

beforeEach(() => {
  window.scrollTo = vi.fn();
  localStorage.clear();
});
afterEach(() => {
  cleanup();
  document.documentElement.classList.remove('dark', 'light');
});

describe('theme switch in the app', () => {
  it('is on every signed-in page, outside any menu, and works from the keyboard', async () => {
    const router = createAppRouter(
      { auth: signedIn, api: { callEndpoint: () => Promise.reject(new Error('no API')) } },
      { history: createMemoryHistory({ initialEntries: ['/dashboard'] }) },
    );
    render(
      <App
        router={router}
        authController={auth}
        themeController={createThemeController({
          document,
          storage: localStorage,
          matchMedia: undefined,
        })}
        toaster={createToaster()}
      />,
    );
    await screen.findByRole('heading', { level: 1, name: 'Dashboard' });
    const group = screen.getByRole('radiogroup', { name: 'Colour theme' });
    const dark = within(group).getByRole('radio', { name: 'Dark theme' });

    const user = userEvent.setup();
    for (let i = 0; i < 40 && !group.contains(document.activeElement); i += 1) await user.tab();
    expect(group.contains(document.activeElement)).toBe(true);
    for (let i = 0; i < 3 && document.activeElement !== dark; i += 1) {
      await user.keyboard('{ArrowRight}');
    }
    expect(document.activeElement).toBe(dark);
    await user.keyboard(' ');

    expect(dark.getAttribute('aria-checked')).toBe('true');
    expect(document.documentElement.classList.contains('dark')).toBe(true);
    expect(localStorage.getItem('satchel-theme')).toBe('dark');
  });
});
