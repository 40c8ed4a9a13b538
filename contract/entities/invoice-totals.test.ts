import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { invoiceEntity, invoiceLineSchema } from './invoice.ts';
import {
  amountDue,
  amountPaid,
  currencyDigits,
  formatMoney,
  invoiceState,
  invoiceTotals,
  lineAmounts,
  MAX_LINE_GROSS,
  minorToInput,
  parseMoney,
} from './invoice-totals.ts';

const line = (quantity: number, unitPrice: number, taxRate = 0, discountPercent = 0) => ({
  quantity,
  unitPrice,
  taxRate,
  discountPercent,
});

describe('lineAmounts rounds each step half away from zero', () => {
  it.each([
    // quantity, unit price, tax %, discount %, → gross, discount, net, tax, total
    [1, 10_000, 0, 0, 10_000, 0, 10_000, 0, 10_000],
    [1.5, 3333, 0, 0, 5000, 0, 5000, 0, 5000], // 4999.5 → 5000
    [0.333, 100, 0, 0, 33, 0, 33, 0, 33], // 33.3 → 33
    [2, 999, 8.875, 0, 1998, 0, 1998, 177, 2175], // 177.3225 → 177
    [1, 1, 50, 0, 1, 0, 1, 1, 2], // 0.5 → 1 (half up, not banker's)
    [1, 3, 50, 0, 3, 0, 3, 2, 5], // 1.5 → 2
    [1, 5, 0, 10, 5, 1, 4, 0, 4], // 0.5 → 1
    [3, 1000, 20, 12.5, 3000, 375, 2625, 525, 3150],
    [0, 1000, 20, 0, 0, 0, 0, 0, 0],
    // The largest line the contract takes, every figure still exact: 1e15 gross, 100 % tax.
    [
      1000, 1_000_000_000_000, 100, 0.001, 1e15, 1e10, 999_990_000_000_000, 999_990_000_000_000,
      1_999_980_000_000_000,
    ],
    [1_000_000, 1_000_000_000, 100, 99.999, 1e15, 999_990_000_000_000, 1e10, 1e10, 2e10],
  ])(
    '%s × %s at %s percent tax, %s percent off',
    (q, price, tax, off, gross, discount, net, taxAmount, total) => {
      expect(lineAmounts(line(q, price, tax, off))).toEqual({
        gross,
        discount,
        net,
        tax: taxAmount,
        total,
      });
    },
  );

  it('sums rounded lines, so the printed lines add up to the printed total', () => {
    // Three lines of 0.5 cent of tax each: 1 + 1 + 1, not round(1.5) = 2.
    const totals = invoiceTotals([line(1, 1, 50), line(1, 1, 50), line(1, 1, 50)]);
    expect(totals).toEqual({ subtotal: 3, discount: 0, net: 3, tax: 3, total: 6 });
    expect(invoiceTotals([])).toEqual({ subtotal: 0, discount: 0, net: 0, tax: 0, total: 0 });
  });
});

describe('a line stays within exact integers', () => {
  const full = (quantity: number, unitPrice: number, discountPercent = 0) => ({
    id: '0190d4a6-4c8e-7000-8000-000000000001',
    description: 'Work',
    ...line(quantity, unitPrice, 0, discountPercent),
    milestoneId: null,
    changeRequestId: null,
  });
  const refusal = 'Quantity × unit price is too large for one line';

  it.each([
    // quantity, unit price, discount % → the refusal, or null when the contract takes it
    [999_999.999, 999_999_999_999, 99.99, refusal], // the audit's line: gross ≈ 1e18 > 2^53
    [1_000_000, 1_000_000_000_000, 0, refusal], // each at its own maximum
    [1000.001, 1_000_000_000_000, 0, refusal], // one thousandth of a unit over
    [1_000_000, 1_000_000_001, 0, refusal], // one cent a unit over
    [1000, 1_000_000_000_000, 0, null], // exactly MAX_LINE_GROSS
    [1_000_000, 1_000_000_000, 99.999, null],
    [0.001, 1_000_000_000_000, 0, null],
  ])('%s × %s at %s percent off: %s', (quantity, unitPrice, discount, message) => {
    const parsed = v.safeParse(invoiceLineSchema, full(quantity, unitPrice, discount));
    if (message === null) {
      expect(parsed.success).toBe(true);
      const amounts = lineAmounts(full(quantity, unitPrice, discount));
      expect(amounts.gross).toBeLessThanOrEqual(MAX_LINE_GROSS);
      expect(amounts.gross - amounts.discount).toBe(amounts.net);
      expect(Number.isSafeInteger(amounts.total)).toBe(true);
      return;
    }
    expect(parsed.success).toBe(false);
    // Under the price field (the editor shows issues by their first key), naming both factors.
    expect(parsed.issues?.map((issue) => [v.getDotPath(issue), issue.message])).toContainEqual([
      'unitPrice',
      message,
    ]);
  });

  it('refuses an invoice whose lines add up past the limit before discounts', () => {
    // Two lines at the limit, fully discounted: a total of 0, a subtotal of 2e15.
    const lines = ['1', '2'].map((n) => ({
      ...full(1000, 1_000_000_000_000, 100),
      id: `0190d4a6-4c8e-7000-8000-00000000000${n}`,
    }));
    const base = {
      id: '0190d4a6-4c8e-7000-8000-0000000000aa',
      workspaceId: '0190d4a6-4c8e-7000-8000-0000000000bb',
      clientId: '0190d4a6-4c8e-7000-8000-0000000000cc',
    };
    const refused = v.safeParse(invoiceEntity.createSchema, { ...base, lines });
    expect(refused.success).toBe(false);
    expect(refused.issues?.map((issue) => [v.getDotPath(issue), issue.message])).toEqual([
      ['lines', 'The lines add up to too much before discounts'],
    ]);
    expect(
      v.safeParse(invoiceEntity.createSchema, { ...base, lines: lines.slice(0, 1) }).success,
    ).toBe(true);
    expect(v.safeParse(invoiceEntity.updateSchema, { lines }).success).toBe(false);
  });
});

describe('payments and state', () => {
  it('counts refunds against payments', () => {
    expect(
      amountPaid([
        { kind: 'payment', amount: 500 },
        { kind: 'payment', amount: 300 },
        { kind: 'refund', amount: 200 },
      ]),
    ).toBe(600);
    expect(amountDue(1000, 600)).toBe(400);
    expect(amountDue(1000, 1200)).toBe(0);
  });

  const base = {
    status: 'sent' as const,
    dueDate: '2026-12-01',
    viewedAt: null,
    total: 1000,
    paid: 0,
  };
  it.each([
    [{ status: 'draft' as const }, 'draft'],
    [{ status: 'void' as const, paid: 1000 }, 'void'],
    [{}, 'sent'],
    [{ viewedAt: '2026-11-20T10:00:00Z' }, 'viewed'],
    [{ paid: 400 }, 'partly_paid'],
    [{ paid: 1000 }, 'paid'],
    [{ paid: 1000, dueDate: '2026-11-01' }, 'paid'],
    [{ dueDate: '2026-11-01' }, 'overdue'],
    [{ paid: 400, dueDate: '2026-11-01' }, 'overdue'],
    [{ dueDate: '2026-11-24' }, 'sent'], // due today is not late
  ])('%o is %s on 2026-11-24', (overrides, state) => {
    expect(invoiceState({ ...base, ...overrides }, '2026-11-24')).toBe(state);
  });
});

describe('money in words and back', () => {
  it.each([
    ['EUR', 2],
    ['JPY', 0],
    ['KWD', 3],
  ])('%s has %i minor digits', (currency, digits) => {
    expect(currencyDigits(currency)).toBe(digits);
  });

  it('formats minor units in the currency', () => {
    expect(formatMoney(123_450, 'EUR', 'en-US')).toBe('€1,234.50');
    expect(formatMoney(5000, 'JPY', 'en-US')).toBe('¥5,000');
    expect(formatMoney(1, 'KWD', 'en-US').replace(/\s/g, ' ')).toBe('KWD 0.001');
  });

  it.each([
    ['1234.5', 'EUR', 123_450],
    ['1,234.56', 'USD', 123_456],
    ['12', 'JPY', 12],
    ['0.001', 'KWD', 1],
    ['1.234', 'EUR', null],
    ['12.5', 'JPY', null],
    ['-5', 'EUR', null],
    ['abc', 'EUR', null],
    ['', 'EUR', null],
  ])('parses %s %s as %s', (input, currency, minor) => {
    expect(parseMoney(input, currency)).toBe(minor);
  });

  it('writes minor units back as an editable amount', () => {
    expect(minorToInput(123_450, 'EUR')).toBe('1234.50');
    expect(minorToInput(5, 'EUR')).toBe('0.05');
    expect(minorToInput(5000, 'JPY')).toBe('5000');
  });
});
