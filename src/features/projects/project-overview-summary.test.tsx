import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '../../data/client-mutations.ts';
import { createProject } from '../../data/project-mutations.ts';
import { addDefaultColumns, addTask, milestoneWrites } from '../../data/project-work.ts';
import { orderKeyBetween } from '#contract/entities/order-key.ts';
import { createTestDatabase, renderWithSync, USER_ID, WS } from './project-screen-test-utils.tsx';
import { ProjectOverviewSummary } from './project-overview-summary.tsx';

afterEach(cleanup);

describe('ProjectOverviewSummary', { timeout: 30_000 }, () => {
  it('shows progress from milestones, what is due next with overdue marked, and open tasks', async () => {
    const db = await createTestDatabase();
    const ctx = { db, userId: USER_ID };
    const client = await createClient(ctx, { workspaceId: WS, name: 'Acme' });
    const project = await createProject(ctx, {
      workspaceId: WS,
      clientId: client.id,
      name: 'Website',
    });
    let position: string | null = null;
    for (const [title, status, dueDate] of [
      ['Brief', 'approved', '2020-01-01'],
      ['Design', 'approved', null],
      ['Build', 'in_progress', '2020-02-01'],
      ['Test', 'planned', '2999-01-01'],
      ['Launch', 'planned', null],
    ] as const) {
      position = orderKeyBetween(position, null);
      await milestoneWrites.create(ctx, {
        workspaceId: WS,
        projectId: project.id,
        title,
        status,
        dueDate,
        position,
      });
    }
    const columns = await addDefaultColumns(ctx, project);
    const open = columns.find((column) => !column.isDone)!;
    const done = columns.find((column) => column.isDone)!;
    const base = { workspaceId: WS, projectId: project.id };
    await addTask(ctx, { ...base, columnId: open.id, title: 'Logo', dueDate: '2020-01-15' }, []);
    await addTask(ctx, { ...base, columnId: open.id, title: 'Copy' }, []);
    await addTask(ctx, { ...base, columnId: done.id, title: 'Kickoff', dueDate: '2019-01-01' }, []);

    renderWithSync(<ProjectOverviewSummary project={project} />, db);

    const bar = await screen.findByRole('progressbar', { name: 'Milestones approved' });
    expect(bar.getAttribute('aria-valuetext')).toBe('2 of 5 milestones approved');
    expect(screen.getByText('2 of 5 milestones approved')).toBeTruthy();

    const next = screen.getByRole('region', { name: 'Next due' });
    const items = within(next).getAllByRole('listitem');
    // Approved milestones and done tasks are not due; the rest by date.
    expect(items.map((item) => within(item).getByRole('link').textContent)).toEqual([
      'Logo',
      'Build',
      'Test',
    ]);
    expect(items[0]?.textContent).toMatch(/Overdue/);
    expect(items[2]?.textContent).not.toMatch(/Overdue/);

    const tasks = screen.getByRole('region', { name: 'Tasks' });
    expect(within(tasks).getByText('Open').nextElementSibling?.textContent).toBe('2');
    expect(within(tasks).getByText('Overdue').nextElementSibling?.textContent).toBe('1');
  });
});
