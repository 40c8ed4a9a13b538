import { createMemoryHistory } from '@tanstack/react-router';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AuthController, AuthState } from '../auth/auth-controller.ts';
import { portalSessionStorageKey } from '../features/portal/portal-session.ts';
import { createThemeController } from '../ui/theme.ts';
import { createToaster } from '../ui/toaster.ts';
import { App } from './app.tsx';
import { createAppRouter } from './create-app-router.tsx';

const signedIn: AuthState = {
  status: 'authenticated',
  user: { id: 'u1', email: 'ada@example.com', displayName: 'Ada Lovelace', role: 'admin' },
};
const signedOut: AuthState = { status: 'unauthenticated' };

/** An auth controller the test moves from state to state. */
function createTestAuthController(initial: AuthState) {
  let state = initial;
  const listeners = new Set<() => void>();
  const controller: AuthController & { set(next: AuthState): void } = {
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    signOut: () => Promise.resolve(controller.set(signedOut)),
    dispose: () => listeners.clear(),
    set(next) {
      state = next;
      for (const listener of listeners) listener();
    },
  };
  return controller;
}

function renderApp(path: string, auth: AuthState) {
  const history = createMemoryHistory({ initialEntries: [path] });
  const authController = createTestAuthController(auth);
  const api = { callEndpoint: () => Promise.reject(new Error('no API in route tests')) };
  const router = createAppRouter({ auth, api }, { history });
  const themeController = createThemeController({
    document,
    storage: undefined,
    matchMedia: undefined,
  });
  render(
    <App
      router={router}
      authController={authController}
      themeController={themeController}
      toaster={createToaster()}
    />,
  );
  const href = () => router.state.location.href;
  return { router, authController, href };
}

async function heading(): Promise<HTMLElement> {
  return screen.findByRole('heading', { level: 1 });
}

let scrollTo: ReturnType<typeof vi.fn>;

beforeEach(() => {
  scrollTo = vi.fn();
  window.scrollTo = scrollTo as unknown as typeof window.scrollTo;
  localStorage.clear();
});

afterEach(() => {
  cleanup();
  document.documentElement.removeAttribute('data-routes-preloaded');
});

describe('routes of spec section 2', () => {
  it.each([
    [
      '/',
      'Run your freelance business from one workspace, even offline.',
      'Satchel — the offline-first workspace for freelancers',
    ],
    ['/features', 'Features', 'Features — Satchel'],
    ['/pricing', 'Pricing', 'Pricing — Satchel'],
    ['/faq', 'Frequently asked questions', 'Frequently asked questions — Satchel'],
    ['/contact', 'Contact us', 'Contact us — Satchel'],
    ['/demo', 'Demo', 'Demo — Satchel'],
    ['/terms-of-service', 'Terms of service', 'Terms of service — Satchel'],
    ['/privacy-policy', 'Privacy policy', 'Privacy policy — Satchel'],
    ['/feedback', 'Feedback', 'Feedback — Satchel'],
    ['/client-portal-demo', 'Client portal demo', 'Client portal demo — Satchel'],
    ['/billing-success', 'Payment received', 'Payment received — Satchel'],
    ['/billing-error', 'Payment failed', 'Payment failed — Satchel'],
    ['/subscription/success', 'Subscription active', 'Subscription active — Satchel'],
    ['/subscription/cancel', 'Checkout cancelled', 'Checkout cancelled — Satchel'],
    ['/client-access?projectId=p1&clientId=c1', 'Client access', 'Client access — Satchel'],
    ['/login', 'Sign in', 'Sign in — Satchel'],
    ['/signup', 'Create your account', 'Create your account — Satchel'],
    ['/forgot-password', 'Reset your password', 'Reset your password — Satchel'],
    ['/reset-password', 'Choose a new password', 'Choose a new password — Satchel'],
    ['/verify-email', 'Check your email', 'Check your email — Satchel'],
  ])('%s shows one h1 and its title to a signed-out visitor', async (path, h1, title) => {
    renderApp(path, signedOut);
    expect((await heading()).textContent).toBe(h1);
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    await waitFor(() => expect(document.title).toBe(title));
  });

  it.each([
    ['/auth/confirm-registration', 'Confirm your registration'],
    ['/dashboard', 'Dashboard'],
    ['/notifications', 'Notifications'],
    ['/projects', 'Projects'],
    ['/projects/p1/c1', 'Project workspace'],
    ['/projects/p1/activity', 'Project activity'],
    ['/change-requests', 'Change requests'],
    ['/calendar', 'Calendar'],
    ['/clients', 'Clients'],
    ['/clients/c1', 'Client'],
    ['/settings', 'Settings'],
  ])('%s shows one h1 and its title to a signed-in user', async (path, h1) => {
    renderApp(path, signedIn);
    expect((await heading()).textContent).toBe(h1);
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    await waitFor(() => expect(document.title).toBe(`${h1} — Satchel`));
    expect(screen.getAllByRole('navigation', { name: 'App' }).length).toBeGreaterThan(0);
  });
});

describe('project routes', () => {
  it('matches the static "activity" segment before the client id', async () => {
    const { router } = renderApp('/projects/p1/activity', signedIn);
    expect((await heading()).textContent).toBe('Project activity');
    expect(router.state.matches.at(-1)?.routeId).toBe('/_app/projects/$projectId/activity');
  });

  it('treats any other second segment as the client id', async () => {
    const { router } = renderApp('/projects/p1/activity-log', signedIn);
    expect((await heading()).textContent).toBe('Project workspace');
    expect(router.state.matches.at(-1)?.params).toEqual({
      projectId: 'p1',
      clientId: 'activity-log',
    });
  });
});

describe('signed-in guard', () => {
  it('sends a signed-out visitor to /login with the path and query as returnTo', async () => {
    const { href } = renderApp('/projects/p1/c1?tab=files', signedOut);
    await waitFor(() => expect(href()).toBe('/login?returnTo=%2Fprojects%2Fp1%2Fc1%3Ftab%3Dfiles'));
    expect((await heading()).textContent).toBe('Sign in');
  });

  it('shows a loading view, not a blank page, while auth is loading', async () => {
    const { authController, href } = renderApp('/dashboard', { status: 'loading' });
    expect(await screen.findByText('Loading...')).toBeTruthy();
    expect(href()).toBe('/dashboard');

    authController.set(signedOut);
    await waitFor(() => expect(href()).toBe('/login?returnTo=%2Fdashboard'));
  });

  it('lets the user in once auth resolves to signed in', async () => {
    const { authController } = renderApp('/settings', { status: 'loading' });
    expect(await screen.findByText('Loading...')).toBeTruthy();
    authController.set(signedIn);
    expect((await heading()).textContent).toBe('Settings');
  });

  it('sends the user to /login after signing out', async () => {
    const { authController, href } = renderApp('/clients', signedIn);
    expect((await heading()).textContent).toBe('Clients');
    authController.set(signedOut);
    await waitFor(() => expect(href()).toBe('/login?returnTo=%2Fclients'));
  });
});

describe('guest-only guard', () => {
  it('sends a signed-in user to /dashboard by default', async () => {
    const { href } = renderApp('/login', signedIn);
    await waitFor(() => expect(href()).toBe('/dashboard'));
  });

  it('sends a signed-in user to a same-origin returnTo', async () => {
    const { href } = renderApp('/signup?returnTo=%2Fclients%2Fc1%3Ftab%3Dnotes', signedIn);
    await waitFor(() => expect(href()).toBe('/clients/c1?tab=notes'));
  });

  it.each([
    '%2F%2Fevil.com',
    'https%3A%2F%2Fevil.com',
    '%2F%5Cevil.com',
    'javascript%3Aalert(1)',
    '%2F%09%2Fevil.com',
  ])('ignores returnTo=%s', async (returnTo) => {
    const { href } = renderApp(`/login?returnTo=${returnTo}`, signedIn);
    await waitFor(() => expect(href()).toBe('/dashboard'));
  });

  it('sends the user on after signing in on the page', async () => {
    const { authController, href } = renderApp('/login?returnTo=%2Fprojects', signedOut);
    expect((await heading()).textContent).toBe('Sign in');
    authController.set(signedIn);
    await waitFor(() => expect(href()).toBe('/projects'));
  });
});

describe('client portal guard', () => {
  const portalPath = '/client/c1/project/p1';

  it('sends a visitor without a session to /client-access with both ids and the way back', async () => {
    const { href } = renderApp(portalPath, signedOut);
    await waitFor(() =>
      expect(href()).toBe(
        '/client-access?projectId=p1&clientId=c1&redirect=%2Fclient%2Fc1%2Fproject%2Fp1',
      ),
    );
    expect((await heading()).textContent).toBe('Client access');
  });

  it('lets a visitor with a live session for both ids in', async () => {
    localStorage.setItem(
      portalSessionStorageKey,
      JSON.stringify({ projectId: 'p1', clientId: 'c1', lastActivity: Date.now() - 60_000 }),
    );
    const { href } = renderApp(portalPath, signedOut);
    // The portal page itself (its ids here are not real, so it cannot load a project).
    expect((await heading()).textContent).toBe('Something went wrong');
    expect(href()).toBe(portalPath);
  });

  it('refuses a session for another project', async () => {
    localStorage.setItem(
      portalSessionStorageKey,
      JSON.stringify({ projectId: 'p2', clientId: 'c1', lastActivity: Date.now() }),
    );
    const { href } = renderApp(portalPath, signedOut);
    await waitFor(() => expect(href()).toMatch(/^\/client-access\?/));
  });

  it('treats a corrupt stored session as none', async () => {
    localStorage.setItem(portalSessionStorageKey, '{not json');
    const { href } = renderApp(portalPath, signedOut);
    await waitFor(() => expect(href()).toMatch(/^\/client-access\?/));
  });
});

describe('not found', () => {
  it.each(['/no-such-page', '/projects/p1/c1/extra', '/client/c1', '/subscription'])(
    '%s shows the not-found page, signed in or not',
    async (path) => {
      renderApp(path, signedOut);
      expect((await heading()).textContent).toBe('Page not found');
      expect(screen.getByRole('link', { name: 'Go to the home page' }).getAttribute('href')).toBe(
        '/',
      );
      expect(screen.getByRole('link', { name: 'Open your dashboard' }).getAttribute('href')).toBe(
        '/dashboard',
      );
      await waitFor(() => expect(document.title).toBe('Page not found — Satchel'));
    },
  );
});

describe('scroll', () => {
  it('scrolls to the top when the path changes', async () => {
    const { router } = renderApp('/features', signedOut);
    expect((await heading()).textContent).toBe('Features');
    scrollTo.mockClear();
    await router.navigate({ to: '/pricing' });
    await waitFor(() => expect(scrollTo).toHaveBeenCalledWith(0, 0));
  });
});

describe('route preload on /login and /signup', () => {
  it('marks <html> once the signed-in screens have been preloaded', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      renderApp('/login', signedOut);
      expect((await heading()).textContent).toBe('Sign in');
      expect(document.documentElement.dataset['routesPreloaded']).toBeUndefined();
      await vi.advanceTimersByTimeAsync(2000);
      await waitFor(() => expect(document.documentElement.dataset['routesPreloaded']).toBe('true'));
    } finally {
      vi.useRealTimers();
    }
  });
});
