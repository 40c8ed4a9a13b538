import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { AppDatabase } from '../../db/app-database.ts';
import { createClient } from '../../data/client-mutations.ts';
import { createProject } from '../../data/project-mutations.ts';
import { listMilestones } from '../../data/project-work.ts';
import {
  createTestDatabase,
  renderWithSync,
  USER_ID,
  WS,
} from '../projects/project-screen-test-utils.tsx';
import { amountText, formatAmount, parseAmount } from './milestone-format.ts';
import { MilestonesTab } from './milestones-tab.tsx';

afterEach(cleanup);

async function seed(db: AppDatabase) {
  const ctx = { db, userId: USER_ID };
  const client = await createClient(ctx, { workspaceId: WS, name: 'Acme' });
  return createProject(ctx, {
    workspaceId: WS,
    clientId: client.id,
    name: 'Website',
    currency: 'EUR',
  });
}

async function addMilestone(user: ReturnType<typeof userEvent.setup>, title: string, amount = '') {
  await user.type(screen.getByRole('textbox', { name: 'Milestone title' }), title);
  if (amount) await user.type(screen.getByRole('textbox', { name: 'Amount' }), amount);
  await user.click(screen.getByRole('button', { name: 'Add milestone' }));
  await screen.findByRole('heading', { level: 3, name: title });
}

describe('milestone money', () => {
  it('turns typed amounts into integer minor units and back', () => {
    expect(parseAmount('1500.50', 'EUR')).toEqual({ minor: 150050 });
    expect(parseAmount('1,500.5', 'EUR')).toEqual({ minor: 150050 });
    expect(parseAmount('0.1', 'USD')).toEqual({ minor: 10 });
    expect(parseAmount('1500', 'JPY')).toEqual({ minor: 1500 });
    expect(parseAmount('', 'EUR')).toEqual({ minor: null });
    expect(parseAmount('12.345', 'EUR')).toHaveProperty('error');
    expect(parseAmount('abc', 'EUR')).toHaveProperty('error');
    expect(amountText(150050, 'EUR')).toBe('1500.50');
    expect(amountText(5, 'EUR')).toBe('0.05');
    expect(formatAmount(150050, 'EUR', 'en-US')).toBe('€1,500.50');
  });
});

describe('MilestonesTab', { timeout: 30_000 }, () => {
  it('teaches when empty, adds a milestone with its amount in minor units', async () => {
    const db = await createTestDatabase();
    const project = await seed(db);
    const user = userEvent.setup();
    renderWithSync(<MilestonesTab project={project} />, db);

    expect(
      await screen.findByText(/Break the project into stages your client approves/),
    ).toBeTruthy();
    expect(screen.getByRole('textbox', { name: 'Currency' })).toHaveProperty('value', 'EUR');
    await addMilestone(user, 'Design draft', '1500.50');

    const [stored] = await listMilestones(db, WS, project.id);
    expect(stored).toMatchObject({ title: 'Design draft', amount: 150050, currency: 'EUR' });
    expect(Number.isInteger(stored?.amount)).toBe(true);
    const outbox = await db.outbox.toArray();
    expect(outbox.at(-1)).toMatchObject({
      operation: 'create-milestone',
      args: { amount: 150050 },
    });
    const row = screen.getByRole('listitem', { name: 'Design draft' });
    expect(within(row).getByText(/1,500\.50/)).toBeTruthy();
    expect(within(row).getByText('Planned')).toBeTruthy();
    // The form is ready for the next one.
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Milestone title' }));
  });

  it('refuses an amount it cannot read without writing anything', async () => {
    const db = await createTestDatabase();
    const project = await seed(db);
    const user = userEvent.setup();
    renderWithSync(<MilestonesTab project={project} />, db);
    await user.type(await screen.findByRole('textbox', { name: 'Milestone title' }), 'Launch');
    await user.type(screen.getByRole('textbox', { name: 'Amount' }), '12.345');
    await user.click(screen.getByRole('button', { name: 'Add milestone' }));
    expect(await screen.findByText(/Enter an amount like 1500 or 1500.50/)).toBeTruthy();
    expect(await listMilestones(db, WS, project.id)).toEqual([]);
  });

  it('moves focus to the empty title when "Add milestone" is refused', async () => {
    const db = await createTestDatabase();
    const project = await seed(db);
    const user = userEvent.setup();
    renderWithSync(<MilestonesTab project={project} />, db);
    const title = await screen.findByRole('textbox', { name: 'Milestone title' });
    await user.click(screen.getByRole('button', { name: 'Add milestone' }));
    await waitFor(() => expect(title.getAttribute('aria-invalid')).toBe('true'));
    await waitFor(() => expect(document.activeElement).toBe(title));
    expect(await listMilestones(db, WS, project.id)).toEqual([]);
  });

  it('moves focus to the amount it cannot read', async () => {
    const db = await createTestDatabase();
    const project = await seed(db);
    const user = userEvent.setup();
    renderWithSync(<MilestonesTab project={project} />, db);
    await user.type(await screen.findByRole('textbox', { name: 'Milestone title' }), 'Launch');
    const amount = screen.getByRole('textbox', { name: 'Amount' });
    await user.type(amount, '12.345');
    await user.click(screen.getByRole('button', { name: 'Add milestone' }));
    await waitFor(() => expect(document.activeElement).toBe(amount));
  });

  it('reorders with Move up and Move down, keeping focus on the moved row', async () => {
    const db = await createTestDatabase();
    const project = await seed(db);
    const user = userEvent.setup();
    renderWithSync(<MilestonesTab project={project} />, db);
    await screen.findByRole('textbox', { name: 'Milestone title' });
    await addMilestone(user, 'Brief');
    await addMilestone(user, 'Design');
    await addMilestone(user, 'Launch');

    const titles = async () => (await listMilestones(db, WS, project.id)).map((m) => m.title);
    expect(await titles()).toEqual(['Brief', 'Design', 'Launch']);
    expect(screen.getByRole('button', { name: 'Move “Brief” up' })).toHaveProperty(
      'disabled',
      true,
    );

    await user.click(screen.getByRole('button', { name: 'Move “Launch” up' }));
    await waitFor(async () => expect(await titles()).toEqual(['Brief', 'Launch', 'Design']));
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Move “Launch” up' })),
    );
    await user.keyboard('{Enter}');
    await waitFor(async () => expect(await titles()).toEqual(['Launch', 'Brief', 'Design']));
    // At the top Move up is off: focus falls to Move down of the same row.
    await waitFor(() =>
      expect(document.activeElement).toBe(
        screen.getByRole('button', { name: 'Move “Launch” down' }),
      ),
    );
    const items = within(screen.getByRole('list', { name: 'Milestones' })).getAllByRole('heading');
    expect(items.map((item) => item.textContent)).toEqual(['Launch', 'Brief', 'Design']);
    expect((await db.outbox.toArray()).at(-1)).toMatchObject({ operation: 'update-milestone' });
  });

  it('shows progress, edits every field in a dialog, and deletes with Undo', async () => {
    const db = await createTestDatabase();
    const project = await seed(db);
    const user = userEvent.setup();
    renderWithSync(<MilestonesTab project={project} />, db);
    await screen.findByRole('textbox', { name: 'Milestone title' });
    await addMilestone(user, 'Brief', '100');
    await addMilestone(user, 'Design');

    expect(screen.getByRole('progressbar', { name: 'Milestones approved' })).toBeTruthy();
    expect(screen.getByText('0 of 2 milestones approved')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Edit “Brief”' }));
    const dialog = await screen.findByRole('dialog');
    const amount = within(dialog).getByRole('textbox', { name: 'Amount' });
    expect(amount).toHaveProperty('value', '100.00');
    await user.clear(amount);
    await user.type(amount, '250.75');
    await user.type(within(dialog).getByRole('textbox', { name: 'Description' }), 'Scope');
    await user.click(within(dialog).getByRole('button', { name: /Status/ }));
    await user.click(await screen.findByRole('option', { name: 'Approved' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await screen.findByText('1 of 2 milestones approved')).toBeTruthy();
    const [brief] = await listMilestones(db, WS, project.id);
    expect(brief).toMatchObject({ amount: 25075, status: 'approved', description: 'Scope' });

    await user.click(screen.getByRole('button', { name: 'Delete “Brief”' }));
    await waitFor(() => expect(screen.queryByRole('heading', { name: 'Brief' })).toBeNull());
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Edit “Design”' }));
    expect(await screen.findByText(/Milestone “Brief” deleted/)).toBeTruthy();
    await user.keyboard('{Control>}z{/Control}');
    expect(await screen.findByRole('heading', { level: 3, name: 'Brief' })).toBeTruthy();
    expect((await listMilestones(db, WS, project.id)).map((m) => m.title)).toEqual([
      'Brief',
      'Design',
    ]);
    // Focus follows the restored milestone.
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Edit “Brief”' })),
    );
  });

  it('hides a milestone from the client portal with the switch, and shows it is hidden', async () => {
    const db = await createTestDatabase();
    const project = await seed(db);
    const user = userEvent.setup();
    renderWithSync(<MilestonesTab project={project} />, db);
    await screen.findByRole('textbox', { name: 'Milestone title' });
    await addMilestone(user, 'Brief');
    await addMilestone(user, 'Design');
    expect(screen.queryByText('Hidden from client')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Edit “Brief”' }));
    const dialog = await screen.findByRole('dialog');
    const shown = within(dialog).getByRole('switch', { name: 'Show in the client portal' });
    expect(shown).toHaveProperty('checked', true);
    await user.click(shown);
    expect(shown).toHaveProperty('checked', false);
    expect(within(dialog).getByText(/the portal leaves this milestone out/)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    // Only the changed field goes out, through the ordinary update.
    const [brief] = await listMilestones(db, WS, project.id);
    expect(brief).toMatchObject({ title: 'Brief', visibleToClient: false });
    const queued = (await db.outbox.toArray()).at(-1);
    expect(queued).toMatchObject({
      operation: 'update-milestone',
      entityId: brief?.id,
      args: { visibleToClient: false },
    });
    expect(Object.keys(queued?.args ?? {})).toEqual(['visibleToClient']);

    const briefRow = await screen.findByRole('listitem', { name: 'Brief' });
    expect(within(briefRow).getByText('Hidden from client')).toBeTruthy();
    const designRow = screen.getByRole('listitem', { name: 'Design' });
    expect(within(designRow).queryByText('Hidden from client')).toBeNull();

    // And back: the marker goes.
    await user.click(screen.getByRole('button', { name: 'Edit “Brief”' }));
    const again = await screen.findByRole('dialog');
    const switchAgain = within(again).getByRole('switch', { name: 'Show in the client portal' });
    expect(switchAgain).toHaveProperty('checked', false);
    await user.click(switchAgain);
    await user.click(within(again).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(screen.queryByText('Hidden from client')).toBeNull());
    expect((await listMilestones(db, WS, project.id))[0]).toMatchObject({ visibleToClient: true });
  });

  it('shows the client’s sign-off: who, when, their comment and the address', async () => {
    const db = await createTestDatabase();
    const project = await seed(db);
    const user = userEvent.setup();
    renderWithSync(<MilestonesTab project={project} />, db);
    await screen.findByRole('textbox', { name: 'Milestone title' });
    await addMilestone(user, 'Brief');
    await addMilestone(user, 'Design');
    await addMilestone(user, 'Launch');
    const [brief, design] = await listMilestones(db, WS, project.id);
    const approvedAt = '2026-03-12T14:05:00.000Z';
    const requestedAt = '2026-03-20T09:30:00.000Z';
    // Only the portal writes a sign-off (never a member's update): it arrives as server data.
    await db.milestones.update(brief!.id, {
      status: 'approved',
      signOff: {
        decision: 'approved',
        by: 'Dana Reyes',
        at: approvedAt,
        comment: null,
        ip: '203.0.113.7',
      },
    });
    await db.milestones.update(design!.id, {
      status: 'changes_requested',
      signOff: {
        decision: 'changes_requested',
        by: 'Dana Reyes',
        at: requestedAt,
        comment: 'The logo should be bigger.',
      },
    });

    const when = (at: string) =>
      new Date(at).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
    const briefRow = screen.getByRole('listitem', { name: 'Brief' });
    const designRow = screen.getByRole('listitem', { name: 'Design' });
    await waitFor(() => {
      expect(within(briefRow).getByText('Approved by Dana Reyes')).toBeTruthy();
      expect(within(designRow).getByText('Changes requested by Dana Reyes')).toBeTruthy();
    });
    const approved = within(briefRow)
      .getByText(/^Approved by/)
      .closest('p')!;
    expect(approved.textContent).toBe(
      `Approved by Dana Reyes on ${when(approvedAt)} from 203.0.113.7`,
    );
    expect(within(approved).getByText(when(approvedAt)).getAttribute('datetime')).toBe(approvedAt);

    const requested = within(designRow)
      .getByText(/^Changes requested by/)
      .closest('p')!;
    // No address kept on this record: nothing about one is said.
    expect(requested.textContent).toBe(`Changes requested by Dana Reyes on ${when(requestedAt)}:`);
    expect(within(designRow).getByText('“The logo should be bigger.”')).toBeTruthy();

    const launchRow = screen.getByRole('listitem', { name: 'Launch' });
    expect(within(launchRow).queryByText(/Approved by|Changes requested by/)).toBeNull();
  });
});
