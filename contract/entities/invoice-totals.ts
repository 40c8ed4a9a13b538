/**
 * Invoice arithmetic (issue 16), the one copy the device, the server, the portal and the PDF use.
 *
 * Invariants:
 * - Amounts are integers in the currency's minor units end to end (cents; yen have none). No
 *   float ever holds money: a quantity (up to 3 decimals) is scaled to thousandths and a rate
 *   (up to 3 decimals of a percent) to thousandths of a percent, and the products are BigInt.
 *   The contract bounds each line's gross (MAX_LINE_GROSS) and the invoice's subtotal and total,
 *   so every figure handed out as a number is an exact integer.
 * - Rounding is per line, half away from zero, in this order: gross = quantity × unit price,
 *   discount = gross × discount %, tax = (gross − discount) × tax %. The invoice's figures are
 *   sums of its lines' rounded figures, so the lines printed always add up to the total printed.
 * - What is paid is the sum of payments minus the sum of refunds; the invoice's state is derived
 *   from its stored status (draft, sent or void), its payments and today's date, never stored,
 *   so two devices recording payments offline cannot disagree about it.
 */

export const QUANTITY_SCALE = 1000;
/**
 * The most one line may come to before discount and tax (minor units; the contract refuses more).
 * Its other figures are at most twice it (tax is at most 100 % of the net), so all of them stay
 * exact doubles (< Number.MAX_SAFE_INTEGER ≈ 9.007e15); the limits on quantity and price alone
 * would let a line's gross reach 1e18, where `gross − discount` stops equalling `net`.
 */
export const MAX_LINE_GROSS = 1_000_000_000_000_000;
/** Rates are percents with up to 3 decimals: 8.875 % is 8875 thousandths. */
const RATE_SCALE = 1000;

export interface InvoiceLineInput {
  readonly quantity: number;
  /** Minor units per unit. */
  readonly unitPrice: number;
  /** Percent, 0 to 100. */
  readonly taxRate: number;
  /** Percent, 0 to 100. */
  readonly discountPercent: number;
}

export interface LineAmounts {
  readonly gross: number;
  readonly discount: number;
  /** gross − discount: what tax is charged on. */
  readonly net: number;
  readonly tax: number;
  /** net + tax. */
  readonly total: number;
}

export interface InvoiceTotals {
  readonly subtotal: number;
  readonly discount: number;
  readonly net: number;
  readonly tax: number;
  readonly total: number;
}

/** n / d rounded half away from zero, d > 0. */
function divRound(n: bigint, d: bigint): bigint {
  const q = n / d;
  const r = n % d;
  if (r === 0n) return q;
  const twice = (r < 0n ? -r : r) * 2n;
  if (twice < d) return q;
  return n < 0n ? q - 1n : q + 1n;
}

/** A decimal with up to 3 places as thousandths (1.5 → 1500), exact for what the schema lets in. */
export function toThousandths(value: number): bigint {
  return BigInt(Math.round(value * 1000));
}

/** A line's figures, exact: the products of the largest inputs the schema lets in pass 2^53. */
function exactLine(line: InvoiceLineInput) {
  const gross = divRound(toThousandths(line.quantity) * BigInt(line.unitPrice), 1000n);
  const discount = divRound(gross * toThousandths(line.discountPercent), 100n * 1000n);
  const net = gross - discount;
  const tax = divRound(net * toThousandths(line.taxRate), 100n * BigInt(RATE_SCALE));
  return { gross, discount, net, tax };
}

/**
 * A line's figures as numbers. Exact when the line is within MAX_LINE_GROSS (the contract's line
 * schema refuses one that is not), since then no figure reaches 2 × MAX_LINE_GROSS < 2^53.
 */
export function lineAmounts(line: InvoiceLineInput): LineAmounts {
  const { gross, discount, net, tax } = exactLine(line);
  return {
    gross: Number(gross),
    discount: Number(discount),
    net: Number(net),
    tax: Number(tax),
    total: Number(net + tax),
  };
}

/**
 * Sums in BigInt and converts once, so a sum is exact up to 2^53 and one beyond it compares
 * correctly with the contract's limits (conversion is monotone) instead of drifting line by line.
 */
export function invoiceTotals(lines: readonly InvoiceLineInput[]): InvoiceTotals {
  let subtotal = 0n;
  let discount = 0n;
  let tax = 0n;
  for (const line of lines) {
    const amounts = exactLine(line);
    subtotal += amounts.gross;
    discount += amounts.discount;
    tax += amounts.tax;
  }
  const net = subtotal - discount;
  return {
    subtotal: Number(subtotal),
    discount: Number(discount),
    net: Number(net),
    tax: Number(tax),
    total: Number(net + tax),
  };
}

export interface PaymentInput {
  readonly kind: 'payment' | 'refund';
  readonly amount: number;
}

/** Payments minus refunds. */
export function amountPaid(payments: readonly PaymentInput[]): number {
  let paid = 0;
  for (const payment of payments)
    paid += payment.kind === 'refund' ? -payment.amount : payment.amount;
  return paid;
}

export const invoiceStates = [
  'draft',
  'sent',
  'viewed',
  'partly_paid',
  'paid',
  'overdue',
  'void',
] as const;
export type InvoiceState = (typeof invoiceStates)[number];

export const invoiceStateWords: Readonly<Record<InvoiceState, string>> = {
  draft: 'Draft',
  sent: 'Sent',
  viewed: 'Viewed',
  partly_paid: 'Partly paid',
  paid: 'Paid',
  overdue: 'Overdue',
  void: 'Void',
};

export interface InvoiceStateInput {
  readonly status: 'draft' | 'sent' | 'void';
  readonly dueDate: string | null;
  readonly viewedAt: string | null;
  readonly total: number;
  readonly paid: number;
}

/**
 * The state an invoice is in on `today` (YYYY-MM-DD in the workspace's zone). Paid wins over
 * overdue; a partly paid invoice past its due date is overdue (money is still owed and late).
 */
export function invoiceState(invoice: InvoiceStateInput, today: string): InvoiceState {
  if (invoice.status === 'draft' || invoice.status === 'void') return invoice.status;
  if (invoice.paid >= invoice.total && invoice.total > 0) return 'paid';
  if (invoice.total <= 0) return 'paid';
  if (invoice.dueDate !== null && invoice.dueDate < today) return 'overdue';
  if (invoice.paid > 0) return 'partly_paid';
  return invoice.viewedAt ? 'viewed' : 'sent';
}

/** What is still owed (never negative: an overpayment owes nothing). */
export function amountDue(total: number, paid: number): number {
  return Math.max(0, total - paid);
}

/** Digits after the point of a currency (2 for EUR, 0 for JPY, 3 for KWD). */
export function currencyDigits(currency: string): number {
  try {
    return (
      new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions()
        .maximumFractionDigits ?? 2
    );
  } catch {
    return 2;
  }
}

/** Minor units as the currency's amount in words of the locale ("€1,234.50"). */
export function formatMoney(minor: number, currency: string, locale?: string): string {
  const digits = currencyDigits(currency);
  const format = new Intl.NumberFormat(locale, {
    style: 'currency',
    currency,
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
  return format.format(minor / 10 ** digits);
}

/** "1234.5" in a currency → minor units, or null when it is not an amount of that currency. */
export function parseMoney(input: string, currency: string): number | null {
  const digits = currencyDigits(currency);
  const cleaned = input.trim().replace(/[\s,]/g, '');
  const match = /^(\d{1,13})(?:\.(\d*))?$/.exec(cleaned);
  if (!match) return null;
  const fraction = match[2] ?? '';
  if (fraction.length > digits) return null;
  const minor =
    BigInt(match[1] as string) * 10n ** BigInt(digits) +
    BigInt(fraction.padEnd(digits, '0') || '0');
  return minor > BigInt(Number.MAX_SAFE_INTEGER) ? null : Number(minor);
}

/** Minor units written as an editable amount ("1234.50"). */
export function minorToInput(minor: number, currency: string): string {
  const digits = currencyDigits(currency);
  if (digits === 0) return String(minor);
  const sign = minor < 0 ? '-' : '';
  const abs = Math.abs(minor);
  const whole = Math.floor(abs / 10 ** digits);
  const fraction = String(abs % 10 ** digits).padStart(digits, '0');
  return `${sign}${whole}.${fraction}`;
}
