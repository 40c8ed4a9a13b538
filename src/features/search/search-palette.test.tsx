import { RouterProvider } from '@tanstack/react-router';
import { createTestRouter } from '../test-router.tsx';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { AppDatabase } from '../../db/app-database.ts';
import {
  createTestDatabase,
  expectAccessible,
  renderWithSync,
  WS,
} from '../projects/project-screen-test-utils.tsx';
import { SearchLauncher } from './search-launcher.tsx';

afterEach(() => {
  cleanup();
  localStorage.clear();
});

const local = { _v: 1, _pending: 0, _deleted: false, _base: {} };
const stamps = {
  createdAt: '2026-01-01T00:00:00.000Z',
  createdBy: 'u1',
  updatedAt: '2026-01-01T00:00:00.000Z',
  updatedBy: 'u1',
  version: 1,
};

async function seed(db: AppDatabase) {
  await db.clients.put({
    ...local,
    ...stamps,
    id: 'c1',
    workspaceId: WS,
    name: 'Aurora Labs',
    company: null,
    email: null,
    tags: [],
  } as never);
  await db.projects.put({
    ...local,
    ...stamps,
    id: 'p1',
    workspaceId: WS,
    clientId: 'c1',
    name: 'Website relaunch',
    description: null,
  } as never);
  const task = {
    ...local,
    ...stamps,
    workspaceId: WS,
    projectId: 'p1',
    description: null,
    labels: [],
  };
  await db.tasks.bulkPut([
    { ...task, id: 't1', title: 'Logo refresh' },
    { ...task, id: 't2', title: 'Logo files' },
    // Another workspace's task on the same device never shows.
    { ...task, id: 't3', workspaceId: 'other', projectId: 'p9', title: 'Logo other' },
  ] as never);
}

function Page({ title }: { title: string }) {
  return (
    <>
      <SearchLauncher />
      <main id="main">
        <h1>{title}</h1>
        <button type="button">Somewhere on the page</button>
      </main>
    </>
  );
}

function renderApp(db: AppDatabase) {
  const router = createTestRouter(
    {
      '/dashboard': () => <Page title="Dashboard" />,
      '/projects/$projectId/$clientId': () => <Page title="Website relaunch" />,
      '/clients/$id': () => <Page title="Aurora Labs" />,
    },
    '/dashboard',
  );
  return { ...renderWithSync(<RouterProvider router={router} />, db), router };
}

const options = () =>
  within(screen.getByRole('listbox'))
    .queryAllByRole('option')
    .map((option) => option.textContent);

describe('the search palette', () => {
  it('opens with Ctrl+K, searches as you type, moves with arrows, opens with Enter', async () => {
    const db = await createTestDatabase();
    await seed(db);
    const { router } = renderApp(db);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Somewhere on the page' }));

    await user.keyboard('{Control>}k{/Control}');
    const field = await screen.findByRole('textbox', { name: 'Search this workspace' });
    await waitFor(() => expect(document.activeElement).toBe(field));
    // Empty: the hint.
    expect(screen.getByText(/Type to search clients, projects, tasks/)).toBeTruthy();
    await expectAccessible();

    await user.keyboard('logo');
    await waitFor(() => expect(options()).toHaveLength(2));
    expect(options().every((text) => text?.includes('Task · Website relaunch'))).toBe(true);
    expect(screen.getByRole('group', { name: 'Tasks' })).toBeTruthy();
    expect(document.querySelector('mark')?.textContent).toBe('Logo');
    await expectAccessible();

    // The first hit is active; the arrow moves to the second (focus stays in the field).
    const [first, second] = within(screen.getByRole('listbox')).getAllByRole('option');
    const active = () => field.getAttribute('aria-activedescendant');
    await waitFor(() => expect(active()).toBe(first!.id));
    await user.keyboard('{ArrowDown}');
    await waitFor(() => expect(active()).toBe(second!.id));
    expect(document.activeElement).toBe(field);
    const opened = second!.textContent.replace('Task · Website relaunch', '');
    await user.keyboard('{Enter}');

    await waitFor(() => expect(router.state.location.href).toBe('/projects/p1/c1?tab=tasks'));
    expect(screen.queryByRole('dialog')).toBeNull();
    await waitFor(() =>
      expect(document.activeElement).toBe(
        screen.getByRole('heading', { level: 1, name: 'Website relaunch' }),
      ),
    );

    // Opened once, it is a recent result the next time.
    await user.keyboard('{Meta>}k{/Meta}');
    await screen.findByRole('textbox', { name: 'Search this workspace' });
    await waitFor(() => expect(options()).toEqual([`${opened}Task · Website relaunch`]));
    expect(screen.getByRole('group', { name: 'Recent' })).toBeTruthy();
  });

  it('says when nothing matches, caps a 10,000-character query, and Escape returns focus', async () => {
    const db = await createTestDatabase();
    await seed(db);
    renderApp(db);
    const user = userEvent.setup();
    const launcher = await screen.findByRole('button', { name: 'Search' });
    await user.click(launcher);
    const field = await screen.findByRole('textbox', { name: 'Search this workspace' });

    await user.keyboard('zebra');
    expect(await screen.findByText('No results for “zebra”.')).toBeTruthy();

    await user.clear(field);
    await user.click(field);
    await user.paste(`logo ${'x'.repeat(10_000)}`);
    expect(await screen.findByText(/only its first 200 characters are searched/)).toBeTruthy();
    expect(screen.getByText(/^No results for “logo x+…”\.$/)).toBeTruthy();
    await expectAccessible();

    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(launcher));
  });
});
