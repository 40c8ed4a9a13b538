import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppDatabase } from '../../db/app-database.ts';
import { archiveClients, createClient } from '../../data/client-mutations.ts';
import { chatMessageRow, chatReadRow } from '../../data/chat-test-fakes.ts';
import {
  createTestDatabase,
  expectAccessible,
  renderWithSync,
  USER_ID,
  WS,
} from './project-screen-test-utils.tsx';
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
  // In <main>, as in the app: focus after a create looks for the project's link there.
  return {
    ...renderWithSync(
      <main>
        <Harness />
      </main>,
      db,
    ),
    searches,
  };
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

  it('shows each project’s unread chat messages: others’ above my marker, live', async () => {
    const db = await createTestDatabase();
    await seed(db);
    const id = async (name: string) =>
      (await db.projects.filter((project) => project.name === name).first())?.id ?? '';
    const website = await id('Website');
    const brandBook = await id('Brand book');
    const mobileApp = await id('Mobile app');
    await db.chatMessages.bulkPut([
      chatMessage(website, 5),
      chatMessage(website, 11),
      chatMessage(website, 12),
      chatMessage(website, 13, { createdBy: USER_ID }),
      chatMessage(website, 14, { deleted: true }),
      chatMessage(brandBook, 3),
      chatMessage(brandBook, 4),
      chatMessage(brandBook, 6),
      chatMessage(brandBook, 7, { createdBy: USER_ID }),
      chatMessage(mobileApp, 8, { createdBy: USER_ID }),
    ]);
    // Read up to 10 in Website; Brand book has only Bob's marker, not mine.
    await db.chatReads.bulkPut([chatRead(website, USER_ID, 10), chatRead(brandBook, BOB, 100)]);

    renderProjects(db, { view: 'list' });
    const row = (name: string) =>
      within(screen.getByRole('list', { name: 'Projects' }))
        .getByRole('link', { name })
        .closest('li') as HTMLElement;
    // The list may swap its first page for the full one: look the row up again on each try.
    // All in one try, so a swap between two checks (a busy machine) is met by the next try.
    await waitFor(() => {
      const badge = within(row('Website')).getByRole('img', { name: '2 unread messages' });
      expect(badge.textContent).toBe('2');
      expect(screen.getByRole('link', { name: 'Website' }).getAttribute('aria-describedby')).toBe(
        badge.id,
      );
      expect(
        within(row('Brand book')).getByRole('img', { name: '3 unread messages' }).textContent,
      ).toBe('3');
      expect(within(row('Mobile app')).queryByRole('img', { name: /unread/ })).toBeNull();
      expect(screen.getAllByRole('img', { name: /unread/ })).toHaveLength(2);
    });
    await expectAccessible();

    // Bob writes in Mobile app; I read Website: both rows follow.
    await db.chatMessages.put(chatMessage(mobileApp, 20));
    await db.chatReads.put(chatRead(website, USER_ID, 14));
    await waitFor(() =>
      expect(within(row('Mobile app')).getByRole('img', { name: '1 unread message' })).toBeTruthy(),
    );
    await waitFor(() =>
      expect(within(row('Website')).queryByRole('img', { name: /unread/ })).toBeNull(),
    );
  });

  it('shows the unread badge on board cards too', async () => {
    const db = await createTestDatabase();
    await seed(db);
    const website = (await db.projects.filter((project) => project.name === 'Website').first())!;
    await db.chatMessages.put(chatMessage(website.id, 5));
    renderProjects(db, { view: 'board' });
    const board = await screen.findByRole('group', { name: 'Project board' });
    expect(await within(board).findByRole('img', { name: '1 unread message' })).toBeTruthy();
    await expectAccessible();
  });
});

describe('ProjectsScreen focus and the new project form', { timeout: 30_000 }, () => {
  /** One planned project: the Free plan's two active projects leave room for another. */
  async function seedOne(db: AppDatabase) {
    const ctx = { db, userId: USER_ID };
    const acme = await createClient(ctx, { workspaceId: WS, name: 'Acme' });
    await createProject(ctx, { workspaceId: WS, clientId: acme.id, name: 'Website' });
  }

  async function openDialog(user: ReturnType<typeof userEvent.setup>) {
    await user.keyboard('n');
    return screen.findByRole('dialog');
  }

  it('moves focus to the new project’s link once created from "n"', async () => {
    const db = await createTestDatabase();
    await seedOne(db);
    const user = userEvent.setup();
    renderProjects(db, { view: 'list' });
    await waitFor(() => expect(projectLinks()).toEqual(['Website']));
    const dialog = await openDialog(user);
    await user.type(within(dialog).getByLabelText('Project name'), 'Annual report');
    await user.type(within(dialog).getByRole('combobox', { name: 'Client' }), 'Acme');
    await user.click(await screen.findByRole('option', { name: 'Acme' }));
    await user.click(within(dialog).getByRole('button', { name: 'Create project' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('link', { name: 'Annual report' })),
    );
  });

  it('moves focus to "New project" when the filters hide the new project', async () => {
    const db = await createTestDatabase();
    await seedOne(db);
    const user = userEvent.setup();
    renderProjects(db, { view: 'list', q: 'web' });
    await waitFor(() => expect(projectLinks()).toEqual(['Website']));
    const dialog = await openDialog(user);
    await user.type(within(dialog).getByLabelText('Project name'), 'Annual report');
    await user.type(within(dialog).getByRole('combobox', { name: 'Client' }), 'Acme');
    await user.click(await screen.findByRole('option', { name: 'Acme' }));
    await user.click(within(dialog).getByRole('button', { name: 'Create project' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('button', { name: 'New project' })),
    );
  });

  it('flags every missing field at once and focuses the first, without opening the list', async () => {
    const db = await createTestDatabase();
    await seed(db);
    const user = userEvent.setup();
    renderProjects(db);
    await screen.findByRole('button', { name: 'New project' });
    const dialog = await openDialog(user);
    await user.click(within(dialog).getByRole('button', { name: 'Create project' }));

    const name = within(dialog).getByLabelText('Project name');
    const client = within(dialog).getByRole('combobox', { name: 'Client' });
    await waitFor(() => expect(name.getAttribute('aria-invalid')).toBe('true'));
    expect(client.getAttribute('aria-invalid')).toBe('true');
    expect(
      within(dialog).getByText('Choose a client, or type a name to add a new one'),
    ).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(name));

    // Named now: the client is what is left, focused with its message in view (no list over it).
    await user.type(name, 'Annual report');
    await user.click(within(dialog).getByRole('button', { name: 'Create project' }));
    await waitFor(() => expect(document.activeElement).toBe(client));
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(client.getAttribute('aria-expanded')).not.toBe('true');
    expect(await db.projects.count()).toBe(3);

    // The list still opens when the user types.
    await user.type(client, 'Acm');
    expect(await screen.findByRole('option', { name: 'Acme' })).toBeTruthy();
  });

  it('offers an archived client by name instead of a duplicate, and restores it', async () => {
    const db = await createTestDatabase();
    const ctx = { db, userId: USER_ID };
    await seedOne(db);
    const zed = await createClient(ctx, { workspaceId: WS, name: 'Zed Zoo' });
    await archiveClients(ctx, [zed.id]);
    const user = userEvent.setup();
    renderProjects(db);
    await screen.findByRole('button', { name: 'New project' });
    const dialog = await openDialog(user);
    await user.type(within(dialog).getByLabelText('Project name'), 'Zoo map');
    const client = within(dialog).getByRole('combobox', { name: 'Client' });
    // Not in the list on open (the current clients are), but found by its name.
    await user.click(client);
    expect(await screen.findByRole('option', { name: 'Acme' })).toBeTruthy();
    expect(screen.queryByRole('option', { name: /Zed Zoo/ })).toBeNull();
    await user.type(client, 'zed zoo');
    const option = await screen.findByRole('option', { name: 'Zed Zoo (archived)' });
    expect(screen.queryByRole('option', { name: /Create new client/ })).toBeNull();
    await user.click(option);
    expect(
      within(dialog).getByText(/Zed Zoo is archived: creating the project restores it/),
    ).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Create project' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    const clients = await db.clients.toArray();
    expect(clients.filter((row) => row.name === 'Zed Zoo')).toHaveLength(1);
    expect(clients.find((row) => row.id === zed.id)?.archived).toBe(false);
    const project = (await db.projects.toArray()).find((row) => row.name === 'Zoo map');
    expect(project?.clientId).toBe(zed.id);
  });

  it('puts focus in the search field after "Clear filters"', async () => {
    const db = await createTestDatabase();
    await seed(db);
    const user = userEvent.setup();
    renderProjects(db, { view: 'list', q: 'zzz' });
    await user.click(await screen.findByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(projectLinks()).toHaveLength(3));
    expect(document.activeElement).toBe(screen.getByRole('searchbox', { name: 'Search projects' }));
  });
});

const BOB = '0190a000-0000-7000-8000-0000000000b0';
/** A chat message as the server sent it, from Bob unless said otherwise. */
const chatMessage = (
  projectId: string,
  seq: number,
  extra: { createdBy?: string; deleted?: boolean } = {},
) =>
  chatMessageRow(projectId, seq, { ...extra, workspaceId: WS, createdBy: extra.createdBy ?? BOB });

/** A member's read marker of a project's chat. */
const chatRead = (projectId: string, userId: string, lastReadSeq: number) =>
  chatReadRow(WS, projectId, userId, lastReadSeq);
