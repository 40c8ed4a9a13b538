import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import type { AppDatabase } from '../../db/app-database.ts';
import type { LocalChangeRequest } from '../../data/change-request-queries.ts';
import { createClient } from '../../data/client-mutations.ts';
import { createProject } from '../../data/project-mutations.ts';
import { listMilestones, milestoneWrites } from '../../data/project-work.ts';
import {
  createTestDatabase,
  expectAccessible,
  renderWithSync,
  USER_ID,
  WS,
} from '../projects/project-screen-test-utils.tsx';
import {
  formatCostImpact,
  formatShortDate,
  parseCostImpact,
  parseScheduleDays,
} from './change-request-format.ts';
import { ChangeRequestsScreen } from './change-requests-screen.tsx';
import { ProjectChangeRequestsLink } from './project-change-requests-link.tsx';
import type { ChangeRequestsSearch } from './change-requests-search.ts';

afterEach(cleanup);

/** The route's part: the URL search state, here kept in React state. */
function renderScreen(db: AppDatabase, initial: ChangeRequestsSearch = {}) {
  const searches: ChangeRequestsSearch[] = [];
  function Harness() {
    const [search, setSearch] = useState(initial);
    return (
      <ChangeRequestsScreen
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

async function seedProjects(db: AppDatabase) {
  const ctx = { db, userId: USER_ID };
  const acme = await createClient(ctx, { workspaceId: WS, name: 'Acme' });
  const globex = await createClient(ctx, { workspaceId: WS, name: 'Globex' });
  const website = await createProject(ctx, {
    workspaceId: WS,
    clientId: acme.id,
    name: 'Website',
    currency: 'EUR',
  });
  const app = await createProject(ctx, {
    workspaceId: WS,
    clientId: globex.id,
    name: 'App',
    currency: 'EUR',
  });
  return { ctx, website, app };
}

/** A request as a pull brings it: the server's row, nothing pending on this device. */
async function putPulled(
  db: AppDatabase,
  projectId: string,
  values: Partial<LocalChangeRequest> & { title: string },
): Promise<LocalChangeRequest> {
  const row: LocalChangeRequest = {
    id: crypto.randomUUID(),
    workspaceId: WS,
    projectId,
    description: null,
    desiredDate: null,
    attachmentFileIds: [],
    status: 'submitted',
    costImpact: null,
    currency: 'EUR',
    scheduleImpactDays: null,
    answer: null,
    source: 'portal',
    requestedBy: 'Dana Client',
    clientDecision: null,
    appliedAt: null,
    createdAt: '2026-03-01T10:00:00.000Z',
    createdBy: 'portal',
    updatedAt: '2026-03-01T10:00:00.000Z',
    updatedBy: 'portal',
    version: 2,
    _v: 2,
    _pending: 0,
    _deleted: false,
    _base: {},
    ...values,
  };
  await db.changeRequests.put(row);
  return row;
}

const rowTitles = () =>
  within(screen.getByRole('list', { name: 'Change requests' }))
    .getAllByRole('heading', { level: 2 })
    .map((heading) => heading.textContent);

const lastEntry = async (db: AppDatabase) => (await db.outbox.toArray()).at(-1);

describe('change request words and numbers', () => {
  it('reads signed money and days, and shows them signed', () => {
    expect(parseCostImpact('1,500.50', 'EUR')).toEqual({ value: 150050 });
    expect(parseCostImpact('-200', 'EUR')).toEqual({ value: -20000 });
    expect(parseCostImpact('−12.5', 'EUR')).toEqual({ value: -1250 });
    expect(parseCostImpact('1500', 'JPY')).toEqual({ value: 1500 });
    expect(parseCostImpact('', 'EUR')).toEqual({ value: null });
    expect(parseCostImpact('-', 'EUR')).toHaveProperty('error');
    expect(parseCostImpact('12.345', 'EUR')).toHaveProperty('error');
    // Too long a number is said as such, not as a format to follow.
    expect(parseCostImpact('99999999999999', 'EUR')).toEqual({
      error: 'That amount is too large',
    });
    expect(parseCostImpact('-99999999999999.50', 'EUR')).toEqual({
      error: 'That amount is too large',
    });
    expect(parseScheduleDays('+5')).toEqual({ value: 5 });
    expect(parseScheduleDays('-2')).toEqual({ value: -2 });
    expect(parseScheduleDays('1.5')).toHaveProperty('error');
    expect(formatCostImpact(150050, 'EUR', 'en-US')).toBe('+€1,500.50');
    expect(formatCostImpact(-20000, 'EUR', 'en-US')).toBe('-€200.00');
  });
});

describe('ChangeRequestsScreen', { timeout: 60_000 }, () => {
  it('starts at the heading, teaches when empty, and records a request', async () => {
    const db = await createTestDatabase();
    const { website } = await seedProjects(db);
    const user = userEvent.setup();
    renderScreen(db);

    const heading = screen.getByRole('heading', { level: 1, name: 'Change requests' });
    expect(document.activeElement).toBe(heading);
    expect(await screen.findByRole('heading', { name: 'No change requests yet' })).toBeTruthy();
    expect(screen.queryByText(/coming soon/i)).toBeNull();
    await expectAccessible();

    await user.click(screen.getByRole('button', { name: 'Record a change request' }));
    const dialog = await screen.findByRole('dialog', { name: 'New change request' });
    await user.click(within(dialog).getByRole('button', { name: /Project/ }));
    await user.click(await screen.findByRole('option', { name: 'Website · Acme' }));
    // The contract refuses an empty title, beside the field.
    await user.click(within(dialog).getByRole('button', { name: 'Record request' }));
    expect(await within(dialog).findByText('Title is required')).toBeTruthy();
    await user.type(within(dialog).getByRole('textbox', { name: 'Title' }), 'Add a blog');
    await user.type(within(dialog).getByLabelText('Wanted by'), '2026-05-01');
    await user.click(within(dialog).getByRole('button', { name: 'Record request' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    await waitFor(() => expect(rowTitles()).toEqual(['Add a blog']));
    const row = screen.getByRole('listitem', { name: 'Add a blog' });
    expect(within(row).getByText('You')).toBeTruthy();
    expect(within(row).getByText('Not synced yet')).toBeTruthy();
    expect(within(row).getByText('Website · Acme')).toBeTruthy();
    expect(await lastEntry(db)).toMatchObject({
      operation: 'create-change-request',
      args: {
        title: 'Add a blog',
        projectId: website.id,
        desiredDate: '2026-05-01',
        currency: 'EUR',
        status: 'submitted',
      },
    });
  });

  it('lists the open requests, filters by status and project in the URL state', async () => {
    const db = await createTestDatabase();
    const { website, app } = await seedProjects(db);
    await putPulled(db, website.id, {
      title: 'French version',
      costImpact: 150000,
      scheduleImpactDays: 5,
      desiredDate: '2026-05-01',
    });
    await putPulled(db, app.id, {
      title: 'Dark mode',
      status: 'quoted',
      source: 'member',
      requestedBy: '',
      createdBy: USER_ID,
      costImpact: -20000,
      scheduleImpactDays: -2,
      createdAt: '2026-03-02T10:00:00.000Z',
    });
    await putPulled(db, website.id, {
      title: 'Old logo',
      status: 'approved',
      createdAt: '2026-02-01T10:00:00.000Z',
    });
    const user = userEvent.setup();
    const { searches } = renderScreen(db);

    await waitFor(() => expect(rowTitles()).toEqual(['Dark mode', 'French version']));
    expect(screen.getByText('2 open change requests')).toBeTruthy();
    const french = screen.getByRole('listitem', { name: 'French version' });
    expect(within(french).getByText('Website · Acme')).toBeTruthy();
    expect(within(french).getByText('Dana Client')).toBeTruthy();
    expect(within(french).getByText('New')).toBeTruthy();
    expect(within(french).getByText(formatCostImpact(150000, 'EUR'))).toBeTruthy();
    expect(within(french).getByText('+5 days')).toBeTruthy();
    expect(within(french).queryByText('Not synced yet')).toBeNull();
    const dark = screen.getByRole('listitem', { name: 'Dark mode' });
    expect(within(dark).getByText('You')).toBeTruthy();
    expect(within(dark).getByText('Quote sent')).toBeTruthy();
    expect(within(dark).getByText('-2 days')).toBeTruthy();
    expect(within(dark).getByText(formatCostImpact(-20000, 'EUR'))).toBeTruthy();
    await expectAccessible();

    await user.click(screen.getByRole('button', { name: /Status/ }));
    await user.click(await screen.findByRole('option', { name: 'Approved' }));
    await waitFor(() => expect(rowTitles()).toEqual(['Old logo']));
    expect(searches.at(-1)).toEqual({ status: 'approved' });

    await user.click(screen.getByRole('button', { name: /Project/ }));
    await user.click(await screen.findByRole('option', { name: 'App' }));
    expect(searches.at(-1)).toEqual({ status: 'approved', projectId: app.id });
    expect(await screen.findByRole('heading', { name: 'No change requests match' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    expect(searches.at(-1)).toEqual({});
    await waitFor(() => expect(rowTitles()).toEqual(['Dark mode', 'French version']));

    await user.click(screen.getByRole('button', { name: /Status/ }));
    await user.click(await screen.findByRole('option', { name: 'All statuses' }));
    await user.click(screen.getByRole('button', { name: /Project/ }));
    await user.click(await screen.findByRole('option', { name: 'Website' }));
    expect(searches.at(-1)).toEqual({ status: 'all', projectId: website.id });
    await waitFor(() => expect(rowTitles()).toEqual(['French version', 'Old logo']));
    expect(screen.getByText('2 change requests match')).toBeTruthy();
  });

  it('says when nothing is open, and shows them all on request', async () => {
    const db = await createTestDatabase();
    const { website } = await seedProjects(db);
    await putPulled(db, website.id, { title: 'Old logo', status: 'declined' });
    const user = userEvent.setup();
    const { searches } = renderScreen(db);
    expect(await screen.findByRole('heading', { name: 'Nothing is waiting on you' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Show all change requests' }));
    expect(searches.at(-1)).toEqual({ status: 'all' });
    await waitFor(() => expect(rowTitles()).toEqual(['Old logo']));
  });

  it('answers through the outbox, shows field errors, and moves focus on', async () => {
    const db = await createTestDatabase();
    const { website, app } = await seedProjects(db);
    await putPulled(db, website.id, { title: 'French version', description: 'All pages' });
    await putPulled(db, app.id, {
      title: 'Dark mode',
      status: 'quoted',
      costImpact: 30000,
      createdAt: '2026-03-02T10:00:00.000Z',
    });
    const user = userEvent.setup();
    renderScreen(db);
    await waitFor(() => expect(rowTitles()).toEqual(['Dark mode', 'French version']));
    const queued = await db.outbox.count();

    await user.click(screen.getByRole('button', { name: 'Dark mode' }));
    const dialog = await screen.findByRole('dialog', { name: 'Dark mode' });
    const cost = within(dialog).getByRole('textbox', { name: 'Cost impact (EUR)' });
    expect(cost).toHaveProperty('value', '300.00');
    await user.clear(cost);
    await user.type(cost, 'abc');
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));
    expect(
      await within(dialog).findByText('Enter an amount like 1500.50, or -200 for a saving'),
    ).toBeTruthy();
    expect(cost.getAttribute('aria-invalid')).toBe('true');

    await user.clear(cost);
    await user.type(cost, '-250.50');
    const days = within(dialog).getByRole('textbox', { name: 'Timeline impact (days)' });
    await user.type(days, '5000');
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));
    // The contract's own message.
    expect(await within(dialog).findByText('That is more than ten years')).toBeTruthy();
    expect(await db.outbox.count()).toBe(queued);
    await expectAccessible();

    await user.clear(days);
    await user.type(days, '-3');
    await user.type(
      within(dialog).getByRole('textbox', { name: 'Answer to the client' }),
      'Cheaper than planned',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await lastEntry(db)).toMatchObject({
      operation: 'update-change-request',
      args: {
        status: 'approved',
        costImpact: -25050,
        scheduleImpactDays: -3,
        answer: 'Cheaper than planned',
      },
    });
    // Approved is not open any more: the row leaves, focus moves on to the next one.
    await waitFor(() => expect(rowTitles()).toEqual(['French version']));
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('button', { name: 'French version' })),
    );
    expect(await screen.findByText(/“Dark mode” approved/)).toBeTruthy();

    // A quote needs a price; once sent it stays open, and focus returns to its row.
    await user.click(screen.getByRole('button', { name: 'French version' }));
    const quote = await screen.findByRole('dialog', { name: 'French version' });
    expect(within(quote).getByText('All pages')).toBeTruthy();
    await user.click(within(quote).getByRole('button', { name: 'Send quote to client' }));
    expect(
      await within(quote).findByText(
        'A quote needs a cost or a timeline impact for the client to accept',
      ),
    ).toBeTruthy();
    // Focus is in the field to fill, not left on the button.
    await waitFor(() =>
      expect(document.activeElement).toBe(
        within(quote).getByRole('textbox', { name: 'Cost impact (EUR)' }),
      ),
    );
    await user.type(within(quote).getByRole('textbox', { name: 'Cost impact (EUR)' }), '1500');
    await user.click(within(quote).getByRole('button', { name: 'Send quote to client' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await lastEntry(db)).toMatchObject({
      operation: 'update-change-request',
      args: { status: 'quoted', costImpact: 150000 },
    });
    expect((await lastEntry(db))?.args).not.toHaveProperty('scheduleImpactDays');
    const row = screen.getByRole('listitem', { name: 'French version' });
    expect(await within(row).findByText('Quote sent')).toBeTruthy();
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('button', { name: 'French version' })),
    );
  });

  it('a link to one request opens its panel when it arrives; closing gives focus to its row', async () => {
    const db = await createTestDatabase();
    const { website } = await seedProjects(db);
    const user = userEvent.setup();
    const id = crypto.randomUUID();
    const view = renderScreen(db, { projectId: website.id, request: id });
    expect(await screen.findByText(/this link opens is not on this device yet/)).toBeTruthy();
    // The pull brings it.
    await putPulled(db, website.id, { id, title: 'Gift cards', status: 'declined' });
    const dialog = await screen.findByRole('dialog', { name: 'Gift cards' });
    expect(screen.queryByText(/this link opens is not on this device yet/)).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(view.searches.at(-1)).toEqual({ projectId: website.id });
    // Declined is not open: the row is not listed, so focus goes to the heading.
    await waitFor(() =>
      expect(document.activeElement).toBe(
        screen.getByRole('heading', { level: 1, name: 'Change requests' }),
      ),
    );
  });

  it("shows the client's answer and keeps an accepted quote read-only", async () => {
    const db = await createTestDatabase();
    const { website } = await seedProjects(db);
    const fileId = crypto.randomUUID();
    // Only what the panel reads of a file row: its name.
    await db.files.put({
      id: fileId,
      workspaceId: WS,
      projectId: website.id,
      name: 'menu.pdf',
    } as never);
    await putPulled(db, website.id, {
      title: 'French version',
      attachmentFileIds: [fileId, crypto.randomUUID()],
      status: 'accepted',
      costImpact: 120000,
      scheduleImpactDays: 5,
      answer: 'Two more weeks of work',
      clientDecision: {
        decision: 'accepted',
        by: 'Dana Client',
        at: '2026-03-05T14:05:00.000Z',
        comment: 'Go ahead',
        ip: '203.0.113.9',
      },
    });
    const user = userEvent.setup();
    renderScreen(db, { status: 'accepted' });
    await user.click(await screen.findByRole('button', { name: 'French version' }));
    const dialog = await screen.findByRole('dialog', { name: 'French version' });

    expect(within(dialog).getByText('Accepted by Dana Client')).toBeTruthy();
    expect(within(dialog).getByText('“Go ahead”')).toBeTruthy();
    expect(within(dialog).getByText(/can no longer change/)).toBeTruthy();
    expect(within(dialog).getByText('Two more weeks of work')).toBeTruthy();
    expect(within(dialog).getByText(/^2 attached files/)).toBeTruthy();
    expect(
      within(within(dialog).getByRole('list', { name: 'Attached files' })).getByText('menu.pdf'),
    ).toBeTruthy();
    expect(
      within(dialog).getByText('One file was deleted or is not on this device yet.'),
    ).toBeTruthy();
    expect(within(dialog).getByText(formatCostImpact(120000, 'EUR'))).toBeTruthy();
    expect(within(dialog).queryByRole('textbox')).toBeNull();
    for (const action of ['Send quote to client', 'Approve', 'Decline']) {
      expect(within(dialog).queryByRole('button', { name: action })).toBeNull();
    }
    expect(within(dialog).getByRole('button', { name: 'Apply to milestones…' })).toBeTruthy();
    await expectAccessible();
  });

  it('applies an accepted change to the milestones in one go', async () => {
    const db = await createTestDatabase();
    const { ctx, website } = await seedProjects(db);
    const milestone = (title: string, dueDate: string | null, position: string) =>
      milestoneWrites.create(ctx, {
        workspaceId: WS,
        projectId: website.id,
        title,
        dueDate,
        position,
      });
    const design = await milestone('Design', '2026-03-12', 'a0');
    const launch = await milestone('Launch', '2026-04-28', 'a1');
    await milestoneWrites.update(ctx, launch.id, { status: 'approved' });
    await milestone('Handover', null, 'a2');
    await putPulled(db, website.id, {
      title: 'French version',
      status: 'accepted',
      costImpact: 120000,
      scheduleImpactDays: 5,
      desiredDate: '2026-05-01',
    });
    const user = userEvent.setup();
    renderScreen(db, { status: 'all' });
    await user.click(await screen.findByRole('button', { name: 'French version' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Apply to milestones…' }));

    const heading = await within(dialog).findByRole('heading', {
      name: 'Apply “French version” to milestones',
    });
    await waitFor(() => expect(document.activeElement).toBe(heading));
    expect(within(dialog).getByRole('textbox', { name: 'Milestone title' })).toHaveProperty(
      'value',
      'French version',
    );
    expect(within(dialog).getByRole('textbox', { name: 'Amount (EUR)' })).toHaveProperty(
      'value',
      '1200.00',
    );
    expect(within(dialog).getByLabelText('Due date')).toHaveProperty('value', '2026-05-01');
    const moves = within(dialog).getByRole('group', { name: 'Move due dates by +5 days' });
    const designBox = within(moves).getByRole('checkbox', { name: /Design/ });
    const launchBox = within(moves).getByRole('checkbox', { name: /Launch/ });
    expect(within(moves).queryByRole('checkbox', { name: /Handover/ })).toBeNull();
    // Work still to do moves by default; an approved milestone is done and stays.
    expect(designBox).toHaveProperty('checked', true);
    expect(launchBox).toHaveProperty('checked', false);
    // The preview reads "12 Mar → 17 Mar" (the arrow is "moves to" for a screen reader).
    expect(designBox.closest('label')?.textContent).toContain(
      `${formatShortDate('2026-03-12')} →  moves to ${formatShortDate('2026-03-17')}`,
    );
    await expectAccessible();

    const queued = await db.outbox.count();
    await user.click(within(dialog).getByRole('button', { name: 'Apply to milestones' }));
    expect(await within(dialog).findByText(/^Applied on /)).toBeTruthy();
    expect(within(dialog).queryByRole('button', { name: 'Apply to milestones…' })).toBeNull();

    const entries = (await db.outbox.toArray()).slice(queued);
    expect(entries.map((entry) => [entry.operation, entry.entityId])).toEqual([
      ['create-milestone', expect.any(String)],
      ['update-milestone', design.id],
      ['update-change-request', expect.any(String)],
    ]);
    expect(entries[0]?.args).toMatchObject({
      title: 'French version',
      amount: 120000,
      currency: 'EUR',
      dueDate: '2026-05-01',
    });
    expect(String(entries[0]?.args.position) > 'a2').toBe(true);
    expect(entries[1]?.args).toEqual({ dueDate: '2026-03-17' });
    expect(entries[2]?.args).toEqual({ appliedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
    expect((await listMilestones(db, WS, website.id)).map((m) => m.title)).toEqual([
      'Design',
      'Launch',
      'Handover',
      'French version',
    ]);
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    const row = await screen.findByRole('listitem', { name: 'French version' });
    expect(within(row).getByText(/^Applied on /)).toBeTruthy();
  });

  it('links a project to its requests, with how many are open', async () => {
    const db = await createTestDatabase();
    const { website } = await seedProjects(db);
    renderWithSync(<ProjectChangeRequestsLink project={website} />, db);
    const link = await screen.findByRole('link', { name: 'Change requests' });
    expect(link.getAttribute('href')).toBe(`/change-requests?projectId=${website.id}`);

    await putPulled(db, website.id, { title: 'Old logo', status: 'declined' });
    await waitFor(() =>
      expect(link.getAttribute('href')).toBe(`/change-requests?projectId=${website.id}&status=all`),
    );
    await putPulled(db, website.id, { title: 'French version' });
    await putPulled(db, website.id, { title: 'Dark mode', status: 'quoted' });
    expect(await screen.findByRole('link', { name: 'Change requests: 2 open' })).toBeTruthy();
  });
});

describe('billing a change', () => {
  it('makes a draft invoice for an approved change that costs something, once', async () => {
    const db = await createTestDatabase();
    const { website } = await seedProjects(db);
    const request = await putPulled(db, website.id, {
      title: 'French version',
      status: 'approved',
      costImpact: 120050,
      currency: 'EUR',
    });
    await putPulled(db, website.id, { title: 'Dark mode', status: 'declined', costImpact: 9000 });
    const user = userEvent.setup();
    renderScreen(db, { status: 'all' });

    // A declined change is not billed.
    await user.click(await screen.findByRole('button', { name: 'Dark mode' }));
    let dialog = await screen.findByRole('dialog');
    expect(within(dialog).queryByRole('button', { name: 'Invoice this change' })).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));

    await user.click(await screen.findByRole('button', { name: 'French version' }));
    dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(/This change adds €1,200.50/)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Invoice this change' }));

    const link = await within(dialog).findByRole('link', {
      name: 'the draft “Change: French version”',
    });
    await waitFor(() => expect(document.activeElement).toBe(link));
    expect(within(dialog).queryByRole('button', { name: 'Invoice this change' })).toBeNull();
    const invoices = await db.invoices.toArray();
    expect(invoices).toHaveLength(1);
    expect(invoices[0]).toMatchObject({
      clientId: website.clientId,
      projectId: website.id,
      currency: 'EUR',
      number: null,
      lines: [
        expect.objectContaining({
          description: 'French version',
          quantity: 1,
          unitPrice: 120050,
          changeRequestId: request.id,
        }),
      ],
    });
    expect(link.getAttribute('href')).toBe(`/invoices/${invoices[0]?.id}`);
    await expectAccessible();
  });
});
