/**
 * The invoice page as a whole, under a tiny router whose context carries the API (Send is a
 * direct call): what Send refuses before asking the server, where focus goes after Send and
 * after a payment, and dates written as on the invoice's header.
 */
import { RouterProvider } from '@tanstack/react-router';
import { createTestRouter } from '../test-router.tsx';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CallEndpoint } from '#contract/define-endpoint.ts';
import type { AppDatabase } from '../../db/app-database.ts';
import { newInvoiceLine, readInvoiceView, type LocalInvoice } from '../../data/invoices.ts';
import {
  createTestDatabase,
  renderWithSync,
  USER_ID,
  WS,
} from '../projects/project-screen-test-utils.tsx';
import { InvoiceList } from './invoice-list.tsx';
import { InvoiceScreen } from './invoice-screen.tsx';

afterEach(cleanup);

async function putInvoice(db: AppDatabase, values: Partial<LocalInvoice>): Promise<LocalInvoice> {
  const row: LocalInvoice = {
    id: crypto.randomUUID(),
    workspaceId: WS,
    clientId: 'c1',
    title: 'Invoice',
    projectId: null,
    status: 'draft',
    number: null,
    currency: 'USD',
    issueDate: null,
    dueDate: null,
    paymentTerms: 'net_30',
    lines: [newInvoiceLine({ description: 'Design', unitPrice: 100_000 })],
    notes: null,
    sentAt: null,
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

/** Sent on Nov 1, due Jan 10: open for payments. */
const SENT = {
  status: 'sent',
  number: 1,
  issueDate: '2026-11-01',
  dueDate: '2027-01-10',
  sentAt: '2026-11-01T10:00:00.000Z',
} as const;

/** The fake API: a mock, whose generic call signature the compiler cannot match, hence the cast. */
function renderInvoice(
  db: AppDatabase,
  invoiceId: string,
  call: (...args: never[]) => Promise<unknown>,
) {
  const callEndpoint = call as unknown as CallEndpoint;
  const router = createTestRouter(
    { '/invoices/$invoiceId': () => <InvoiceScreen invoiceId={invoiceId} />, '/invoices': null },
    `/invoices/${invoiceId}`,
    { api: { callEndpoint } },
  );
  return renderWithSync(<RouterProvider router={router} />, db);
}

/** A date typed into a date field, then left (its save runs on blur). */
function setDate(label: string, value: string) {
  const input = screen.getByLabelText(label);
  input.focus();
  fireEvent.change(input, { target: { value } });
  input.blur();
}

describe('sending a draft', () => {
  it('refuses a due date before the issue date before asking the server, and says so', async () => {
    const db = await createTestDatabase();
    const invoice = await putInvoice(db, { paymentTerms: 'custom' });
    const call = vi.fn();
    renderInvoice(db, invoice.id, call);
    const user = userEvent.setup();
    expect(await screen.findByText('Required before sending.')).toBeTruthy();

    setDate('Issue date', '2026-12-20');
    await waitFor(async () =>
      expect((await db.invoices.get(invoice.id))?.issueDate).toBe('2026-12-20'),
    );
    setDate('Due date', '2026-12-01');
    expect(await screen.findByText('The due date cannot be before the issue date')).toBeTruthy();
    // A date is there: "Required" would say otherwise.
    expect(screen.queryByText('Required before sending.')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Send invoice' }));
    expect(
      await screen.findByText(
        'The due date is before the issue date: change one of them before sending.',
      ),
    ).toBeTruthy();
    expect(call).not.toHaveBeenCalled();
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Due date')));
    // The refused date stays as typed; the stored draft has none.
    expect(screen.getByLabelText<HTMLInputElement>('Due date').value).toBe('2026-12-01');
    expect((await db.invoices.get(invoice.id))?.dueDate).toBeNull();
  });

  it('refuses custom terms without a due date before asking the server', async () => {
    const db = await createTestDatabase();
    const invoice = await putInvoice(db, { paymentTerms: 'custom' });
    const call = vi.fn();
    renderInvoice(db, invoice.id, call);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Send invoice' }));
    expect(
      await screen.findByText('Choose a due date before sending, or payment terms that set one.'),
    ).toBeTruthy();
    expect(call).not.toHaveBeenCalled();
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Due date')));
  });

  it('keeps a refused price as typed, stores the last valid one, and will not send it', async () => {
    const db = await createTestDatabase();
    const invoice = await putInvoice(db, {});
    const call = vi.fn();
    renderInvoice(db, invoice.id, call);
    const user = userEvent.setup();
    const price = await screen.findByRole('textbox', { name: 'Price (USD), line 1' });
    await user.clear(price);
    await user.type(price, '99999999999');
    await user.tab();
    expect(await screen.findByText('That price is too large')).toBeTruthy();
    expect((price as HTMLInputElement).value).toBe('99999999999');
    expect((await db.invoices.get(invoice.id))?.lines[0]?.unitPrice).toBe(100_000);

    await user.click(screen.getByRole('button', { name: 'Send invoice' }));
    expect(await screen.findByText('Line 1: That price is too large')).toBeTruthy();
    expect(call).not.toHaveBeenCalled();
    await waitFor(() => expect(document.activeElement).toBe(price));
  });

  it('moves focus to the sent invoice’s heading, not the page’s body', async () => {
    const db = await createTestDatabase();
    const invoice = await putInvoice(db, {});
    // The server numbers it; the pull that follows brings the sent row.
    const call = vi.fn(async () => {
      const sent = { ...invoice, status: 'sent' as const, number: 1, issueDate: '2026-11-24' };
      await db.invoices.put({ ...sent, dueDate: '2026-12-24' });
      return { invoice: sent, emailed: true };
    });
    renderInvoice(db, invoice.id, call);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Send invoice' }));
    const heading = await screen.findByRole('heading', { level: 1, name: 'INV-0001' });
    expect(call).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(document.activeElement).toBe(heading));
  });
});

describe('payments on the invoice page', () => {
  it('writes dates as the header does and focuses the payment just recorded', async () => {
    const db = await createTestDatabase();
    const invoice = await putInvoice(db, SENT);
    renderInvoice(db, invoice.id, vi.fn());
    const user = userEvent.setup();
    const dates = await screen.findByRole('region', { name: 'From, bill to and dates' });
    expect(within(dates).getByText('Jan 10, 2027')).toBeTruthy();

    setDate('Date', '2026-11-29');
    const record = screen.getByRole('button', { name: 'Record payment' });
    await user.click(record);
    const payments = await screen.findByRole('list', { name: 'Payments and refunds' });
    const row = within(payments).getByText(/^Payment ·/);
    expect(row.textContent).toBe('Payment · Bank transfer · Nov 29, 2026');
    expect(
      within(payments).getByRole('button', {
        name: 'Remove the payment of $1,000.00 on Nov 29, 2026',
      }),
    ).toBeTruthy();
    // Paid in full: the focused button is disabled, focus is on what was recorded.
    await waitFor(() => expect(record.hasAttribute('disabled')).toBe(true));
    await waitFor(() => expect(document.activeElement).toBe(row.closest('li')));
  });

  it('offers a refund what was paid, then goes back to the payment still due', async () => {
    const db = await createTestDatabase();
    const invoice = await putInvoice(db, SENT);
    renderInvoice(db, invoice.id, vi.fn());
    const user = userEvent.setup();
    const amount = await screen.findByRole<HTMLInputElement>('textbox', { name: /^Amount/ });
    expect(amount.value).toBe('1000.00');

    await user.clear(amount);
    await user.type(amount, '400');
    await user.click(screen.getByRole('button', { name: 'Record payment' }));
    await waitFor(() => expect(amount.value).toBe('600.00'));

    // A refund suggests what was paid, not what is still due.
    await user.click(screen.getByRole('button', { name: /Type/ }));
    await user.click(await screen.findByRole('option', { name: 'Refund given' }));
    expect(amount.value).toBe('400.00');
    await user.clear(amount);
    await user.type(amount, '100');
    await user.click(screen.getByRole('button', { name: 'Record refund' }));

    // Recorded: the form is a payment again, of what is now due.
    await waitFor(() => expect(amount.value).toBe('700.00'));
    expect(screen.getByRole('button', { name: /Type/ }).textContent).toContain('Payment received');
    expect(screen.getByRole('button', { name: 'Record payment' })).toBeTruthy();
    const kinds = (await db.invoicePayments.toArray()).map((row) => [row.kind, row.amount]);
    expect(kinds.sort()).toEqual([
      ['payment', 40_000],
      ['refund', 10_000],
    ]);
  });
});

describe('the invoices list', () => {
  it('writes a due date as the invoice’s header does', async () => {
    const db = await createTestDatabase();
    const invoice = await putInvoice(db, SENT);
    const view = await readInvoiceView(db, invoice.id, '2026-11-24');
    if (!view) throw new Error('no invoice');
    const router = createTestRouter(
      {
        '/invoices': () => (
          <InvoiceList views={[view]} clientNames={new Map([['c1', 'Acme']])} locale="en-US" />
        ),
        '/invoices/$invoiceId': null,
      },
      '/invoices',
    );
    renderWithSync(<RouterProvider router={router} />, db);
    const link = await screen.findByRole('link', { name: /INV-0001/ });
    expect(within(link).getByText('Due Jan 10, 2027')).toBeTruthy();
  });
});
