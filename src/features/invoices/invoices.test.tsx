import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import type { InvoiceLine } from '#contract/entities/invoice.ts';
import type { AppDatabase } from '../../db/app-database.ts';
import type { LocalChangeRequest } from '../../data/change-request-queries.ts';
import { createClient } from '../../data/client-mutations.ts';
import {
  invoicePaymentWrites,
  listInvoiceViews,
  listNewestInvoiceViews,
  moneyFigures,
  newInvoiceLine,
  readInvoiceView,
  type LocalInvoice,
} from '../../data/invoices.ts';
import {
  createTestDatabase,
  expectAccessible,
  renderWithSync,
  USER_ID,
  WS,
} from '../projects/project-screen-test-utils.tsx';
import { BillableLinesSheet } from './billable-lines-sheet.tsx';
import { InvoiceLinesEditor, parseLine } from './invoice-lines-editor.tsx';
import { InvoicePayments } from './invoice-payments.tsx';

afterEach(cleanup);

/** An invoice as a pull brings it: the server's row, nothing pending on this device. */
async function putPulled(db: AppDatabase, values: Partial<LocalInvoice>): Promise<LocalInvoice> {
  const row: LocalInvoice = {
    id: crypto.randomUUID(),
    workspaceId: WS,
    clientId: 'c1',
    title: 'Invoice',
    projectId: null,
    status: 'sent',
    number: 1,
    currency: 'EUR',
    issueDate: '2026-11-01',
    dueDate: '2026-12-01',
    paymentTerms: 'net_30',
    lines: [newInvoiceLine({ description: 'Design', unitPrice: 100_000 })],
    notes: null,
    sentAt: '2026-11-01T10:00:00.000Z',
    viewedAt: null,
    createdAt: '2026-11-01T10:00:00.000Z',
    createdBy: USER_ID,
    updatedAt: '2026-11-01T10:00:00.000Z',
    updatedBy: USER_ID,
    version: 3,
    _v: 3,
    _pending: 0,
    _deleted: false,
    _base: {},
    ...values,
  };
  await db.invoices.put(row);
  return row;
}

describe('invoice figures on the device', () => {
  it('derives each invoice’s state and the dashboard’s money from lines and payments', async () => {
    const db = await createTestDatabase();
    const ctx = { db, userId: USER_ID };
    const late = await putPulled(db, { dueDate: '2026-11-10', number: 1 });
    const part = await putPulled(db, { number: 2 });
    await putPulled(db, { status: 'draft', number: null, sentAt: null });
    await putPulled(db, {
      currency: 'JPY',
      number: 3,
      lines: [newInvoiceLine({ description: 'Fee', unitPrice: 5000 })],
    });
    await invoicePaymentWrites.create(ctx, {
      workspaceId: WS,
      invoiceId: part.id,
      amount: 40_000,
      paidOn: '2026-11-20',
    });
    await invoicePaymentWrites.create(ctx, {
      workspaceId: WS,
      invoiceId: part.id,
      kind: 'refund',
      amount: 10_000,
      paidOn: '2026-11-21',
    });
    const views = await listInvoiceViews(db, WS, '2026-11-24');
    const state = (id: string) => views.find((view) => view.invoice.id === id)?.state;
    expect(state(late.id)).toBe('overdue');
    expect(state(part.id)).toBe('partly_paid');
    expect(moneyFigures(views, '2026-11-24')).toEqual([
      // 1,000 overdue + 700 still due on the partly paid one; 300 net came in this month.
      {
        currency: 'EUR',
        outstanding: 170_000,
        overdue: 100_000,
        paidThisMonth: 30_000,
        overdueCount: 1,
      },
      { currency: 'JPY', outstanding: 5000, overdue: 0, paidThisMonth: 0, overdueCount: 0 },
    ]);
  });
});

describe('the invoices list’s first page', () => {
  it('is the whole list’s first rows, with their payments, deleted ones left out', async () => {
    const db = await createTestDatabase();
    const ctx = { db, userId: USER_ID };
    const made: LocalInvoice[] = [];
    for (let i = 0; i < 12; i += 1) {
      const at = new Date(Date.UTC(2026, 10, 1 + i, 9)).toISOString();
      made.push(await putPulled(db, { number: i + 1, createdAt: at, updatedAt: at }));
    }
    // Another workspace's newer invoice and a newer one waiting for its delete stay out.
    await putPulled(db, { workspaceId: 'other', createdAt: '2026-12-30T00:00:00.000Z' });
    await putPulled(db, { createdAt: '2026-12-31T00:00:00.000Z', _deleted: true });
    await invoicePaymentWrites.create(ctx, {
      workspaceId: WS,
      invoiceId: made[11]!.id,
      amount: 40_000,
      paidOn: '2026-11-20',
    });

    const all = await listInvoiceViews(db, WS, '2026-11-24');
    const page = await listNewestInvoiceViews(db, WS, 5, '2026-11-24');
    expect(page.map((view) => view.invoice.id)).toEqual(
      all.slice(0, 5).map((view) => view.invoice.id),
    );
    expect(page[0]!.invoice.id).toBe(made[11]!.id);
    expect(page[0]).toMatchObject({ paid: 40_000, state: 'partly_paid' });
    expect(page[0]!.payments).toHaveLength(1);
    expect(await listNewestInvoiceViews(db, 'nobody', 5)).toEqual([]);
  });
});

describe('the draft’s lines', () => {
  it('parses amounts in the currency’s units and refuses what the contract refuses', () => {
    const base = {
      id: crypto.randomUUID(),
      description: 'Hosting',
      quantity: '2',
      unitPrice: '12.5',
      taxRate: '20',
      discountPercent: '0',
      milestoneId: null,
      changeRequestId: null,
    };
    expect(parseLine(base, 'EUR')).toMatchObject({ line: { unitPrice: 1250, quantity: 2 } });
    expect(parseLine({ ...base, unitPrice: '12.5' }, 'JPY').errors).toMatchObject({
      unitPrice: expect.stringContaining('Enter a price'),
    });
    expect(parseLine({ ...base, taxRate: '500' }, 'EUR').errors).toEqual({
      taxRate: 'The tax rate is at most 100%',
    });
    expect(parseLine({ ...base, quantity: '-1' }, 'EUR').errors).toEqual({
      quantity: 'A quantity cannot be negative',
    });
    expect(parseLine({ ...base, description: ' ' }, 'EUR').errors).toEqual({
      description: 'Describe the line',
    });
    // Each within its own limit, their product not: shown under the price.
    expect(
      parseLine({ ...base, quantity: '999999.999', unitPrice: '9999999999.99' }, 'EUR').errors,
    ).toEqual({ unitPrice: 'Quantity × unit price is too large for one line' });
  });

  it('never reads a value as another one: no price is not 0, 0x10 is not 16', () => {
    const base = {
      id: crypto.randomUUID(),
      description: 'Hosting',
      quantity: '2',
      unitPrice: '12.5',
      taxRate: '',
      discountPercent: '',
      milestoneId: null,
      changeRequestId: null,
    };
    // An empty percent is none; a decimal comma is a decimal point.
    expect(parseLine({ ...base, quantity: '1,5' }, 'EUR')).toMatchObject({
      line: { quantity: 1.5, taxRate: 0, discountPercent: 0 },
    });
    expect(parseLine({ ...base, unitPrice: '' }, 'EUR').errors).toEqual({
      unitPrice: 'Enter a price like 1500.00',
    });
    expect(parseLine({ ...base, unitPrice: '99999999999' }, 'USD').errors).toEqual({
      unitPrice: 'That price is too large',
    });
    expect(parseLine({ ...base, quantity: '' }, 'EUR').errors).toEqual({
      quantity: 'Enter a quantity',
    });
    expect(parseLine({ ...base, quantity: '0x10' }, 'EUR').errors).toEqual({
      quantity: 'Enter a quantity',
    });
    expect(parseLine({ ...base, taxRate: '1e1' }, 'EUR').errors).toEqual({
      taxRate: 'Enter the tax rate as a percent',
    });
    expect(parseLine({ ...base, discountPercent: 'Infinity' }, 'EUR').errors).toEqual({
      discountPercent: 'Enter the discount as a percent',
    });
  });

  it('saves a new line once it has a price, never a refused price as 0', async () => {
    const user = userEvent.setup();
    const saves: InvoiceLine[][] = [];
    /** The editor fed back what it saved, as the page's live query does. */
    function Stored() {
      const [lines, setLines] = useState<InvoiceLine[]>([
        newInvoiceLine({ description: 'Design', unitPrice: 100_000 }),
      ]);
      return (
        <InvoiceLinesEditor
          lines={lines}
          currency="USD"
          onSave={(next) => {
            saves.push(next);
            setLines(next);
            return Promise.resolve(true);
          }}
        />
      );
    }
    renderWithSync(<Stored />, await createTestDatabase());
    await user.click(screen.getByRole('button', { name: 'Add line' }));
    await user.keyboard('Hosting');
    const price = screen.getByRole('textbox', { name: 'Price (USD), line 2' });
    await user.click(price);
    await user.keyboard('99999999999');
    await user.tab();
    expect(await screen.findByText('That price is too large')).toBeTruthy();
    expect((price as HTMLInputElement).value).toBe('99999999999');
    // Neither the description's blur nor the price's wrote the line with a price it was not given.
    expect(saves).toEqual([]);

    await user.clear(price);
    await user.type(price, '120');
    await user.tab();
    await waitFor(() => expect(saves).toHaveLength(1));
    expect(saves[0]?.[1]).toMatchObject({ description: 'Hosting', unitPrice: 12_000 });

    // A saved line emptied says why, rather than vanishing from the invoice.
    await user.clear(price);
    await user.tab();
    expect(await screen.findByText('Enter a price like 1500.00')).toBeTruthy();
    expect(saves).toHaveLength(1);
  });

  it('Enter on Add line, then the description at once: every key lands in the new line', async () => {
    // No pause at all between the keys, as a fast typist's arrive.
    const user = userEvent.setup({ delay: null });
    renderWithSync(
      <InvoiceLinesEditor
        lines={[newInvoiceLine({ description: 'Design', unitPrice: 100_000 })]}
        currency="EUR"
        onSave={() => Promise.resolve(true)}
      />,
      await createTestDatabase(),
    );
    screen.getByRole('button', { name: 'Add line' }).focus();
    // No wait between the keys: the line is drawn and focused in Enter's own task, so neither a
    // letter nor the space (which would press Add line again) reaches the button.
    await user.keyboard('{Enter}Hosting fees');
    expect(
      screen.getByRole<HTMLInputElement>('textbox', { name: 'Description, line 2' }).value,
    ).toBe('Hosting fees');
    expect(screen.queryByRole('textbox', { name: 'Description, line 3' })).toBeNull();
  });

  it('saves the lines together when a field is left, and not while one is wrong', async () => {
    const user = userEvent.setup();
    const saves: InvoiceLine[][] = [];
    const line = newInvoiceLine({ description: 'Design', unitPrice: 100_000 });
    renderWithSync(
      <InvoiceLinesEditor
        lines={[line]}
        currency="EUR"
        onSave={(lines) => {
          saves.push(lines);
          return Promise.resolve(true);
        }}
      />,
      await createTestDatabase(),
    );
    const tax = screen.getByRole('textbox', { name: 'Tax %, line 1' });
    await user.clear(tax);
    await user.type(tax, '500');
    await user.tab();
    expect(await screen.findByText('The tax rate is at most 100%')).toBeTruthy();
    expect(saves).toHaveLength(0);
    await user.clear(tax);
    await user.type(tax, '20');
    await user.tab();
    await waitFor(() => expect(saves).toHaveLength(1));
    expect(saves[0]?.[0]).toMatchObject({ taxRate: 20, unitPrice: 100_000 });
    expect(screen.getByText('Amount, line 1:').parentElement?.textContent).toContain('1,000.00');

    await user.click(screen.getByRole('button', { name: 'Add line' }));
    expect(document.activeElement).toBe(
      screen.getByRole('textbox', { name: 'Description, line 2' }),
    );
    await user.click(screen.getByRole('button', { name: 'Remove line 1' }));
    await waitFor(() =>
      expect(document.activeElement).toBe(
        screen.getByRole('textbox', { name: 'Description, line 1' }),
      ),
    );
    await expectAccessible();
  });
});

describe('payments of a sent invoice', () => {
  it('records a payment up to what is due, offline through the outbox', async () => {
    const user = userEvent.setup();
    const db = await createTestDatabase();
    const ctx = { db, userId: USER_ID };
    const client = await createClient(ctx, { workspaceId: WS, name: 'Acme' });
    const invoice = await putPulled(db, { clientId: client.id });
    const view = await readInvoiceView(db, invoice.id, '2026-11-24');
    if (!view) throw new Error('no invoice');
    renderWithSync(<InvoicePayments view={view} locale="en-US" />, db);
    const amount = screen.getByRole('textbox', { name: 'Amount (EUR)' });
    expect((amount as HTMLInputElement).value).toBe('1000.00');
    await user.clear(amount);
    await user.type(amount, '1000.01');
    await user.click(screen.getByRole('button', { name: 'Record payment' }));
    expect(await screen.findByText(/more than the €1,000.00 still due/)).toBeTruthy();
    expect(await db.invoicePayments.count()).toBe(0);
    await user.clear(amount);
    await user.type(amount, '250');
    await user.click(screen.getByRole('button', { name: 'Record payment' }));
    await waitFor(async () => expect(await db.invoicePayments.count()).toBe(1));
    const [payment] = await db.invoicePayments.toArray();
    expect(payment).toMatchObject({ amount: 25_000, kind: 'payment', invoiceId: invoice.id });
    const queued = (await db.outbox.toArray()).at(-1);
    expect(queued).toMatchObject({
      entity: 'invoice-payment',
      operation: 'create-invoice-payment',
    });
    await expectAccessible();
  });
});

describe('money that reached an invoice beyond what it owes', () => {
  /** A card payment as the webhook records it, pulled to this device. */
  const putStripePayment = (db: AppDatabase, invoiceId: string, amount: number) =>
    db.invoicePayments.put({
      id: crypto.randomUUID(),
      workspaceId: WS,
      invoiceId,
      kind: 'payment',
      amount,
      method: 'stripe',
      paidOn: '2026-11-20',
      reference: 'Card payment (cs_test_1)',
      externalId: 'cs_test_1',
      createdAt: '2026-11-20T10:00:00.000Z',
      createdBy: USER_ID,
      updatedAt: '2026-11-20T10:00:00.000Z',
      updatedBy: USER_ID,
      version: 4,
      _v: 4,
      _pending: 0,
      _deleted: false,
      _base: {},
    });

  it('says an overpaid invoice owes the excess back', async () => {
    const db = await createTestDatabase();
    const invoice = await putPulled(db, {});
    await putStripePayment(db, invoice.id, 100_000);
    await putStripePayment(db, invoice.id, 30_000);
    const view = await readInvoiceView(db, invoice.id, '2026-11-24');
    if (!view) throw new Error('no invoice');
    renderWithSync(<InvoicePayments view={view} locale="en-US" />, db);
    expect(
      screen.getByText(
        '€300.00 more than was billed was paid: refund it to the client, then record the refund here.',
      ),
    ).toBeTruthy();
    expect(screen.getByText('Type')).toBeTruthy(); // a sent invoice still takes payments
  });

  it('takes only the refund of a payment that reached a void invoice', async () => {
    const user = userEvent.setup();
    const db = await createTestDatabase();
    const invoice = await putPulled(db, { status: 'void' });
    await putStripePayment(db, invoice.id, 100_000);
    const view = await readInvoiceView(db, invoice.id, '2026-11-24');
    if (!view) throw new Error('no invoice');
    renderWithSync(<InvoicePayments view={view} locale="en-US" />, db);
    expect(screen.getByText(/^€1,000.00 more than this void invoice owes was paid/)).toBeTruthy();
    expect(screen.queryByText('Type')).toBeNull(); // no "Payment received" to choose
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: 'Amount (EUR)' }).value).toBe(
      '1000.00',
    );
    await user.click(screen.getByRole('button', { name: 'Record refund' }));
    await waitFor(async () => expect(await db.invoicePayments.count()).toBe(2));
    const refund = (await db.invoicePayments.toArray()).find((row) => row.kind === 'refund');
    expect(refund).toMatchObject({ amount: 100_000, invoiceId: invoice.id });
    await expectAccessible();
  });
});

describe('billing a project’s approved changes', () => {
  it('offers the approved changes in the invoice’s currency, says which are billed, adds lines', async () => {
    const db = await createTestDatabase();
    const projectId = crypto.randomUUID();
    const change = async (values: Partial<LocalChangeRequest> & { title: string }) => {
      const row: LocalChangeRequest = {
        id: crypto.randomUUID(),
        workspaceId: WS,
        projectId,
        description: null,
        desiredDate: null,
        attachmentFileIds: [],
        status: 'approved',
        costImpact: 50_000,
        currency: 'EUR',
        scheduleImpactDays: null,
        answer: null,
        source: 'member',
        requestedBy: '',
        clientDecision: null,
        appliedAt: null,
        createdAt: '2026-03-01T10:00:00.000Z',
        createdBy: USER_ID,
        updatedAt: '2026-03-01T10:00:00.000Z',
        updatedBy: USER_ID,
        version: 2,
        _v: 2,
        _pending: 0,
        _deleted: false,
        _base: {},
        ...values,
      };
      await db.changeRequests.put(row);
      return row;
    };
    const darkMode = await change({ title: 'Dark mode', costImpact: 120_050 });
    const french = await change({ title: 'French version', status: 'accepted' });
    await change({ title: 'Declined idea', status: 'declined' });
    await change({ title: 'Still quoted', status: 'quoted' });
    await change({ title: 'In dollars', currency: 'USD' });
    await change({ title: 'Free tweak', costImpact: 0 });
    await putPulled(db, {
      number: 2,
      lines: [
        newInvoiceLine({ description: 'French', unitPrice: 50_000, changeRequestId: french.id }),
      ],
    });
    const draft = await putPulled(db, { status: 'draft', number: null, projectId, sentAt: null });
    const added: InvoiceLine[][] = [];
    const user = userEvent.setup();
    renderWithSync(
      <BillableLinesSheet
        kind="changes"
        invoice={draft}
        projectId={projectId}
        onClose={() => undefined}
        onAdd={(lines) => {
          added.push(lines);
          return Promise.resolve();
        }}
      />,
      db,
    );
    const group = await screen.findByRole('group', { name: 'Changes to bill' });
    const boxes = within(group).getAllByRole('checkbox');
    const offered = boxes.map((box) => box.closest('label')?.textContent ?? '');
    expect(offered).toHaveLength(2);
    expect(offered).toEqual(
      expect.arrayContaining([
        expect.stringContaining('Dark mode€1,200.50'),
        expect.stringContaining('French version€500.00Already on INV-0002'),
      ]),
    );
    await expectAccessible();
    await user.click(within(group).getByRole('checkbox', { name: /Dark mode/ }));
    await user.click(screen.getByRole('button', { name: 'Add 1 line' }));
    expect(added).toEqual([
      [
        expect.objectContaining({
          description: 'Dark mode',
          unitPrice: 120_050,
          quantity: 1,
          changeRequestId: darkMode.id,
          milestoneId: null,
        }),
      ],
    ]);
  });
});
