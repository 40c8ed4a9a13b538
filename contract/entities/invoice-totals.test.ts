import { describe, expect, it } from 'vitest';
import {
  amountDue,
  amountPaid,
  currencyDigits,
  formatMoney,
  invoiceState,
  invoiceTotals,
  lineAmounts,
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
    [1_000_000, 1_000_000_000_000, 0, 0, 1e18, 0, 1e18, 0, 1e18], // BigInt keeps it exact
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
