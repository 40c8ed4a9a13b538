/**
 * Every route's search params through the app's real router (plain-search parsing, the route's
 * validateSearch, navigation writing them back): what a URL says is what the screen gets.
 */
import { createMemoryHistory } from '@tanstack/react-router';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AuthController, AuthState } from '../auth/auth-controller.ts';
import { archiveClients, createClient } from '../data/client-mutations.ts';
import {
  createFakeSyncHandle,
  createTestDatabase,
  USER_ID,
  WS,
} from '../features/projects/project-screen-test-utils.tsx';
import { archiveProject, createProject } from '../data/project-mutations.ts';
import type { AppDatabase } from '../db/app-database.ts';
import { createThemeController } from '../ui/theme.ts';
import { createToaster } from '../ui/toaster.ts';
import { App } from './app.tsx';
import { createAppRouter } from './create-app-router.tsx';

const signedIn: AuthState = {
  status: 'authenticated',
  user: { id: USER_ID, email: 'ada@example.com', displayName: 'Ada Lovelace', role: 'admin' },
};
const signedOut: AuthState = { status: 'unauthenticated' };

function staticAuth(state: AuthState): AuthController {
  return {
    getState: () => state,
    subscribe: () => () => undefined,
    signOut: () => Promise.resolve(),
    dispose: () => undefined,
  };
}

function renderApp(path: string, auth: AuthState, db?: AppDatabase) {
  const history = createMemoryHistory({ initialEntries: [path] });
  const api = { callEndpoint: () => Promise.reject(new Error('no API in route tests')) };
  const router = createAppRouter({ auth, api }, { history });
  const sync = db ? { openSync: () => Promise.resolve(createFakeSyncHandle(db)) } : null;
  render(
    <App
      router={router}
      authController={staticAuth(auth)}
      themeController={createThemeController({
        document,
        storage: undefined,
        matchMedia: undefined,
      })}
      toaster={createToaster()}
      sync={sync}
    />,
  );
  return router;
}

type Router = ReturnType<typeof createAppRouter>;
const leafSearch = (router: Router) => router.state.matches.at(-1)?.search;
const leafRoute = (router: Router) => router.state.matches.at(-1)?.routeId;

beforeEach(() => {
  window.scrollTo = vi.fn();
  localStorage.clear();
});
afterEach(cleanup);

/** [route id, path, who, search string, the search the route must hand its screen]. */
const cases: [string, string, AuthState, string, Record<string, unknown>][] = [
  [
    '/_app/projects/',
    '/projects',
    signedIn,
    'view=board&status=on_hold&client=c1&q=123&archived=true',
    { view: 'board', status: 'on_hold', client: 'c1', q: '123', archived: true },
  ],
  [
    '/_app/projects/',
    '/projects',
    signedIn,
    'archived=false&q=true',
    { archived: false, q: 'true' },
  ],
  [
    '/_app/clients/',
    '/clients',
    signedIn,
    'q=acme&status=lead&tag=design&sort=recent&archived=true',
    { q: 'acme', status: 'lead', tag: 'design', sort: 'recent', archived: true },
  ],
  ['/_app/clients/', '/clients', signedIn, 'archived=false', { archived: false }],
  [
    '/_app/change-requests',
    '/change-requests',
    signedIn,
    'status=quote_declined&projectId=p1',
    { status: 'quote_declined', projectId: 'p1' },
  ],
  // An unknown status and an empty project read as "not set": the open requests of every project.
  ['/_app/change-requests', '/change-requests', signedIn, 'status=closed&projectId=', {}],
  [
    '/_app/calendar',
    '/calendar',
    signedIn,
    'view=agenda&date=2026-03-09',
    { view: 'agenda', date: '2026-03-09' },
  ],
  ['/_app/invoices/', '/invoices', signedIn, 'state=overdue', { state: 'overdue' }],
  // An unknown state reads as every invoice.
  ['/_app/invoices/', '/invoices', signedIn, 'state=late', {}],
  // month is the default (no view), and a malformed date reads as today.
  ['/_app/calendar', '/calendar', signedIn, 'view=year&date=2026-02-31x', {}],
  [
    '/_app/settings',
    '/settings',
    signedIn,
    'tab=billing&plan=pro&interval=year',
    { tab: 'billing', plan: 'pro', interval: 'year' },
  ],
  [
    '/_app/projects/$projectId/$clientId',
    '/projects/p1/c1',
    signedIn,
    'tab=files',
    { tab: 'files' },
  ],
  [
    '/_app/auth/confirm-registration',
    '/auth/confirm-registration',
    signedIn,
    'returnTo=%2Fprojects%3Fview%3Dboard',
    { returnTo: '/projects?view=board' },
  ],
  ['/_guest/login', '/login', signedOut, 'returnTo=%2Fclients', { returnTo: '/clients' }],
  ['/_guest/signup', '/signup', signedOut, 'returnTo=%2Fclients', { returnTo: '/clients' }],
  [
    '/_guest/forgot-password',
    '/forgot-password',
    signedOut,
    'email=a%40example.com&returnTo=%2Fx',
    { email: 'a@example.com', returnTo: '/x' },
  ],
  ['/_guest/reset-password', '/reset-password', signedOut, 'returnTo=%2Fx', { returnTo: '/x' }],
  ['/_guest/verify-email', '/verify-email', signedOut, 'email=1', { email: '1' }],
  [
    '/_portal/client-access',
    '/client-access',
    signedOut,
    'projectId=123&clientId=456&redirect=%2Fclient%2F456%2Fproject%2F123',
    { projectId: '123', clientId: '456', redirect: '/client/456/project/123' },
  ],
  ['/_public/contact', '/contact', signedOut, 'subject=true', { subject: 'true' }],
  ['/_public/billing-success', '/billing-success', signedOut, 'session_id=1', { session_id: '1' }],
  [
    '/_public/billing-error',
    '/billing-error',
    signedOut,
    'session_id=cs_1',
    { session_id: 'cs_1' },
  ],
  [
    '/_public/subscription/success',
    '/subscription/success',
    signedOut,
    'session_id=cs_2',
    { session_id: 'cs_2' },
  ],
  [
    '/_public/subscription/cancel',
    '/subscription/cancel',
    signedOut,
    'session_id=cs_3',
    { session_id: 'cs_3' },
  ],
];

describe('search params of every route', () => {
  it('covers every route that validates its search', () => {
    const router = createAppRouter({ auth: signedOut, api: { callEndpoint: vi.fn() } });
    const withSearch = Object.values(router.routesById)
      .filter((route) => route.options.validateSearch !== undefined)
      .map((route) => route.id);
    const covered = new Set(cases.map(([id]) => id));
    // A layout's search (e.g. /_guest's returnTo) is checked through its child pages.
    const uncovered = withSearch.filter(
      (id) => !covered.has(id) && ![...covered].some((leaf) => leaf.startsWith(`${id}/`)),
    );
    expect(uncovered).toEqual([]);
  });

  it.each(cases)('%s (%s) reads its search back', async (routeId, path, auth, query, expected) => {
    const router = renderApp(`${path}?${query}`, auth);
    await waitFor(() => expect(leafRoute(router)).toBe(routeId));
    expect(leafSearch(router)).toEqual(expected);

    // Written by the app and read back: the URL and the route's search survive a navigation.
    await router.navigate({ to: path, search: expected as never });
    await waitFor(() => expect(leafRoute(router)).toBe(routeId));
    expect(leafSearch(router)).toEqual(expected);
    expect(new URLSearchParams(router.state.location.searchStr).size).toBe(
      Object.keys(expected).length,
    );
  });
});

describe('"Show archived" through the router', { timeout: 30_000 }, () => {
  it('on /projects ticks, writes archived=true and lists archived projects', async () => {
    const db = await createTestDatabase();
    const ctx = { db, userId: USER_ID };
    const acme = await createClient(ctx, { workspaceId: WS, name: 'Acme' });
    await createProject(ctx, { workspaceId: WS, clientId: acme.id, name: 'Website' });
    const old = await createProject(ctx, { workspaceId: WS, clientId: acme.id, name: 'Old site' });
    await archiveProject(ctx, old.id);
    const router = renderApp('/projects', signedIn, db);
    const user = userEvent.setup();

    const checkbox = await screen.findByRole('checkbox', { name: 'Show archived' });
    expect(await screen.findByRole('link', { name: 'Website' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Old site' })).toBeNull();
    await user.click(checkbox);

    await waitFor(() => expect(router.state.location.searchStr).toBe('?archived=true'));
    expect(leafSearch(router)).toMatchObject({ archived: true });
    await waitFor(() =>
      expect(screen.getByRole('checkbox', { name: 'Show archived' })).toHaveProperty(
        'checked',
        true,
      ),
    );
    expect(await screen.findByRole('link', { name: /Old site/ })).toBeTruthy();

    await user.click(screen.getByRole('checkbox', { name: 'Show archived' }));
    await waitFor(() => expect(router.state.location.searchStr).not.toContain('archived=true'));
    expect(screen.getByRole('checkbox', { name: 'Show archived' })).toHaveProperty(
      'checked',
      false,
    );
  });

  it('on /clients ticks from a link with ?archived=true and lists archived clients', async () => {
    const db = await createTestDatabase();
    const ctx = { db, userId: USER_ID };
    await createClient(ctx, { workspaceId: WS, name: 'Acme' });
    const gone = await createClient(ctx, { workspaceId: WS, name: 'Globex' });
    await archiveClients(ctx, [gone.id]);
    const router = renderApp('/clients?archived=true', signedIn, db);
    const user = userEvent.setup();

    const checkbox = await screen.findByRole('checkbox', { name: 'Show archived clients' });
    expect(checkbox).toHaveProperty('checked', true);
    expect(await screen.findByText('Globex')).toBeTruthy();

    await user.click(checkbox);
    await waitFor(() => expect(router.state.location.searchStr).not.toContain('archived=true'));
    expect(checkbox).toHaveProperty('checked', false);
    await waitFor(() => expect(screen.queryByText('Globex')).toBeNull());

    await user.click(checkbox);
    await waitFor(() => expect(router.state.location.searchStr).toBe('?archived=true'));
    expect(checkbox).toHaveProperty('checked', true);
  });
});
