import {
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
  Outlet,
  RouterProvider,
} from '@tanstack/react-router';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { AppDatabase, LocalWorkspace } from '../../db/app-database.ts';
import {
  createTestDatabase,
  expectAccessible,
  renderWithSync,
  USER_ID,
  WS,
} from '../projects/project-screen-test-utils.tsx';
import { readPreferredWorkspace } from '../members/preferred-workspace.ts';
import { WorkspaceGate, useWorkspace } from '../workspace/workspace-gate.tsx';
import { orderWorkspaces } from '../workspace/use-workspace.ts';
import { WorkspaceSwitcher } from './workspace-switcher.tsx';

afterEach(() => {
  cleanup();
  localStorage.clear();
});

const OTHER = '0190a000-0000-7000-8000-0000000000b2';

function workspaceRow(id: string, name: string, createdAt: string): LocalWorkspace {
  return {
    id,
    name,
    logoUrl: null,
    brandColor: null,
    currency: 'EUR',
    timeZone: 'UTC',
    locale: 'en',
    portalWelcomeText: null,
    settings: {},
    createdAt,
    updatedAt: createdAt,
    _v: 1,
  };
}

function member(workspaceId: string, role: 'owner' | 'admin' | 'member') {
  return {
    workspaceId,
    id: USER_ID,
    email: 'u1@example.test',
    firstName: 'Uma',
    lastName: 'One',
    profilePictureUrl: null,
    role,
    joinedAt: '2026-01-01T00:00:00.000Z',
  };
}

/** The test database's "Studio" (owned) plus a newer "Bakery" the user joined as a member. */
async function twoWorkspaces(): Promise<AppDatabase> {
  const db = await createTestDatabase();
  await db.workspaces.put(workspaceRow(OTHER, 'Bakery', '2026-02-01T00:00:00.000Z'));
  await db.members.bulkPut([member(WS, 'owner'), member(OTHER, 'member')]);
  return db;
}

function Heading() {
  return <h1>{useWorkspace().name} dashboard</h1>;
}

function renderShell(db: AppDatabase, path = '/projects/p1') {
  const root = createRootRoute({
    component: () => (
      <>
        <header>
          <WorkspaceSwitcher />
        </header>
        <main id="main">
          <WorkspaceGate>
            <Outlet />
          </WorkspaceGate>
        </main>
      </>
    ),
  });
  const router = createRouter({
    routeTree: root.addChildren([
      createRoute({ getParentRoute: () => root, path: '/dashboard', component: Heading }),
      createRoute({
        getParentRoute: () => root,
        path: '/projects/p1',
        component: () => <h1>A Studio project</h1>,
      }),
    ]),
    history: createMemoryHistory({ initialEntries: [path] }),
  });
  renderWithSync(<RouterProvider router={router} />, db);
  return router;
}

describe('orderWorkspaces', () => {
  const a = workspaceRow('a', 'Owned', '2026-03-01T00:00:00.000Z');
  const b = workspaceRow('b', 'Joined early', '2026-01-01T00:00:00.000Z');
  const c = workspaceRow('c', 'Joined late', '2026-02-01T00:00:00.000Z');
  const members = [
    { id: 'me', workspaceId: 'a', role: 'owner' as const },
    { id: 'me', workspaceId: 'b', role: 'admin' as const },
    { id: 'someone', workspaceId: 'c', role: 'owner' as const },
  ];

  it('lists the owned workspace first, then the oldest, with the user’s own role', () => {
    const { choices, current } = orderWorkspaces([c, b, a], members, 'me', null);
    expect(choices.map((choice) => [choice.workspace.name, choice.role])).toEqual([
      ['Owned', 'owner'],
      ['Joined early', 'admin'],
      ['Joined late', null],
    ]);
    expect(current?.id).toBe('a');
  });

  it('opens the preferred workspace while it is here, else the first', () => {
    expect(orderWorkspaces([a, b, c], members, 'me', 'c').current?.id).toBe('c');
    expect(orderWorkspaces([a, b], members, 'me', 'gone').current?.id).toBe('a');
    expect(orderWorkspaces([], members, 'me', 'a').current).toBeNull();
  });
});

describe('WorkspaceSwitcher', () => {
  it('shows the one workspace’s name, with no menu', async () => {
    const db = await createTestDatabase();
    await db.members.put(member(WS, 'owner'));
    renderShell(db, '/dashboard');
    expect(await screen.findByRole('heading', { name: 'Studio dashboard' })).toBeDefined();
    expect(within(screen.getByRole('banner')).getByText('Studio')).toBeDefined();
    expect(screen.queryByRole('button', { name: /Workspace/ })).toBeNull();
  });

  it('switches from the keyboard: the screens follow at once, the dashboard opens, focus on its heading', async () => {
    const user = userEvent.setup();
    const db = await twoWorkspaces();
    const router = renderShell(db);
    const trigger = await screen.findByRole('button', { name: 'Workspace: Studio' });

    trigger.focus();
    await user.keyboard('{ArrowDown}');
    const menu = await screen.findByRole('menu');
    const items = within(menu).getAllByRole('menuitemradio');
    expect(items.map((item) => item.textContent)).toEqual(['StudioOwner', 'BakeryMember']);
    expect(items[0]?.getAttribute('aria-checked')).toBe('true');
    expect(items[1]?.getAttribute('aria-checked')).toBe('false');
    await expectAccessible();

    // Escape closes it and gives focus back; nothing changed.
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(trigger));
    expect(readPreferredWorkspace(USER_ID)).toBeNull();

    await user.keyboard('{ArrowDown}');
    await screen.findByRole('menu');
    await waitFor(() => expect(document.activeElement?.textContent).toBe('StudioOwner'));
    await user.keyboard('{ArrowDown}{Enter}');

    expect(readPreferredWorkspace(USER_ID)).toBe(OTHER);
    const heading = await screen.findByRole('heading', { name: 'Bakery dashboard' });
    expect(router.state.location.pathname).toBe('/dashboard');
    expect(screen.getByRole('button', { name: 'Workspace: Bakery' })).toBeDefined();
    await waitFor(() => expect(document.activeElement).toBe(heading));
  });

  it('follows a choice made in another tab (the storage event)', async () => {
    const db = await twoWorkspaces();
    renderShell(db, '/dashboard');
    await screen.findByRole('heading', { name: 'Studio dashboard' });
    act(() => {
      localStorage.setItem(`satchel:open-workspace:${USER_ID}`, OTHER);
      window.dispatchEvent(
        new StorageEvent('storage', { key: `satchel:open-workspace:${USER_ID}`, newValue: OTHER }),
      );
    });
    expect(await screen.findByRole('heading', { name: 'Bakery dashboard' })).toBeDefined();
    expect(screen.getByRole('button', { name: 'Workspace: Bakery' })).toBeDefined();
  });
});
