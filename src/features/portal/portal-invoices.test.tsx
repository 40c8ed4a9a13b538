import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CallEndpoint } from '#contract/define-endpoint.ts';
import type { PortalInvoice } from '#contract/endpoints/invoice.ts';
import { expectAccessible } from '../projects/project-screen-test-utils.tsx';
import { PortalInvoices } from './portal-invoices.tsx';
import { readPortalSavedPart, writePortalSavedPart } from './portal-saved-parts.ts';
import { memoryStorage } from './portal-test-api.ts';

afterEach(cleanup);
/** Each test's own device, so no saved copy leaks from one test into the next. */
let storage = memoryStorage();
beforeEach(() => {
  storage = memoryStorage();
});

const invoice = (values: Partial<PortalInvoice>): PortalInvoice => ({
  id: crypto.randomUUID(),
  number: 7,
  title: 'Website',
  currency: 'EUR',
  issueDate: '2026-11-01',
  dueDate: '2026-12-01',
  lines: [
    {
      id: 'l1',
      description: 'Design',
      quantity: 2,
      unitPrice: 25_000,
      taxRate: 0,
      discountPercent: 0,
    },
  ],
  notes: null,
  total: 50_000,
  paid: 20_000,
  due: 30_000,
  state: 'partly_paid',
  payable: true,
  ...values,
});

function api(answer: {
  invoices: PortalInvoice[];
  paymentInstructions: string | null;
  business?: { name: string; address: string | null; logoUrl: string | null; locale: string };
  billTo?: { name: string; company: string | null; email: string | null; address: string | null };
}) {
  const calls: { operation: string; input: unknown }[] = [];
  const callEndpoint = ((endpoint: { operation: string }, input: unknown) => {
    calls.push({ operation: endpoint.operation, input });
    if (endpoint.operation === 'get-invoices') return Promise.resolve(answer);
    return Promise.resolve({ url: 'https://checkout.stripe.test/cs_1' });
  }) as unknown as CallEndpoint;
  return { callEndpoint, calls };
}

/** The section on project p1 with the test's storage, online unless `offline`. */
const invoicesOf = (callEndpoint: CallEndpoint, offline = false) => (
  <PortalInvoices callEndpoint={callEndpoint} projectId="p1" offline={offline} storage={storage} />
);

describe('the portal’s invoices', () => {
  it('offers to pay what is due by card and opens Stripe’s page', async () => {
    const user = userEvent.setup();
    const opened: string[] = [];
    const due = invoice({});
    const { callEndpoint, calls } = api({
      invoices: [due, invoice({ number: 6, due: 0, paid: 50_000, state: 'paid', payable: false })],
      paymentInstructions: null,
    });
    render(
      <PortalInvoices
        storage={storage}
        callEndpoint={callEndpoint}
        projectId="p1"
        offline={false}
        go={(url) => opened.push(url)}
      />,
    );
    expect(await screen.findByRole('heading', { name: 'Invoices' })).toBeTruthy();
    expect(screen.getByText('INV-0007 · Website')).toBeTruthy();
    expect(screen.getByText(/Partly paid · Issued/)).toBeTruthy();
    expect(screen.getAllByRole('button', { name: /by card/ })).toHaveLength(1);
    await user.click(screen.getByRole('button', { name: 'Pay €300.00 by card' }));
    await waitFor(() => expect(opened).toEqual(['https://checkout.stripe.test/cs_1']));
    expect(calls.at(-1)).toMatchObject({
      operation: 'pay-invoice',
      input: { body: { projectId: 'p1', invoiceId: due.id } },
    });
    await expectAccessible();
  });

  it('says how to pay when cards are not taken, and cannot pay offline', async () => {
    const { callEndpoint } = api({
      invoices: [invoice({ payable: false })],
      paymentInstructions: 'IBAN DE00 1234',
    });
    const { rerender } = render(invoicesOf(callEndpoint));
    expect(await screen.findByText('IBAN DE00 1234')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /by card/ })).toBeNull();
    const payable = api({ invoices: [invoice({})], paymentInstructions: null });
    rerender(invoicesOf(payable.callEndpoint, true));
    expect(
      screen.getByText(/You are offline: paying needs a connection, and so does the PDF/),
    ).toBeTruthy();
  });

  it('says whom to ask when cards are not taken and there are no payment instructions', async () => {
    const { callEndpoint } = api({
      invoices: [invoice({ payable: false }), invoice({ id: 'paid', due: 0, payable: false })],
      paymentInstructions: null,
      business: { name: 'Studio Nord', address: null, logoUrl: null, locale: 'en-US' },
    });
    render(invoicesOf(callEndpoint));
    expect(
      await screen.findByText(
        'Ask Studio Nord how to pay: they have not added payment details here yet.',
      ),
    ).toBeTruthy();
    expect(screen.queryByRole('button', { name: /by card/ })).toBeNull();
    await expectAccessible();
  });

  it('says nothing of paying when nothing is due', async () => {
    const { callEndpoint } = api({
      invoices: [invoice({ due: 0, paid: 50_000, state: 'paid', payable: false })],
      paymentInstructions: null,
    });
    render(invoicesOf(callEndpoint));
    expect(await screen.findByText('INV-0007 · Website')).toBeTruthy();
    expect(screen.queryByText('How to pay')).toBeNull();
  });

  it('shows nothing for a project with no invoices', async () => {
    const { callEndpoint, calls } = api({ invoices: [], paymentInstructions: null });
    const { container } = render(invoicesOf(callEndpoint));
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(container.textContent).toBe('');
  });

  it('shows the invoice as the PDF does, and downloads the PDF with the portal cookie', async () => {
    const user = userEvent.setup();
    const due = invoice({
      paymentTerms: 'net_30',
      lines: [
        {
          id: 'l1',
          description: 'Design',
          quantity: 2,
          unitPrice: 25_000,
          taxRate: 10,
          discountPercent: 10,
        },
      ],
    });
    const { callEndpoint } = api({
      invoices: [due],
      paymentInstructions: null,
      business: {
        name: 'Studio North',
        address: '1 Harbour St\nOslo',
        logoUrl: null,
        locale: 'en-US',
      },
      billTo: { name: 'Acme', company: null, email: 'ap@acme.test', address: null },
    });
    const fetched: { url: string; init: RequestInit }[] = [];
    const fetchMock = vi.fn((url: string, init: RequestInit) => {
      fetched.push({ url, init });
      return Promise.resolve(
        new Response(new Blob(['%PDF-1.3']), {
          headers: { 'Content-Disposition': 'attachment; filename="Invoice-0007.pdf"' },
        }),
      );
    });
    vi.stubGlobal('fetch', fetchMock);
    URL.createObjectURL = vi.fn(() => 'blob:pdf');
    URL.revokeObjectURL = vi.fn();
    try {
      render(invoicesOf(callEndpoint));
      await user.click(await screen.findByText('1 line'));
      expect(screen.getByText('Studio North')).toBeTruthy();
      expect(screen.getByText('1 Harbour St')).toBeTruthy();
      expect(screen.getByText('ap@acme.test')).toBeTruthy();
      expect(screen.getByText('10% off (−€50.00)')).toBeTruthy();
      expect(screen.getByText('Balance due')).toBeTruthy();
      expect(screen.getByText('Net 30')).toBeTruthy();
      await expectAccessible();
      await user.click(screen.getByRole('button', { name: 'Download PDF' }));
      await waitFor(() => expect(fetched).toHaveLength(1));
      expect(fetched[0]!.url).toBe(
        `/api/client-portal?endpoint=get-invoice-pdf&projectId=p1&invoiceId=${due.id}`,
      );
      expect(fetched[0]!.init.credentials).toBe('same-origin');
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('says the PDF needs a connection offline', async () => {
    const { callEndpoint } = api({ invoices: [invoice({})], paymentInstructions: null });
    const { rerender } = render(invoicesOf(callEndpoint));
    expect(await screen.findByRole('button', { name: 'Download PDF' })).toBeTruthy();
    rerender(invoicesOf(callEndpoint, true));
    expect(screen.getByRole('button', { name: 'Download PDF' }).hasAttribute('disabled')).toBe(
      true,
    );
    expect(screen.getByText('The PDF needs a connection.')).toBeTruthy();
  });

  it('keeps each answer on the device; offline, shows it as saved with Pay and the PDF off, saying why', async () => {
    const due = invoice({ notes: 'Thanks for your business' });
    const answer = {
      invoices: [due],
      paymentInstructions: null,
      business: { name: 'Studio North', address: null, logoUrl: null, locale: 'en-US' },
      billTo: { name: 'Acme', company: null, email: null, address: null },
    };
    const online = api(answer);
    const savedAt = Date.parse('2026-11-20T10:30:00.000Z');
    const first = render(
      <PortalInvoices
        callEndpoint={online.callEndpoint}
        projectId="p1"
        offline={false}
        storage={storage}
        now={() => savedAt}
      />,
    );
    await screen.findByText('INV-0007 · Website');
    expect(readPortalSavedPart(storage, 'p1', 'invoices')).toEqual({ savedAt, answer });
    first.unmount();

    // The page opened again without a network: nothing is asked, the copy is shown.
    const offline = api({ invoices: [], paymentInstructions: null });
    render(invoicesOf(offline.callEndpoint, true));
    expect(offline.calls).toEqual([]);
    expect(screen.getByRole('heading', { name: 'Invoices' })).toBeTruthy();
    expect(screen.getByText('INV-0007 · Website')).toBeTruthy();
    const reason = screen.getByText(
      /You are offline: paying needs a connection, and so does the PDF/,
    );
    expect(reason.textContent).toMatch(/as saved on this device, as of/);
    const pay = screen.getByRole('button', { name: 'Pay €300.00 by card' });
    expect(pay.hasAttribute('disabled')).toBe(true);
    // The disabled button carries the reason (read out with it), not just a greyed look.
    expect(pay.getAttribute('aria-describedby')).toBe(reason.closest('p')!.id);
    expect(screen.getByRole('button', { name: 'Download PDF' }).hasAttribute('disabled')).toBe(
      true,
    );
    // The invoice's document is built from the copy: parties, lines and totals.
    await userEvent.setup().click(screen.getByText('1 line'));
    expect(screen.getByText('Studio North')).toBeTruthy();
    expect(screen.getByText('Thanks for your business')).toBeTruthy();
    await expectAccessible();
  });

  it('drops a saved copy that no longer reads', () => {
    storage.setItem('satchel-portal-snapshot:p1:invoices', JSON.stringify({ savedAt: 1 }));
    expect(readPortalSavedPart(storage, 'p1', 'invoices')).toBeNull();
    writePortalSavedPart(storage, 'p1', 'invoices', null);
    expect(storage.getItem('satchel-portal-snapshot:p1:invoices')).toBeNull();
  });
});
