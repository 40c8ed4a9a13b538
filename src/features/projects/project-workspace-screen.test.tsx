import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AppDatabase } from '../../db/app-database.ts';
import { createClient } from '../../data/client-mutations.ts';
import { createTestDatabase, renderWithSync, USER_ID, WS } from './project-screen-test-utils.tsx';
import { createProject } from '../../data/project-mutations.ts';
import {
  ProjectWorkspaceScreen,
  type ProjectWorkspaceScreenProps,
} from './project-workspace-screen.tsx';

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
  return { client, project };
}

function renderWorkspace(
  db: AppDatabase,
  props: Partial<ProjectWorkspaceScreenProps> & { projectId: string; clientId: string },
) {
  const handlers = {
    onTabChange: vi.fn(),
    onClientMismatch: vi.fn(),
    onDeleted: vi.fn(),
  };
  renderWithSync(<ProjectWorkspaceScreen tab="overview" {...handlers} {...props} />, db);
  return handlers;
}

const lastOutboxEntry = async (db: AppDatabase) => (await db.outbox.toArray()).at(-1);

describe('ProjectWorkspaceScreen', { timeout: 30_000 }, () => {
  it('shows the header and saves an edited name as a patch of that field only', async () => {
    const db = await createTestDatabase();
    const { client, project } = await seed(db);
    const user = userEvent.setup();
    renderWorkspace(db, { projectId: project.id, clientId: client.id });

    expect(await screen.findByRole('heading', { level: 1, name: 'Website' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Acme' }).getAttribute('href')).toBe(
      `/clients/${client.id}`,
    );
    await waitFor(() => expect(document.title).toBe('Website — Satchel'));

    const name = screen.getByRole('textbox', { name: 'Name' });
    await user.clear(name);
    await user.type(name, 'Website relaunch{Enter}');
    expect(await screen.findByRole('heading', { level: 1, name: 'Website relaunch' })).toBeTruthy();
    expect(await lastOutboxEntry(db)).toMatchObject({
      operation: 'update-project',
      args: { name: 'Website relaunch' },
    });
    expect(Object.keys((await lastOutboxEntry(db))?.args ?? {})).toEqual(['name']);
  });

  it('keeps a refused change and shows the reason beside the field', async () => {
    const db = await createTestDatabase();
    const { client, project } = await seed(db);
    renderWorkspace(db, { projectId: project.id, clientId: client.id });

    const due = await screen.findByLabelText('Due date');
    fireEvent.change(due, { target: { value: '2026-02-01' } });
    fireEvent.blur(due);
    expect(await screen.findByText('The due date must not be before the start date')).toBeTruthy();
    expect(due.getAttribute('aria-invalid')).toBe('true');
    expect(due).toHaveProperty('value', '2026-02-01');
    expect((await db.projects.get(project.id))?.dueDate).toBeNull();

    const budget = screen.getByLabelText('Budget');
    fireEvent.change(budget, { target: { value: '1,500.5' } });
    fireEvent.blur(budget);
    await waitFor(async () => expect((await db.projects.get(project.id))?.budget).toBe('1500.5'));
  });

  it('changes the status from the overview and archives and restores', async () => {
    const db = await createTestDatabase();
    const { client, project } = await seed(db);
    const user = userEvent.setup();
    renderWorkspace(db, { projectId: project.id, clientId: client.id });

    await user.click(await screen.findByRole('button', { name: /Status/ }));
    await user.click(await screen.findByRole('option', { name: 'Active' }));
    await waitFor(async () => expect((await db.projects.get(project.id))?.status).toBe('active'));

    await user.click(screen.getByRole('button', { name: 'Archive project' }));
    expect(await screen.findByRole('button', { name: 'Restore from archive' })).toBeTruthy();
    expect((await db.projects.get(project.id))?.archived).toBe(true);
  });

  it('deletes after confirming', async () => {
    const db = await createTestDatabase();
    const { client, project } = await seed(db);
    const user = userEvent.setup();
    const { onDeleted } = renderWorkspace(db, { projectId: project.id, clientId: client.id });

    await user.click(await screen.findByRole('button', { name: 'Delete project' }));
    const dialog = await screen.findByRole('alertdialog');
    await user.click(within(dialog).getByRole('button', { name: 'Delete project' }));
    await waitFor(() => expect(onDeleted).toHaveBeenCalled());
    expect((await db.projects.get(project.id))?._deleted).toBe(true);
  });

  it('corrects a URL naming the wrong client, and says when the project is not here', async () => {
    const db = await createTestDatabase();
    const { client, project } = await seed(db);
    const { onClientMismatch } = renderWorkspace(db, {
      projectId: project.id,
      clientId: 'someone-else',
    });
    await waitFor(() => expect(onClientMismatch).toHaveBeenCalledWith(client.id));
    cleanup();

    renderWorkspace(db, { projectId: 'no-such-project', clientId: client.id });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Project not found' }),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to projects' })).toBeTruthy();
  });

  it('opens the Files and Chat tabs (neither says coming soon), the chat tab counting unread messages', async () => {
    const db = await createTestDatabase();
    const { client, project } = await seed(db);
    renderWorkspace(db, { projectId: project.id, clientId: client.id, tab: 'files' });
    expect(await screen.findByRole('tab', { name: 'Files', selected: true })).toBeTruthy();
    expect(await screen.findByRole('button', { name: 'Upload files' })).toBeTruthy();
    expect(screen.queryByText('Coming soon')).toBeNull();
    cleanup();

    await db.chatMessages.put({
      id: '0190a000-0000-7000-8000-0000000000c1',
      workspaceId: project.workspaceId,
      projectId: project.id,
      text: 'Hello from Bob',
      mentions: [],
      replyToId: null,
      attachmentFileIds: [],
      deleted: false,
      seq: 12,
      editedAt: null,
      authorKind: 'member',
      authorName: '',
      createdAt: '2026-01-02T00:00:00.000Z',
      createdBy: 'someone-else',
      updatedAt: '2026-01-02T00:00:00.000Z',
      updatedBy: 'someone-else',
      version: 12,
      _v: 12,
      _pending: 0,
      _deleted: false,
      _base: {},
    });
    renderWorkspace(db, { projectId: project.id, clientId: client.id, tab: 'overview' });
    await screen.findByRole('tab', { name: 'Overview', selected: true });
    expect(await screen.findByRole('tab', { name: /^Chat\s*1\s*unread$/ })).toBeTruthy();
    cleanup();
    renderWorkspace(db, { projectId: project.id, clientId: client.id, tab: 'chat' });
    expect(await screen.findByText('Hello from Bob')).toBeTruthy();
    expect(screen.queryByText(/coming soon|arrives with/i)).toBeNull();
  });

  it('names the colour beside the title, and shows no swatch when there is no colour', async () => {
    const db = await createTestDatabase();
    const { client, project } = await seed(db);
    const user = userEvent.setup();
    renderWorkspace(db, { projectId: project.id, clientId: client.id });
    const title = await screen.findByRole('heading', { level: 1, name: 'Website' });
    const header = title.closest('header')!;
    // No colour: nothing beside the title that could read as an empty checkbox.
    expect(within(header).queryByRole('img')).toBeNull();
    expect(header.querySelector('[style*="background"]')).toBeNull();

    await user.click(screen.getByRole('radio', { name: 'Teal' }));
    expect(await within(header).findByRole('img', { name: 'Colour: Teal' })).toBeTruthy();
    await user.click(screen.getByRole('radio', { name: 'No colour' }));
    await waitFor(() => expect(within(header).queryByRole('img')).toBeNull());
  });
});
