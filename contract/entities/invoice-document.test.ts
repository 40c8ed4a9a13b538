import { describe, expect, it } from 'vitest';
import {
  embeddableLogo,
  invoiceBusiness,
  invoiceDocument,
  invoiceDocumentFromRows,
  invoiceFileName,
  type InvoiceBusiness,
  type InvoiceDocumentInput,
} from './invoice-document.ts';

const business: InvoiceBusiness = {
  name: 'Studio North',
  address: '1 Harbour St\n\nOslo 0150',
  logoUrl: null,
  locale: 'en-US',
  paymentInstructions: 'IBAN NO00 1234',
};

const line = (id: string, quantity: number, unitPrice: number, taxRate = 0, discount = 0) => ({
  id,
  description: `Line ${id}`,
  quantity,
  unitPrice,
  taxRate,
  discountPercent: discount,
});

function input(overrides: Partial<InvoiceDocumentInput> = {}): InvoiceDocumentInput {
  return {
    invoice: {
      number: 7,
      title: 'Website',
      currency: 'USD',
      issueDate: '2026-03-01',
      dueDate: '2026-03-31',
      paymentTerms: 'net_30',
      lines: [line('a', 2, 10_000, 10), line('b', 1, 5_000, 0, 10)],
      notes: ' Thanks! ',
    },
    state: 'sent',
    paid: 0,
    client: { name: 'Ada', company: 'Ada Ltd', address: 'Road 1\nTown', email: 'ada@example.com' },
    business,
    ...overrides,
  };
}

describe('invoiceDocument', () => {
  it('writes a sent invoice: number, dates, lines and totals that add up', () => {
    const doc = invoiceDocument(input());
    expect(doc.heading).toBe('INV-0007');
    expect(doc.fileName).toBe('Invoice-0007.pdf');
    expect(doc.dates).toEqual([
      { label: 'Issued', value: 'Mar 1, 2026' },
      { label: 'Due', value: 'Mar 31, 2026' },
      { label: 'Terms', value: 'Net 30' },
    ]);
    expect(doc.lines).toEqual([
      {
        id: 'a',
        description: 'Line a',
        discountNote: null,
        quantity: '2',
        unitPrice: '$100.00',
        taxRate: '10%',
        amount: '$200.00',
      },
      {
        id: 'b',
        description: 'Line b',
        discountNote: '10% off (−$5.00)',
        quantity: '1',
        unitPrice: '$50.00',
        taxRate: '0%',
        amount: '$50.00',
      },
    ]);
    expect(doc.totals.map((row) => [row.label, row.value])).toEqual([
      ['Subtotal', '$250.00'],
      ['Discount', '−$5.00'],
      ['Tax', '$20.00'],
      ['Total', '$265.00'],
      ['Paid', '$0.00'],
      ['Balance due', '$265.00'],
    ]);
    expect(doc.from.addressLines).toEqual(['1 Harbour St', 'Oslo 0150']);
    expect(doc.billTo).toEqual({
      name: 'Ada',
      lines: ['Ada Ltd', 'Road 1', 'Town', 'ada@example.com'],
    });
    expect(doc.notes).toBe('Thanks!');
    expect(doc.paymentInstructions).toBe('IBAN NO00 1234');
  });

  it.each([
    // state, number, paid → heading, file name, last total row, instructions shown
    ['draft', null, 0, 'Draft invoice', 'Invoice-draft.pdf', 'Total', true],
    ['partly_paid', 12, 10_000, 'INV-0012', 'Invoice-0012.pdf', 'Balance due: $165.00', true],
    ['paid', 3, 26_500, 'INV-0003', 'Invoice-0003.pdf', 'Balance due: $0.00', false],
    ['void', 4, 0, 'INV-0004', 'Invoice-0004.pdf', 'Total', false],
  ] as const)(
    '%s invoice (number %s, paid %s)',
    (state, number, paid, heading, fileName, last, instructions) => {
      const base = input();
      const doc = invoiceDocument({ ...base, state, paid, invoice: { ...base.invoice, number } });
      expect(doc.heading).toBe(heading);
      expect(doc.draft).toBe(number === null);
      expect(doc.fileName).toBe(fileName);
      const row = doc.totals.at(-1)!;
      expect(row.label === 'Total' ? 'Total' : `${row.label}: ${row.value}`).toBe(last);
      expect(doc.paymentInstructions !== null).toBe(instructions);
    },
  );

  it('writes money and dates in the workspace locale and the invoice currency', () => {
    const base = input();
    const doc = invoiceDocument({
      ...base,
      business: { ...business, locale: 'de-DE' },
      invoice: { ...base.invoice, currency: 'JPY', lines: [line('y', 1.5, 1001, 8.875)] },
    });
    expect(doc.lines[0]!.quantity).toBe('1,5');
    expect(doc.lines[0]!.taxRate).toBe('8,875%');
    expect(doc.lines[0]!.amount).toBe('1.502\u00a0¥'); // 1501.5 → 1502, half away from zero
    expect(doc.dates[0]!.value).toBe('01.03.2026');
  });

  it('says when a draft will be dated, and leaves out unknown client and empty notes', () => {
    const base = input();
    const doc = invoiceDocument({
      ...base,
      state: 'draft',
      client: null,
      invoice: { ...base.invoice, number: null, issueDate: null, dueDate: null, notes: '  ' },
    });
    expect(doc.dates).toEqual([
      { label: 'Issued', value: 'When sent' },
      { label: 'Terms', value: 'Net 30' },
    ]);
    expect(doc.billTo).toBeNull();
    expect(doc.notes).toBeNull();
  });

  it('derives state and paid from rows', () => {
    const base = input();
    const doc = invoiceDocumentFromRows({
      invoice: { ...base.invoice, status: 'sent', viewedAt: null },
      payments: [
        { kind: 'payment', amount: 30_000 },
        { kind: 'refund', amount: 3_500 },
      ],
      client: base.client,
      business,
      today: '2026-03-02',
    });
    expect(doc.state).toBe('paid');
    expect(doc.totals.at(-2)).toEqual({ label: 'Paid', value: '$265.00', strong: false });
  });
});

describe('logos and business details', () => {
  it.each([
    ['data:image/png;base64,iVBORw0KGgo=', true],
    ['data:image/jpeg;base64,/9j/4AAQ', true],
    ['data:image/svg+xml,<svg/>', false],
    ['https://example.com/logo.png', false],
    ['http://169.254.169.254/latest', false],
    ['file:///etc/passwd', false],
    [null, false],
  ])('%s embeddable: %s', (url, ok) => {
    expect(embeddableLogo(url) !== null).toBe(ok);
  });

  it('reads address and instructions from settings, trimmed, empty as none', () => {
    expect(
      invoiceBusiness({
        name: 'W',
        logoUrl: 'https://x.test/l.png',
        locale: 'not a locale!',
        settings: { businessAddress: '  ', paymentInstructions: ' Pay ' },
      }),
    ).toEqual({
      name: 'W',
      address: null,
      logoUrl: null,
      locale: 'en-US',
      paymentInstructions: 'Pay',
    });
    expect(invoiceFileName(123)).toBe('Invoice-0123.pdf');
  });
});
