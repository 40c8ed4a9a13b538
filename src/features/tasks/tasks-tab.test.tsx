import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { AppDatabase } from '../../db/app-database.ts';
import { createClient } from '../../data/client-mutations.ts';
import { createProject } from '../../data/project-mutations.ts';
import { addDefaultColumns, addTask, listTasks, taskWrites } from '../../data/project-work.ts';
import {
  createTestDatabase,
  renderWithSync,
  USER_ID,
  WS,
} from '../projects/project-screen-test-utils.tsx';
import { localToday } from '../projects/project-format.ts';
import { TasksTab } from './tasks-tab.tsx';

afterEach(cleanup);

async function seed(db: AppDatabase, withColumns = true) {
  const ctx = { db, userId: USER_ID };
  const client = await createClient(ctx, { workspaceId: WS, name: 'Acme' });
  const project = await createProject(ctx, { workspaceId: WS, clientId: client.id, name: 'Site' });
  const columns = withColumns ? await addDefaultColumns(ctx, project) : [];
  return { ctx, project, columns };
}

const cardTitles = (columnName: string) =>
  within(screen.getByRole('grid', { name: columnName }))
    .queryAllByRole('row')
    .map((row) => row.querySelector('[data-task-id] span')?.textContent);

async function tasksIn(db: AppDatabase, projectId: string, columnId: string) {
  return (await listTasks(db, WS, projectId))
    .filter((task) => task.columnId === columnId)
    .map((task) => task.title);
}

describe('TasksTab', { timeout: 30_000 }, () => {
  it('sets up the board of a project without columns', async () => {
    const db = await createTestDatabase();
    const { project } = await seed(db, false);
    const user = userEvent.setup();
    renderWithSync(<TasksTab project={project} />, db);
    await user.click(await screen.findByRole('button', { name: 'Set up the board' }));
    expect(await screen.findByRole('grid', { name: 'To do' })).toBeTruthy();
    expect(await screen.findByRole('grid', { name: 'Done' })).toBeTruthy();
  });

  it('fits four columns and the add-column form on a board at 1280px (xl), scrolling past that', async () => {
    const db = await createTestDatabase();
    const { project } = await seed(db);
    renderWithSync(<TasksTab project={project} />, db);
    await screen.findByRole('grid', { name: 'Done' });
    const board = screen.getByRole('group', { name: 'Task board' });
    // jsdom draws nothing: the classes are the layout. At 1280px the board has 992px: four
    // columns sharing the row (at least 12rem each), the 10rem form and four 0.75rem gaps fit.
    expect(board.className).toContain('overflow-x-auto');
    expect(board.className).toContain('gap-3');
    const columns = [...board.querySelectorAll<HTMLElement>('section[data-column-id]')];
    expect(columns).toHaveLength(4);
    for (const column of columns) {
      expect(column.className.split(' ')).toEqual(
        expect.arrayContaining(['xl:grow', 'xl:basis-0', 'xl:min-w-48', 'max-w-72', 'snap-start']),
      );
      expect(column.className).not.toContain('xl:w-58');
    }
    const form = screen.getByRole('form', { name: 'Add a column' });
    expect(form.className.split(' ')).toEqual(expect.arrayContaining(['xl:w-40', 'snap-start']));
    expect(form.className).not.toContain('xl:w-58');
    // Narrow, the input goes over the button rather than being squeezed beside it.
    const input = screen.getByRole('textbox', { name: 'New column name' });
    expect(input.parentElement?.parentElement?.className).toContain('xl:flex-col');
    const rem = 16;
    const xlRow = 4 * 12 * rem + 10 * rem + 4 * 0.75 * rem;
    expect(xlRow).toBeLessThanOrEqual(1280 - 15 * rem - 3 * rem);
  });

  it('scrolls the board so a column or the add-column form getting focus shows whole', async () => {
    const db = await createTestDatabase();
    const { project } = await seed(db);
    renderWithSync(<TasksTab project={project} />, db);
    await screen.findByRole('grid', { name: 'Done' });
    const board = screen.getByRole('group', { name: 'Task board' });
    const form = screen.getByRole('form', { name: 'Add a column' });
    // As measured at 1280px before the columns shared the row: the form cut at the board's edge.
    const rect = (left: number, right: number) =>
      ({ left, right, top: 0, bottom: 100, width: right - left, height: 100 }) as DOMRect;
    board.getBoundingClientRect = () => rect(240, 1280);
    board.style.scrollPaddingLeft = '24px';
    board.style.scrollPaddingRight = '24px';
    form.getBoundingClientRect = () => rect(1240 - board.scrollLeft, 1472 - board.scrollLeft);
    screen.getByRole('textbox', { name: 'New column name' }).focus();
    // Its start at the board's scroll padding: 1240 - 240 - 24.
    expect(board.scrollLeft).toBe(976);
    // Already whole in view: nothing moves.
    screen.getByRole('button', { name: 'Add column' }).focus();
    expect(board.scrollLeft).toBe(976);
  });

  it('quick-adds tasks with Enter, staying open for the next, from the "n" shortcut', async () => {
    const db = await createTestDatabase();
    const { project, columns } = await seed(db);
    const user = userEvent.setup();
    renderWithSync(<TasksTab project={project} />, db);
    await screen.findByRole('grid', { name: 'To do' });

    await user.keyboard('n');
    const input = screen.getByRole('textbox', { name: 'Add a task to To do' });
    expect(document.activeElement).toBe(input);
    await user.keyboard('Wireframes{Enter}');
    await waitFor(() => expect(cardTitles('To do')).toEqual(['Wireframes']));
    expect(document.activeElement).toBe(input);
    expect((input as HTMLInputElement).value).toBe('');
    await user.keyboard('Copy deck{Enter}');
    await waitFor(() => expect(cardTitles('To do')).toEqual(['Wireframes', 'Copy deck']));
    expect(await tasksIn(db, project.id, columns[0]!.id)).toEqual(['Wireframes', 'Copy deck']);

    // An empty title is not added; a too long one says why.
    await user.type(input, `${'x'.repeat(300)}{Enter}`);
    expect(await screen.findByRole('alert')).toBeTruthy();
  });

  it('moves a card with the keyboard through its "Move to…" menu, keeping focus on it', async () => {
    const db = await createTestDatabase();
    const { ctx, project, columns } = await seed(db);
    const [firstColumn, doing] = columns;
    const input = { workspaceId: WS, projectId: project.id };
    const a = await addTask(ctx, { ...input, columnId: firstColumn!.id, title: 'Alpha' }, []);
    await addTask(ctx, { ...input, columnId: firstColumn!.id, title: 'Beta' }, [a]);
    const c = await addTask(ctx, { ...input, columnId: doing!.id, title: 'Gamma' }, []);
    await addTask(ctx, { ...input, columnId: doing!.id, title: 'Delta' }, [c]);
    const user = userEvent.setup();
    renderWithSync(<TasksTab project={project} />, db);
    await waitFor(() => expect(cardTitles('To do')).toEqual(['Alpha', 'Beta']));

    // Keyboard: to the card, then Tab through its controls to "Move to…".
    const moveButton = screen.getByRole('button', { name: 'Move Beta to…' });
    moveButton.closest<HTMLElement>('[role="row"]')!.focus();
    while (document.activeElement !== moveButton) await user.tab();
    await user.keyboard('{Enter}');
    const menu = await screen.findByRole('menu', { name: /Move Beta to/ });
    const target = within(menu).getByRole('menuitem', { name: 'Top of In progress' });
    while (document.activeElement !== target) await user.keyboard('{ArrowDown}');
    await user.keyboard('{Enter}');

    await waitFor(() => expect(cardTitles('In progress')).toEqual(['Beta', 'Gamma', 'Delta']));
    expect(cardTitles('To do')).toEqual(['Alpha']);
    expect(await tasksIn(db, project.id, doing!.id)).toEqual(['Beta', 'Gamma', 'Delta']);
    // The write and the re-render come first; a busy machine takes more than waitFor's 1 s.
    await waitFor(
      () =>
        expect(document.activeElement?.querySelector('[data-task-id]')?.textContent).toContain(
          'Beta',
        ),
      { timeout: 5_000 },
    );

    // Bottom of its own column: the order changes, the column does not.
    await user.click(screen.getByRole('button', { name: 'Move Beta to…' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Bottom of In progress' }));
    await waitFor(() => expect(cardTitles('In progress')).toEqual(['Gamma', 'Delta', 'Beta']));
  });

  it('filters by assignee, label and due date', async () => {
    const db = await createTestDatabase();
    const { ctx, project, columns } = await seed(db);
    await db.members.put({
      workspaceId: WS,
      id: '0190a000-0000-7000-8000-0000000000aa',
      email: 'ana@example.com',
      firstName: 'Ana',
      lastName: 'Lima',
      profilePictureUrl: null,
      role: 'owner',
      joinedAt: '2026-01-01T00:00:00.000Z',
    });
    const base = { workspaceId: WS, projectId: project.id, columnId: columns[0]!.id };
    const today = localToday();
    const a = await addTask(ctx, { ...base, title: 'Overdue one', dueDate: '2000-01-01' }, []);
    const b = await addTask(
      ctx,
      { ...base, title: 'Ana’s task', assigneeId: '0190a000-0000-7000-8000-0000000000aa' },
      [a],
    );
    const c = await addTask(ctx, { ...base, title: 'Today', dueDate: today, labels: ['design'] }, [
      b,
    ]);
    await taskWrites.update(ctx, c.id, { labels: ['design', 'client'] });
    const user = userEvent.setup();
    renderWithSync(<TasksTab project={project} />, db);
    await waitFor(() =>
      expect(cardTitles('To do')).toEqual(['Overdue one', 'Ana’s task', 'Today']),
    );

    const choose = async (field: string, option: string) => {
      await user.click(screen.getByRole('button', { name: new RegExp(`${field}$`) }));
      await user.click(await screen.findByRole('option', { name: option }));
    };
    await choose('Assignee', 'Ana Lima');
    await waitFor(() => expect(cardTitles('To do')).toEqual(['Ana’s task']));
    await choose('Assignee', 'Unassigned');
    await waitFor(() => expect(cardTitles('To do')).toEqual(['Overdue one', 'Today']));
    await choose('Assignee', 'Anyone');
    await choose('Label', 'design');
    await waitFor(() => expect(cardTitles('To do')).toEqual(['Today']));
    await choose('Label', 'Any label');
    await choose('Due', 'Overdue');
    await waitFor(() => expect(cardTitles('To do')).toEqual(['Overdue one']));
    await choose('Due', 'Due this week');
    await waitFor(() => expect(cardTitles('To do')).toEqual(['Today']));
    await choose('Due', 'No due date');
    await waitFor(() => expect(cardTitles('To do')).toEqual(['Ana’s task']));
    expect(screen.getByText('1 of 3')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(cardTitles('To do')).toHaveLength(3));
  });

  it('explains instead of deleting a column with tasks, and deletes an empty one', async () => {
    const db = await createTestDatabase();
    const { ctx, project, columns } = await seed(db);
    await addTask(
      ctx,
      { workspaceId: WS, projectId: project.id, columnId: columns[0]!.id, title: 'Keep me' },
      [],
    );
    const user = userEvent.setup();
    renderWithSync(<TasksTab project={project} />, db);
    await user.click(await screen.findByRole('button', { name: 'Column options: To do' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Delete column…' }));
    expect(
      await screen.findByRole('alertdialog', { name: '“To do” still has tasks' }),
    ).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'OK' }));

    await user.click(screen.getByRole('button', { name: 'Column options: Review' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Delete column…' }));
    await user.click(await screen.findByRole('button', { name: 'Delete column' }));
    await waitFor(() => expect(screen.queryByRole('grid', { name: 'Review' })).toBeNull());
  });
});
