import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '../../data/client-mutations.ts';
import { createProject } from '../../data/project-mutations.ts';
import { noteWrites } from '../../data/project-work.ts';
import type { AppDatabase } from '../../db/app-database.ts';
import {
  createTestDatabase,
  renderWithSync,
  USER_ID,
  WS,
} from '../projects/project-screen-test-utils.tsx';
import { ClientNotes } from './client-notes.tsx';
import { CONFLICT_EARLIER, CONFLICT_END, CONFLICT_LATER, CONFLICT_START } from './note-conflict.ts';
import { NotesTab } from './notes-tab.tsx';

afterEach(cleanup);

async function seed(db: AppDatabase) {
  const ctx = { db, userId: USER_ID };
  const client = await createClient(ctx, { workspaceId: WS, name: 'Acme' });
  const project = await createProject(ctx, {
    workspaceId: WS,
    clientId: client.id,
    name: 'Website',
    startDate: '2026-03-01',
    currency: 'EUR',
  });
  return { ctx, client, project };
}

const outbox = (db: AppDatabase) => db.outbox.toArray();

describe('NotesTab', { timeout: 30_000 }, () => {
  it('teaches when empty, creates a note from "n" and focuses its title', async () => {
    const db = await createTestDatabase();
    const { project } = await seed(db);
    const user = userEvent.setup();
    renderWithSync(<NotesTab project={project} />, db);

    expect(await screen.findByText('No notes for Website yet')).toBeTruthy();
    await user.keyboard('n');

    const title = await screen.findByRole('textbox', { name: 'Title' });
    await waitFor(() => expect(document.activeElement).toBe(title));
    await user.keyboard('Kick-off call');
    await user.tab();
    await waitFor(async () =>
      expect((await db.notes.toArray()).map((note) => note.title)).toEqual(['Kick-off call']),
    );
    const entries = await outbox(db);
    expect(entries.at(-2)).toMatchObject({ operation: 'create-note' });
    expect(entries.at(-1)?.args).toEqual({ title: 'Kick-off call' });
    expect(
      within(screen.getByRole('list', { name: 'Notes for Website' })).getByText('Kick-off call'),
    ).toBeTruthy();
  });

  it('autosaves after a pause as one patch of the body only', async () => {
    const db = await createTestDatabase();
    const { ctx, project } = await seed(db);
    await noteWrites.create(ctx, { workspaceId: WS, projectId: project.id, title: 'Brief' });
    const user = userEvent.setup();
    renderWithSync(<NotesTab project={project} />, db);

    await user.click(await screen.findByRole('button', { name: /Brief/ }));
    const before = (await outbox(db)).length;
    await user.type(screen.getByRole('textbox', { name: 'Note' }), 'Hello world');
    expect(screen.getByText('Saving…')).toBeTruthy();
    expect(await screen.findByText('Saved on this device')).toBeTruthy();

    const entries = (await outbox(db)).slice(before);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ operation: 'update-note' });
    expect(entries[0]?.args).toEqual({ body: 'Hello world' });
  });

  it('formats with the toolbar and Ctrl+B, and keeps a refused title beside its field', async () => {
    const db = await createTestDatabase();
    const { ctx, project } = await seed(db);
    const note = await noteWrites.create(ctx, {
      workspaceId: WS,
      projectId: project.id,
      title: 'Brief',
    });
    const user = userEvent.setup();
    renderWithSync(<NotesTab project={project} />, db);

    await user.click(await screen.findByRole('button', { name: /Brief/ }));
    const body = screen.getByRole('textbox', { name: 'Note' });
    await user.click(screen.getByRole('button', { name: 'Checklist' }));
    await user.keyboard('Call Ana');
    expect(body).toHaveProperty('value', '- [ ] Call Ana');
    await user.keyboard('{Control>}b{/Control}');
    expect(body).toHaveProperty('value', '- [ ] Call Ana**bold text**');

    await user.clear(screen.getByRole('textbox', { name: 'Title' }));
    await user.tab();
    const title = screen.getByRole('textbox', { name: 'Title' });
    await waitFor(() => expect(title.getAttribute('aria-invalid')).toBe('true'));
    // The body still saved; the empty title did not.
    await waitFor(async () =>
      expect(await db.notes.get(note.id)).toMatchObject({
        title: 'Brief',
        body: '- [ ] Call Ana**bold text**',
      }),
    );
  });

  it('drops a refused title error once the stored title is back, with nothing to save', async () => {
    const db = await createTestDatabase();
    const { ctx, project } = await seed(db);
    await noteWrites.create(ctx, { workspaceId: WS, projectId: project.id, title: 'Brief' });
    const user = userEvent.setup();
    renderWithSync(<NotesTab project={project} />, db);

    await user.click(await screen.findByRole('button', { name: /Brief/ }));
    const title = screen.getByRole('textbox', { name: 'Title' });
    await user.clear(title);
    await user.tab();
    await waitFor(() => expect(title.getAttribute('aria-invalid')).toBe('true'));
    expect(await screen.findByText('Not saved: see the message above')).toBeTruthy();

    const before = (await outbox(db)).length;
    await user.type(title, 'Brief');
    await user.tab();
    await waitFor(() => expect(title.getAttribute('aria-invalid')).toBeNull());
    expect(await screen.findByText('Saved on this device')).toBeTruthy();
    expect(await outbox(db)).toHaveLength(before);
  });

  it('keeps a note that is one long URL inside its card (the CSS that wraps or cuts it)', async () => {
    // jsdom does no layout, so this checks the classes that hold a long word in: a column that
    // may shrink below its content (grid-cols-1, min-w-0), a cut-off list line (truncate), and
    // preview text that breaks inside a word (break-words, min-w-0 on flex items).
    const db = await createTestDatabase();
    const { ctx, project } = await seed(db);
    const url = `https://example.com/${'a'.repeat(2000)}`;
    await noteWrites.create(ctx, {
      workspaceId: WS,
      projectId: project.id,
      title: 'Links',
      body: `${url}\n\n- [ ] ${url}`,
    });
    const user = userEvent.setup();
    renderWithSync(<NotesTab project={project} />, db);

    const list = await screen.findByRole('list', { name: 'Notes for Website' });
    const column = list.parentElement!;
    const grid = column.parentElement!;
    expect(grid.classList).toContain('grid-cols-1');
    expect(column.classList).toContain('min-w-0');
    const item = within(list).getByRole('button', { name: /Links/ });
    expect(item.classList).toContain('min-w-0');
    expect(within(item).getByText(url).classList).toContain('truncate');

    await user.click(item);
    const editorColumn = [...grid.children].find((child) => child !== column)!;
    expect(editorColumn.classList).toContain('min-w-0');
    await user.click(screen.getByRole('button', { name: 'Preview' }));
    const preview = screen.getByRole('region', { name: 'Preview' });
    expect(preview.firstElementChild?.classList).toContain('break-words');
    const checkItem = within(preview).getByRole('checkbox', { name: 'Not done' }).parentElement!;
    expect(checkItem.classList).toContain('flex');
    expect(within(checkItem).getByText(url).classList).toContain('min-w-0');
  });

  it('shows the banner for a note edited in two places and highlights both versions', async () => {
    const db = await createTestDatabase();
    const { ctx, project } = await seed(db);
    const body = [
      'Intro',
      CONFLICT_START,
      CONFLICT_EARLIER,
      'Budget is 4k',
      CONFLICT_LATER,
      'Budget is 5k',
      CONFLICT_END,
    ].join('\n');
    await noteWrites.create(ctx, { workspaceId: WS, projectId: project.id, title: 'Brief', body });
    const user = userEvent.setup();
    renderWithSync(<NotesTab project={project} />, db);

    await user.click(await screen.findByRole('button', { name: /Brief/ }));
    expect(
      screen.getByText(
        "This note was edited in two places at once; both versions are kept — remove the one you don't want.",
      ),
    ).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Preview' }));
    const preview = screen.getByRole('region', { name: 'Preview' });
    expect(within(preview).getByRole('region', { name: 'Saved first' }).textContent).toContain(
      'Budget is 4k',
    );
    expect(within(preview).getByRole('region', { name: 'Saved later' }).textContent).toContain(
      'Budget is 5k',
    );
  });

  it('previews Markdown safely: HTML and javascript: links are shown as text', async () => {
    const db = await createTestDatabase();
    const { ctx, project } = await seed(db);
    const body = [
      '# Plan',
      '<script>alert(1)</script> and **bold**',
      '- [x] Done thing',
      '[site](https://example.com) [bad](javascript:alert(1))',
    ].join('\n');
    await noteWrites.create(ctx, { workspaceId: WS, projectId: project.id, title: 'Brief', body });
    const user = userEvent.setup();
    renderWithSync(<NotesTab project={project} />, db);

    await user.click(await screen.findByRole('button', { name: /Brief/ }));
    await user.click(screen.getByRole('button', { name: 'Preview' }));
    const preview = screen.getByRole('region', { name: 'Preview' });
    expect(preview.querySelector('script')).toBeNull();
    expect(
      within(preview).getByText('<script>alert(1)</script> and', { exact: false }),
    ).toBeTruthy();
    expect(within(preview).getByText('bold').tagName).toBe('STRONG');
    expect(within(preview).getByRole('heading', { name: 'Plan' })).toBeTruthy();
    expect(within(preview).getByRole('checkbox', { name: 'Done' })).toHaveProperty('checked', true);
    expect(within(preview).getByRole('link', { name: 'site' }).getAttribute('href')).toBe(
      'https://example.com/',
    );
    expect(within(preview).queryByRole('link', { name: 'bad' })).toBeNull();
    expect(preview.textContent).toContain('[bad](javascript:alert(1))');
  });

  it('pins, deletes with Undo and moves focus to the next note', async () => {
    const db = await createTestDatabase();
    const { ctx, project } = await seed(db);
    await noteWrites.create(ctx, { workspaceId: WS, projectId: project.id, title: 'First' });
    await noteWrites.create(ctx, { workspaceId: WS, projectId: project.id, title: 'Second' });
    const user = userEvent.setup();
    renderWithSync(<NotesTab project={project} />, db);

    await user.click(await screen.findByRole('button', { name: /First/ }));
    await user.click(screen.getByRole('button', { name: 'Pin' }));
    await waitFor(async () =>
      expect((await db.notes.toArray()).find((n) => n.pinned)?.title).toBe('First'),
    );
    await screen.findByRole('button', { name: 'Unpin' });

    await user.click(screen.getByRole('button', { name: 'Delete' }));
    await screen.findByText(/Note “First” deleted/);
    await waitFor(() => expect(document.activeElement?.textContent).toContain('Second'));
    await waitFor(() => expect(screen.queryByRole('button', { name: /First/ })).toBeNull());
    expect(document.activeElement?.textContent).toContain('Second');

    fireEvent.keyDown(document.activeElement ?? document.body, { key: 'z', ctrlKey: true });
    expect(await screen.findByRole('button', { name: /First/ })).toBeTruthy();
  });
});

describe('ClientNotes', { timeout: 30_000 }, () => {
  it('adds a note to a client', async () => {
    const db = await createTestDatabase();
    const { client } = await seed(db);
    const user = userEvent.setup();
    renderWithSync(<ClientNotes client={client} />, db);

    await user.click(await screen.findByRole('button', { name: 'New note' }));
    await user.type(await screen.findByRole('textbox', { name: 'Note' }), 'Prefers calls');
    await user.click(screen.getByRole('button', { name: 'All notes' }));
    await waitFor(async () =>
      expect(await db.clientNotes.toArray()).toMatchObject([
        { clientId: client.id, title: 'Untitled note', body: 'Prefers calls' },
      ]),
    );
  });
});
