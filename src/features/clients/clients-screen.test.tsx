import { RouterProvider } from '@tanstack/react-router';
import { createTestRouter } from '../test-router.tsx';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AppDatabase } from '../../db/app-database.ts';
import {
  createTestDatabase,
  renderWithSync,
  USER_ID,
  WS,
} from '../projects/project-screen-test-utils.tsx';
import { createClient } from '../../data/client-mutations.ts';
import { ClientsScreen } from './clients-screen.tsx';
import type { ClientsSearch } from './clients-search.ts';

afterEach(cleanup);

/** The screen under a tiny router (its rows link to /clients/$id); URL state kept in React. */
function renderClients(db: AppDatabase, initial: ClientsSearch = {}) {
  const searches: ClientsSearch[] = [];
  function Harness() {
    const [search, setSearch] = useState(initial);
    return (
      <ClientsScreen
        search={search}
        onSearchChange={(next) => {
          searches.push(next);
          setSearch(next);
        }}
      />
    );
  }
  const router = createTestRouter({ '/clients': Harness, '/clients/$id': null }, '/clients');
  return { ...renderWithSync(<RouterProvider router={router} />, db), searches };
}

const names = () =>
  within(screen.getByRole('list', { name: 'Clients' }))
    .getAllByRole('link')
    .map((link) => link.querySelector('span')?.firstChild?.textContent);

describe('ClientsScreen', () => {
  it('teaches on an empty workspace and adds a client from "n", queued for sync', async () => {
    const db = await createTestDatabase();
    const { handle } = renderClients(db);
    const notified = vi.spyOn(handle, 'notifyOutboxChanged');
    expect(await screen.findByRole('heading', { name: 'Add your first client' })).toBeTruthy();

    const user = userEvent.setup();
    await user.keyboard('n');
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Add client' }));
    expect(await within(dialog).findByText('Name is required')).toBeTruthy();

    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Acme Studio');
    await user.type(within(dialog).getByRole('textbox', { name: /Tags/ }), 'design, web');
    await user.click(within(dialog).getByRole('button', { name: 'Add client' }));

    await waitFor(() => expect(names()).toEqual(['Acme Studio']));
    const [entry] = await db.outbox.toArray();
    expect(entry).toMatchObject({
      operation: 'create-client',
      args: { name: 'Acme Studio', tags: ['design', 'web'], currency: 'EUR' },
    });
    expect(notified).toHaveBeenCalled();
  });

  it('shows an invalid email inline beside the field, never the browser popup', async () => {
    const db = await createTestDatabase();
    renderClients(db);
    expect(await screen.findByRole('heading', { name: 'Add your first client' })).toBeTruthy();
    const user = userEvent.setup();
    await user.keyboard('n');
    const dialog = await screen.findByRole('dialog');
    const form = dialog.querySelector('form')!;
    let nativeInvalid = 0;
    form.addEventListener('invalid', () => (nativeInvalid += 1), true);
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Acme');
    const email = within(dialog).getByRole('textbox', { name: 'Email' });
    await user.type(email, 'ada@');
    await user.click(within(dialog).getByRole('button', { name: 'Add client' }));

    expect(await within(dialog).findByText('Enter a valid email address')).toBeTruthy();
    expect(email.getAttribute('aria-invalid')).toBe('true');
    expect(nativeInvalid).toBe(0);
    expect(form.noValidate).toBe(true);
    expect(await db.clients.count()).toBe(0);

    await user.clear(email);
    await user.type(email, 'ada@example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Add client' }));
    await waitFor(() => expect(names()).toEqual(['Acme']));
  }, 20_000);

  it('searches locally, filters by status and tag, and says when nothing matches', async () => {
    const db = await createTestDatabase();
    const ctx = { db, userId: USER_ID };
    await createClient(ctx, { workspaceId: WS, name: 'Acme', tags: ['retainer'] });
    await createClient(ctx, { workspaceId: WS, name: 'Café Noir', company: 'Noir SARL' });
    await createClient(ctx, { workspaceId: WS, name: 'Globex', status: 'lead' });
    const { searches } = renderClients(db);
    await waitFor(() => expect(names()).toEqual(['Acme', 'Café Noir', 'Globex']));

    const user = userEvent.setup();
    await user.keyboard('/');
    await user.keyboard('cafe');
    await waitFor(() => expect(names()).toEqual(['Café Noir']));
    expect(searches.at(-1)).toEqual({ q: 'cafe' });

    await user.keyboard('zzz');
    expect(await screen.findByRole('heading', { name: /No clients match/ })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(names()).toHaveLength(3));

    await user.click(screen.getByRole('button', { name: /Status/ }));
    await user.click(await screen.findByRole('option', { name: 'Lead' }));
    await waitFor(() => expect(names()).toEqual(['Globex']));
  });

  it('finds a tag written as the list shows it, "#design", and "#des" as "des" does', async () => {
    const db = await createTestDatabase();
    const ctx = { db, userId: USER_ID };
    await createClient(ctx, { workspaceId: WS, name: 'Acme', tags: ['design', 'retainer'] });
    await createClient(ctx, { workspaceId: WS, name: 'Design Lab' });
    await createClient(ctx, { workspaceId: WS, name: 'Globex', tags: ['web'] });
    renderClients(db);
    await waitFor(() => expect(names()).toEqual(['Acme', 'Design Lab', 'Globex']));
    expect(screen.getByText('#design · #retainer')).toBeTruthy();

    const user = userEvent.setup();
    const search = screen.getByRole('searchbox', { name: 'Search clients' });
    for (const [query, expected] of [
      ['#design', ['Acme']],
      ['#des', ['Acme']],
      ['design', ['Acme', 'Design Lab']],
      ['des', ['Acme', 'Design Lab']],
      ['#DESIGN #ret', ['Acme']],
      ['#web', ['Globex']],
    ] as const) {
      await user.clear(search);
      await user.type(search, query);
      await waitFor(() => expect(names()).toEqual(expected));
    }
  });

  /** Acme and Globex listed, then Globex ticked and archived from the selection bar. */
  async function archiveGlobex() {
    const db = await createTestDatabase();
    const ctx = { db, userId: USER_ID };
    await createClient(ctx, { workspaceId: WS, name: 'Acme' });
    await createClient(ctx, { workspaceId: WS, name: 'Globex' });
    renderClients(db);
    await waitFor(() => expect(names()).toEqual(['Acme', 'Globex']));
    const user = userEvent.setup();
    await user.click(screen.getByRole('checkbox', { name: 'Select Globex' }));
    await user.click(
      within(screen.getByRole('region', { name: 'Selection' })).getByRole('button', {
        name: 'Archive',
      }),
    );
    await waitFor(() => expect(names()).toEqual(['Acme']));
    return { db, user };
  }

  it('archives the selected clients and undoes it from the toast', async () => {
    const { db, user } = await archiveGlobex();
    expect((await db.clients.toArray()).find((c) => c.name === 'Globex')?.archived).toBe(true);

    await user.click(await screen.findByRole('button', { name: 'Undo' }));
    await waitFor(() => expect(names()).toEqual(['Acme', 'Globex']));
  });

  it('undoes an archive with Ctrl+Z, not the browser undoing the search field', async () => {
    await archiveGlobex();
    await screen.findByText(/Archived 1 client\. Undo with Ctrl\+Z\./);
    const press = new KeyboardEvent('keydown', {
      key: 'z',
      ctrlKey: true,
      bubbles: true,
      cancelable: true,
    });
    document.body.dispatchEvent(press);
    // Handled: the browser's own undo (which would edit the last text field) does not run.
    expect(press.defaultPrevented).toBe(true);
    await waitFor(() => expect(names()).toEqual(['Acme', 'Globex']));
  });
});

describe('ClientsScreen focus', () => {
  const archiveButton = () =>
    within(screen.getByRole('region', { name: 'Selection' })).getByRole('button', {
      name: 'Archive',
    });
  const link = (name: string) =>
    within(screen.getByRole('list', { name: 'Clients' })).getByRole('link', {
      name: new RegExp(`^${name}`),
    });

  it('moves focus to the row after the first archived one, not to the page', async () => {
    const db = await createTestDatabase();
    const ctx = { db, userId: USER_ID };
    for (const name of ['Acme', 'Globex', 'Initech', 'Umbrella']) {
      await createClient(ctx, { workspaceId: WS, name });
    }
    renderClients(db);
    await waitFor(() => expect(names()).toEqual(['Acme', 'Globex', 'Initech', 'Umbrella']));

    const user = userEvent.setup();
    await user.click(screen.getByRole('checkbox', { name: 'Select Globex' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select Initech' }));
    await user.click(archiveButton());
    await waitFor(() => expect(names()).toEqual(['Acme', 'Umbrella']));
    await waitFor(() => expect(document.activeElement).toBe(link('Umbrella')));
  });

  it('moves focus to the row before when the last one is archived, then to "New client"', async () => {
    const db = await createTestDatabase();
    const ctx = { db, userId: USER_ID };
    await createClient(ctx, { workspaceId: WS, name: 'Acme' });
    await createClient(ctx, { workspaceId: WS, name: 'Globex' });
    renderClients(db);
    await waitFor(() => expect(names()).toEqual(['Acme', 'Globex']));

    const user = userEvent.setup();
    await user.click(screen.getByRole('checkbox', { name: 'Select Globex' }));
    await user.click(archiveButton());
    await waitFor(() => expect(names()).toEqual(['Acme']));
    await waitFor(() => expect(document.activeElement).toBe(link('Acme')));

    await user.click(screen.getByRole('checkbox', { name: 'Select Acme' }));
    await user.click(archiveButton());
    expect(await screen.findByRole('heading', { name: 'Add your first client' })).toBeTruthy();
    const newClient = screen
      .getAllByRole('button', { name: 'New client' })
      .find((button) => button.hasAttribute('data-new-client'));
    await waitFor(() => expect(document.activeElement).toBe(newClient));
  });

  it('draws the row focus goes to when it was scrolled out of the drawn range', async () => {
    const db = await createTestDatabase();
    const ctx = { db, userId: USER_ID };
    const all = Array.from({ length: 120 }, (_, i) => `Client ${String(i).padStart(3, '0')}`);
    for (const name of all) await createClient(ctx, { workspaceId: WS, name });
    // jsdom does not scroll: the page's scroll moves as the browser's would, with its event.
    const scrollTo = vi.spyOn(window, 'scrollTo').mockImplementation(((
      options: ScrollToOptions,
    ) => {
      Object.defineProperty(window, 'scrollY', { value: options.top ?? 0, configurable: true });
      window.dispatchEvent(new Event('scroll'));
    }) as typeof window.scrollTo);
    try {
      renderClients(db);
      await waitFor(() => expect(names()[0]).toBe('Client 000'));
      const user = userEvent.setup();
      await user.click(screen.getByRole('checkbox', { name: 'Select Client 000' }));
      // Far down the list: the first rows are no longer drawn, and one there is ticked too.
      window.scrollTo({ top: 100 * 68 });
      await waitFor(() => expect(names()).not.toContain('Client 001'));
      await user.click(await screen.findByRole('checkbox', { name: 'Select Client 100' }));
      await user.click(archiveButton());
      // Focus goes to the row after the first archived one, drawn again for it.
      await waitFor(() => expect(document.activeElement).toBe(link('Client 001')));
    } finally {
      scrollTo.mockRestore();
      Object.defineProperty(window, 'scrollY', { value: 0, configurable: true });
    }
  });

  it('keeps focus on the archived row when archived clients are shown', async () => {
    const db = await createTestDatabase();
    const ctx = { db, userId: USER_ID };
    await createClient(ctx, { workspaceId: WS, name: 'Acme' });
    await createClient(ctx, { workspaceId: WS, name: 'Globex' });
    renderClients(db, { archived: true });
    await waitFor(() => expect(names()).toEqual(['Acme', 'Globex']));

    const user = userEvent.setup();
    await user.click(screen.getByRole('checkbox', { name: 'Select Acme' }));
    await user.click(archiveButton());
    await waitFor(() => expect(link('Acme').textContent).toContain('Archived'));
    await waitFor(() => expect(document.activeElement).toBe(link('Acme')));
  });

  it('puts focus in the search field after "Clear filters"', async () => {
    const db = await createTestDatabase();
    await createClient({ db, userId: USER_ID }, { workspaceId: WS, name: 'Acme' });
    renderClients(db, { q: 'acmezzz' });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(names()).toEqual(['Acme']));
    expect(document.activeElement).toBe(screen.getByRole('searchbox', { name: 'Search clients' }));
  });

  it('moves focus to the first invalid field when "Add client" is refused', async () => {
    const db = await createTestDatabase();
    renderClients(db);
    expect(await screen.findByRole('heading', { name: 'Add your first client' })).toBeTruthy();
    const user = userEvent.setup();
    await user.keyboard('n');
    const dialog = await screen.findByRole('dialog');
    const name = within(dialog).getByRole('textbox', { name: 'Name' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Email' }), 'ada@');
    await user.click(within(dialog).getByRole('button', { name: 'Add client' }));
    expect(await within(dialog).findByText('Name is required')).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(name));
  });
});
