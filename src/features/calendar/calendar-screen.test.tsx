import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { orderKeyBetween } from '#contract/entities/order-key.ts';
import type { AppDatabase } from '../../db/app-database.ts';
import { createCalendarEvent } from '../../data/calendar.ts';
import { createClient } from '../../data/client-mutations.ts';
import { createProject } from '../../data/project-mutations.ts';
import { addTask, columnWrites, milestoneWrites } from '../../data/project-work.ts';
import {
  expectAccessible,
  createTestDatabase,
  renderWithSync,
  USER_ID,
  WS,
} from '../projects/project-screen-test-utils.tsx';
import { CalendarScreen } from './calendar-screen.tsx';
import type { CalendarSearch } from './calendar-search.ts';
import { DRAG_TYPE } from './calendar-item-chip.tsx';
import CalendarTab from './calendar-tab.tsx';
import { WorkspaceGate } from '../workspace/workspace-gate.tsx';

afterEach(cleanup);

function renderScreen(db: AppDatabase, initial: CalendarSearch = { date: '2026-03-01' }) {
  const searches: CalendarSearch[] = [];
  function Harness() {
    const [search, setSearch] = useState(initial);
    return (
      <CalendarScreen
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

async function seed(db: AppDatabase, timeZone = 'UTC') {
  await db.workspaces.update(WS, { timeZone });
  const ctx = { db, userId: USER_ID };
  const client = await createClient(ctx, { workspaceId: WS, name: 'Acme' });
  const project = await createProject(ctx, {
    workspaceId: WS,
    clientId: client.id,
    name: 'Website',
    startDate: '2026-03-02',
    dueDate: '2026-03-27',
  });
  const milestone = await milestoneWrites.create(ctx, {
    workspaceId: WS,
    projectId: project.id,
    title: 'Design review',
    dueDate: '2026-03-10',
    position: orderKeyBetween(null, null),
  });
  const column = await columnWrites.create(ctx, {
    workspaceId: WS,
    projectId: project.id,
    name: 'To do',
    position: orderKeyBetween(null, null),
  });
  const task = await addTask(
    ctx,
    {
      workspaceId: WS,
      projectId: project.id,
      columnId: column.id,
      title: 'Write copy',
      dueDate: '2026-03-12',
    },
    [],
  );
  return { ctx, project, milestone, task };
}

const lastEntry = async (db: AppDatabase) => (await db.outbox.toArray()).at(-1);
const cell = (day: string) => document.querySelector<HTMLElement>(`td[data-day="${day}"]`);
const findCell = (day: string) =>
  waitFor(() => {
    const found = cell(day);
    if (!found) throw new Error(`No cell for ${day} yet`);
    return found;
  });

describe('CalendarScreen', { timeout: 60_000 }, () => {
  it('starts at the heading, says when there is nothing yet, and is accessible', async () => {
    const db = await createTestDatabase();
    renderScreen(db);
    const heading = screen.getByRole('heading', { level: 1, name: 'Calendar' });
    expect(document.activeElement).toBe(heading);
    expect(await screen.findByText('Nothing on the calendar yet')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 2, name: 'March 2026' })).toBeTruthy();
    // en-US weeks start on Sunday.
    const headers = screen.getAllByRole('columnheader').map((th) => th.textContent);
    expect(headers[0]).toBe('Sun');
    await expectAccessible();
  });

  it('places milestones, tasks, project dates and events on their days, in the workspace zone', async () => {
    const db = await createTestDatabase();
    const { ctx, project } = await seed(db, 'Pacific/Auckland');
    // 20:00 UTC on 2 March is 09:00 on 3 March in Auckland (UTC+13 in March).
    await createCalendarEvent(ctx, {
      workspaceId: WS,
      title: 'Kick-off call',
      start: '2026-03-02T20:00:00Z',
      end: '2026-03-02T21:00:00Z',
      projectId: project.id,
    });
    renderScreen(db);
    await waitFor(() =>
      expect(within(cell('2026-03-10')!).getByText('Design review')).toBeTruthy(),
    );
    expect(within(cell('2026-03-12')!).getByText('Write copy')).toBeTruthy();
    expect(within(cell('2026-03-02')!).getByText('Website')).toBeTruthy();
    expect(within(cell('2026-03-27')!).getByText('Website')).toBeTruthy();
    const kickOff = within(cell('2026-03-03')!).getByRole('button', { name: /Kick-off call/ });
    expect(kickOff.textContent).toContain('9:00');
    expect(within(cell('2026-03-02')!).queryByText('Kick-off call')).toBeNull();
    await expectAccessible();
  });

  it('moves a milestone with Move to date: the same patch as its edit dialog', async () => {
    const db = await createTestDatabase();
    const { milestone } = await seed(db);
    renderScreen(db);
    const user = userEvent.setup();
    await user.click(
      await within(await findCell('2026-03-10')).findByRole('button', {
        name: /Milestone: Design review/,
      }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Design review' });
    const field = within(dialog).getByLabelText('Move to date');
    await user.clear(field);
    await user.type(field, '2026-03-17');
    await expectAccessible();
    await user.click(within(dialog).getByRole('button', { name: 'Move' }));
    await waitFor(async () =>
      expect(await lastEntry(db)).toMatchObject({
        operation: 'update-milestone',
        entityId: milestone.id,
        args: { dueDate: '2026-03-17' },
      }),
    );
    await waitFor(() =>
      expect(within(cell('2026-03-17')!).getByText('Design review')).toBeTruthy(),
    );
  });

  it('moves a task dragged to another day', async () => {
    const db = await createTestDatabase();
    const { task } = await seed(db);
    renderScreen(db);
    const chip = await within(await findCell('2026-03-12')).findByRole('button', {
      name: /Write copy/,
    });
    const store = new Map<string, string>();
    const dataTransfer = {
      setData: (type: string, value: string) => store.set(type, value),
      getData: (type: string) => store.get(type) ?? '',
      get types() {
        return [...store.keys()];
      },
      effectAllowed: 'all',
      dropEffect: 'none',
    };
    fireEvent.dragStart(chip, { dataTransfer });
    expect(JSON.parse(store.get(DRAG_TYPE) ?? '{}')).toMatchObject({ from: '2026-03-12' });
    fireEvent.dragOver(cell('2026-03-19')!, { dataTransfer });
    fireEvent.drop(cell('2026-03-19')!, { dataTransfer });
    await waitFor(async () =>
      expect(await lastEntry(db)).toMatchObject({
        operation: 'update-task',
        entityId: task.id,
        args: { dueDate: '2026-03-19' },
      }),
    );
    expect(await screen.findByText(/“Write copy” moved to Thursday, March 19/)).toBeTruthy();
  });

  it('moves a task with Alt and the arrow keys, focus following it, the view following a move past its edge', async () => {
    const db = await createTestDatabase();
    const { task } = await seed(db);
    const { searches } = renderScreen(db);
    const chip = await within(await findCell('2026-03-12')).findByRole('button', {
      name: /Write copy/,
    });
    expect(chip.getAttribute('aria-keyshortcuts')).toContain('Alt+ArrowRight');
    chip.focus();
    const user = userEvent.setup();
    await user.keyboard('{Alt>}{ArrowRight}{/Alt}');
    await waitFor(async () =>
      expect(await lastEntry(db)).toMatchObject({
        operation: 'update-task',
        entityId: task.id,
        args: { dueDate: '2026-03-13' },
      }),
    );
    const moved = await within(await findCell('2026-03-13')).findByRole('button', {
      name: /Write copy/,
    });
    await waitFor(() => expect(document.activeElement).toBe(moved));
    expect(await screen.findByText(/“Write copy” moved to Friday, March 13/)).toBeTruthy();
    // A plain arrow (no Alt) moves nothing.
    await user.keyboard('{ArrowDown}');
    expect(await lastEntry(db)).toMatchObject({ args: { dueDate: '2026-03-13' } });
    // Down a week at a time until the item leaves March's grid: the view follows it.
    await user.keyboard('{Alt>}{ArrowDown}{/Alt}');
    await waitFor(async () =>
      expect(await lastEntry(db)).toMatchObject({ args: { dueDate: '2026-03-20' } }),
    );
    // On the chip in its new cell (the old one may still hold focus for a render).
    await waitFor(() => expect(document.activeElement?.id).toBe(`cal-task-${task.id}-2026-03-20`));
    await user.keyboard('{Alt>}{ArrowDown}{/Alt}');
    await waitFor(async () =>
      expect(await lastEntry(db)).toMatchObject({ args: { dueDate: '2026-03-27' } }),
    );
    // On the chip in its new cell (the old one may still hold focus for a render).
    await waitFor(() => expect(document.activeElement?.id).toBe(`cal-task-${task.id}-2026-03-27`));
    await user.keyboard('{Alt>}{ArrowDown}{/Alt}');
    await waitFor(async () =>
      expect(await lastEntry(db)).toMatchObject({ args: { dueDate: '2026-04-03' } }),
    );
    // April 3 is still in March's grid (its last row); April 10 is not.
    expect(searches).toEqual([]);
    await waitFor(() => expect(document.activeElement?.id).toBe(`cal-task-${task.id}-2026-04-03`));
    await user.keyboard('{Alt>}{ArrowDown}{/Alt}');
    await waitFor(async () =>
      expect(await lastEntry(db)).toMatchObject({ args: { dueDate: '2026-04-10' } }),
    );
    await waitFor(() => expect(searches.at(-1)).toMatchObject({ date: '2026-04-10' }));
    await waitFor(() => expect(document.activeElement?.id).toBe(`cal-task-${task.id}-2026-04-10`));
  });

  it('adds an event in the dialog, refusing an end before the start beside the end', async () => {
    const db = await createTestDatabase();
    await seed(db, 'Europe/Paris');
    renderScreen(db);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'New event' }));
    const dialog = await screen.findByRole('dialog', { name: 'New event' });
    await user.type(within(dialog).getByLabelText('Title'), 'Workshop');
    const startDate = within(dialog).getByLabelText('Starts');
    await user.clear(startDate);
    await user.type(startDate, '2026-03-05');
    const endTime = within(dialog).getByLabelText('End time');
    await user.clear(endTime);
    await user.type(endTime, '08:00');
    const before = await db.outbox.count();
    await user.click(within(dialog).getByRole('button', { name: 'Add event' }));
    expect(await within(dialog).findByText('The event must not end before it starts')).toBeTruthy();
    expect(await db.outbox.count()).toBe(before);
    await expectAccessible();

    await user.clear(endTime);
    await user.type(endTime, '11:30');
    await user.click(within(dialog).getByRole('button', { name: 'Add event' }));
    await waitFor(async () =>
      expect(await lastEntry(db)).toMatchObject({
        operation: 'create-calendar-event',
        resource: 'calendar',
        // 09:00 in Paris in March is 08:00 UTC.
        args: {
          title: 'Workshop',
          start: '2026-03-05T08:00:00.000Z',
          end: '2026-03-05T10:30:00.000Z',
        },
      }),
    );
    await waitFor(() => expect(within(cell('2026-03-05')!).getByText('Workshop')).toBeTruthy());
  });

  it('moves focus to the Title field when an empty event is refused', async () => {
    const db = await createTestDatabase();
    await db.workspaces.update(WS, { timeZone: 'UTC' });
    renderScreen(db);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'New event' }));
    const dialog = await screen.findByRole('dialog', { name: 'New event' });
    const add = within(dialog).getByRole('button', { name: 'Add event' });
    const before = await db.outbox.count();
    await user.click(add);
    expect(await within(dialog).findByText('Title is required')).toBeTruthy();
    const title = within(dialog).getByLabelText('Title');
    await waitFor(() => expect(document.activeElement).toBe(title));
    expect(title.getAttribute('aria-invalid')).toBe('true');
    expect(await db.outbox.count()).toBe(before);
  });

  it('gives the chosen day’s chips in the list under the month ids of their own', async () => {
    const db = await createTestDatabase();
    await db.workspaces.update(WS, { timeZone: 'UTC' });
    const ctx = { db, userId: USER_ID };
    await createCalendarEvent(ctx, {
      workspaceId: WS,
      title: 'Kickoff',
      start: '2026-03-01',
      end: '2026-03-01',
    });
    // The month's first day is the chosen one (today is not in March 2026).
    renderScreen(db);
    // In its cell, and again in the chosen day's list under the grid.
    await waitFor(() => expect(screen.getAllByRole('button', { name: /Kickoff/ })).toHaveLength(2));
    const ids = [...document.querySelectorAll('[id]')].map((element) => element.id);
    expect(ids.filter((id, index) => ids.indexOf(id) !== index)).toEqual([]);
  });

  it('after deleting an event, focus goes to the next event, else the one before, else New event', async () => {
    const db = await createTestDatabase();
    await db.workspaces.update(WS, { timeZone: 'UTC' });
    const ctx = { db, userId: USER_ID };
    const add = (title: string, day: string) =>
      createCalendarEvent(ctx, { workspaceId: WS, title, start: day, end: day });
    const alpha = await add('Alpha', '2026-03-05');
    const beta = await add('Beta', '2026-03-06');
    const gamma = await add('Gamma', '2026-03-07');
    renderScreen(db);
    const user = userEvent.setup();
    const chipOf = (id: string, day: string) => document.getElementById(`cal-event-${id}-${day}`);
    const remove = async (name: string, id: string, day: string) => {
      await user.click(
        await within(await findCell(day)).findByRole('button', { name: new RegExp(name) }),
      );
      const dialog = await screen.findByRole('dialog', { name: 'Edit event' });
      await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
      expect(await screen.findByText(new RegExp(`Event “${name}” deleted`))).toBeTruthy();
      await waitFor(() => expect(chipOf(id, day)).toBeNull());
    };

    // Focus stays there once the dialog is gone and the deleted chip has left the grid.
    await remove('Beta', beta.id, '2026-03-06');
    await waitFor(() => expect(document.activeElement).toBe(chipOf(gamma.id, '2026-03-07')));

    // The last one: the one before.
    await remove('Gamma', gamma.id, '2026-03-07');
    await waitFor(() => expect(document.activeElement).toBe(chipOf(alpha.id, '2026-03-05')));

    // None left: "New event".
    await remove('Alpha', alpha.id, '2026-03-05');
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('button', { name: 'New event' })),
    );
    expect(document.activeElement).not.toBe(document.body);
  });

  it('shows the week and the agenda, and their empty states', async () => {
    const db = await createTestDatabase();
    await seed(db);
    const { searches } = renderScreen(db, { date: '2026-03-09' });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('radio', { name: 'Week' }));
    expect(searches.at(-1)).toEqual({ view: 'week', date: '2026-03-09' });
    const week = await screen.findByRole('list', { name: /Week of/ });
    expect(within(week).getAllByRole('heading', { level: 3 })).toHaveLength(7);
    expect(within(week).getByText('Design review')).toBeTruthy();
    await expectAccessible();

    await user.click(screen.getByRole('radio', { name: 'Agenda' }));
    const agenda = await screen.findByRole('list', { name: 'Agenda' });
    expect(within(agenda).getByText('Design review')).toBeTruthy();
    expect(within(agenda).getByText('Write copy')).toBeTruthy();
    await expectAccessible();
    await user.click(screen.getByRole('button', { name: 'Next weeks' }));
    expect(await screen.findByText(/Nothing scheduled from/)).toBeTruthy();
  });
});

describe('CalendarTab', { timeout: 60_000 }, () => {
  it("shows only its project's things", async () => {
    const db = await createTestDatabase();
    const { ctx, project } = await seed(db);
    const other = await createProject(ctx, {
      workspaceId: WS,
      clientId: project.clientId,
      name: 'Shop',
      dueDate: '2026-03-10',
    });
    await createCalendarEvent(ctx, {
      workspaceId: WS,
      title: 'Unlinked',
      start: '2026-03-10',
      end: '2026-03-10',
    });
    await db.workspaces.update(WS, { timeZone: 'UTC' });
    await createCalendarEvent(ctx, {
      workspaceId: WS,
      title: 'Site visit',
      start: '2026-03-11',
      end: '2026-03-11',
      projectId: project.id,
    });
    renderWithSync(
      <WorkspaceGate>
        <CalendarTab project={project} initialDay="2026-03-01" />
      </WorkspaceGate>,
      db,
    );
    expect(await screen.findByRole('heading', { level: 2, name: 'March 2026' })).toBeTruthy();
    await waitFor(() => expect(within(cell('2026-03-11')!).getByText('Site visit')).toBeTruthy());
    expect(within(cell('2026-03-10')!).getByText('Design review')).toBeTruthy();
    expect(other.name).toBe('Shop');
    expect(screen.queryByText('Unlinked')).toBeNull();
    expect(screen.queryByText('Shop')).toBeNull();
    await expectAccessible();
  });
});
