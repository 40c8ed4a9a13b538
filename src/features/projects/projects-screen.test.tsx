import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppDatabase } from '../../db/app-database.ts';
import { createClient } from '../../data/client-mutations.ts';
import { createTestDatabase, renderWithSync, USER_ID, WS } from './project-screen-test-utils.tsx';
import { archiveProject, createProject } from '../../data/project-mutations.ts';
import { ProjectsScreen } from './projects-screen.tsx';
import type { ProjectsSearch } from './projects-search.ts';

afterEach(cleanup);
beforeEach(() => localStorage.clear());

/** The route's part: the URL search state, here kept in React state. */
function renderProjects(db: AppDatabase, initial: ProjectsSearch = {}) {
  const searches: ProjectsSearch[] = [];
  function Harness() {
    const [search, setSearch] = useState(initial);
    return (
      <ProjectsScreen
        search={search}
        onSearchChange={(next) => {
          searches.push(next);
          setSearch(next);
        }}
      />
    );
  }
  return { ...renderWithSync(<Harness />, db), searches };
}

async function seed(db: AppDatabase) {
  const ctx = { db, userId: USER_ID };
  const acme = await createClient(ctx, { workspaceId: WS, name: 'Acme', currency: 'GBP' });
  const globex = await createClient(ctx, { workspaceId: WS, name: 'Globex' });
  await createProject(ctx, { workspaceId: WS, clientId: acme.id, name: 'Website' });
  await createProject(ctx, {
    workspaceId: WS,
    clientId: acme.id,
    name: 'Brand book',
    status: 'active',
  });
  await createProject(ctx, {
    workspaceId: WS,
    clientId: globex.id,
    name: 'Mobile app',
    status: 'on_hold',
  });
  return { acme, globex };
}

const projectLinks = () =>
  within(screen.getByRole('list', { name: 'Projects' }))
    .getAllByRole('link')
    .map((link) => link.textContent);

describe('ProjectsScreen', { timeout: 30_000 }, () => {
  it('teaches on an empty workspace and creates a project with a new client from "n"', async () => {
    const db = await createTestDatabase();
    const user = userEvent.setup();
    renderProjects(db);
    expect(await screen.findByRole('heading', { name: 'No projects yet' })).toBeTruthy();

    await user.keyboard('n');
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText('Project name'), 'Launch site');
    await user.type(within(dialog).getByRole('combobox', { name: 'Client' }), 'Initech');
    await user.click(await screen.findByRole('option', { name: /Create new client/ }));
    expect(within(dialog).getByText(/A new client “Initech” will be created/)).toBeTruthy();
    await user.type(within(dialog).getByLabelText('Budget'), '2500');
    await user.click(within(dialog).getByRole('button', { name: 'Create project' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await screen.findByRole('link', { name: 'Launch site' })).toBeTruthy();
    const [client] = await db.clients.toArray();
    const [project] = await db.projects.toArray();
    expect(client).toMatchObject({ name: 'Initech', currency: 'EUR' });
    expect(project).toMatchObject({
      name: 'Launch site',
      clientId: client?.id,
      budget: '2500',
      currency: 'EUR',
      status: 'planned',
    });
    // The new project's board comes with it: its four default columns, queued by this device.
    expect((await db.outbox.toArray()).map((entry) => entry.operation)).toEqual([
      'create-client',
      'create-project',
      'create-kanban-column',
      'create-kanban-column',
      'create-kanban-column',
      'create-kanban-column',
    ]);
  });

  it('shows contract errors beside the fields and writes nothing', async () => {
    const db = await createTestDatabase();
    const { acme } = await seed(db);
    const user = userEvent.setup();
    renderProjects(db, { client: acme.id });
    await user.click(await screen.findByRole('button', { name: 'New project' }));
    const dialog = await screen.findByRole('dialog');
    // The client filter pre-fills the client, and its currency.
    expect(within(dialog).getByRole('combobox', { name: 'Client' })).toHaveProperty(
      'value',
      'Acme',
    );
    expect(within(dialog).getByLabelText('Currency')).toHaveProperty('value', 'GBP');
    await user.type(within(dialog).getByLabelText('Project name'), 'Audit');
    await user.type(within(dialog).getByLabelText('Budget'), '12.345');
    await user.click(within(dialog).getByRole('button', { name: 'Create project' }));

    const budget = within(dialog).getByLabelText('Budget');
    await waitFor(() => expect(budget.getAttribute('aria-invalid')).toBe('true'));
    expect(within(dialog).getByText('Enter an amount like 1500 or 1500.50')).toBeTruthy();
    expect((await db.projects.toArray()).map((project) => project.name)).not.toContain('Audit');
  });

  it('filters by client, status and search, keeping them in the URL state', async () => {
    const db = await createTestDatabase();
    const { acme } = await seed(db);
    const user = userEvent.setup();
    const { searches } = renderProjects(db, { client: acme.id });
    await waitFor(() => expect(projectLinks()).toEqual(['Brand book', 'Website']));

    await user.click(screen.getByRole('button', { name: 'Clear client' }));
    await waitFor(() => expect(projectLinks()).toEqual(['Brand book', 'Mobile app', 'Website']));

    await user.click(screen.getByRole('button', { name: /Status/ }));
    await user.click(await screen.findByRole('option', { name: 'On hold' }));
    await waitFor(() => expect(projectLinks()).toEqual(['Mobile app']));
    expect(searches.at(-1)).toEqual({ status: 'on_hold' });

    await user.click(screen.getByRole('button', { name: /Status/ }));
    await user.click(await screen.findByRole('option', { name: 'All statuses' }));
    await user.keyboard('/');
    expect(document.activeElement).toBe(screen.getByRole('searchbox', { name: 'Search projects' }));
    await user.keyboard('web');
    await waitFor(() => expect(projectLinks()).toEqual(['Website']));
    expect(searches.at(-1)).toEqual({ q: 'web' });

    await user.keyboard('zzz');
    expect(await screen.findByRole('heading', { name: 'No projects match' })).toBeTruthy();
  });

  it('moves a card between board columns with its status menu, and remembers the view', async () => {
    const db = await createTestDatabase();
    await seed(db);
    const user = userEvent.setup();
    renderProjects(db);
    await user.click(await screen.findByRole('radio', { name: 'Board' }));
    const column = (name: string) => screen.getByRole('region', { name });
    await waitFor(() =>
      expect(within(column('Planned')).getByRole('link', { name: 'Website' })).toBeTruthy(),
    );

    await user.click(
      within(column('Planned')).getByRole('button', { name: 'Change status of Website' }),
    );
    await user.click(await screen.findByRole('menuitem', { name: 'Active' }));

    await waitFor(() =>
      expect(within(column('Active')).getByRole('link', { name: 'Website' })).toBeTruthy(),
    );
    expect(within(column('Planned')).queryByRole('link', { name: 'Website' })).toBeNull();
    const update = (await db.outbox.toArray()).at(-1);
    expect(update).toMatchObject({ operation: 'update-project', args: { status: 'active' } });
    expect(localStorage.getItem('satchel.projects.view')).toBe('board');
  });

  it('says where the projects are when all of them are archived', async () => {
    const db = await createTestDatabase();
    await seed(db);
    const ctx = { db, userId: USER_ID };
    for (const project of await db.projects.toArray()) {
      await archiveProject(ctx, project.id);
    }
    const user = userEvent.setup();
    const { searches } = renderProjects(db);
    expect(
      await screen.findByRole('heading', { name: 'All your projects are archived' }),
    ).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Show archived projects' }));
    await waitFor(() => expect(projectLinks()).toEqual(['Brand book', 'Mobile app', 'Website']));
    expect(searches.at(-1)).toEqual({ archived: true });
  });
});
