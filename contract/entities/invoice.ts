/**
 * Invoices and their payments (issue 16, resource `payment`): what a freelancer bills a client,
 * and the money that came in (or went back) against it.
 *
 * Invariants (the server's hooks in server/endpoints/invoice.ts hold them):
 * - An invoice is written as a draft, on any device, offline too. Its lines live in the row (one
 *   write changes a draft's lines together); their arithmetic is invoice-totals.ts.
 * - A draft has no number. `send-invoice` (online only) gives it the workspace's next number in
 *   the transaction that marks it sent, so numbers are sequential and gap-free however many
 *   devices drafted offline. After that its lines, currency and client are fixed: a mistake is
 *   voided (`status: 'void'`) and issued again, never edited.
 * - `status` stores only draft, sent or void; viewed, partly paid, paid and overdue are derived
 *   (invoiceState), from `viewedAt`, the payments and the due date.
 * - A payment (or refund) belongs to a sent invoice, in its currency; refunds never exceed what
 *   was paid, and payments never exceed what is due (a 422 the device shows in sync issues).
 */
import * as v from 'valibot';
import { text } from '../text.ts';
import { defineSyncedEntity, field, type RowRule } from '../synced-entity.ts';
import { longTextSchema, titleSchema } from './fields.ts';
import { idSchema } from './ids.ts';
import { dateSchema } from './project.ts';
import {
  invoiceTotals,
  lineAmounts,
  MAX_LINE_GROSS,
  QUANTITY_SCALE,
  type InvoiceLineInput,
} from './invoice-totals.ts';

export const MAX_INVOICE_LINES = 500;
export const MAX_UNIT_PRICE = 1_000_000_000_000; // minor units: 10 billion dollars
export const MAX_QUANTITY = 1_000_000;
/**
 * An invoice's subtotal and total stay well inside a double's exact integers (with MAX_LINE_GROSS
 * per line, invoice-totals.ts).
 */
export const MAX_INVOICE_TOTAL = 1_000_000_000_000_000;

const isoCurrencies: ReadonlySet<string> = new Set(
  typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('currency') : [],
);

/** An ISO 4217 currency code, as the runtime's ICU knows them (not just three letters). */
export const invoiceCurrencySchema = v.pipe(
  text('Choose a currency'),
  v.trim(),
  v.toUpperCase(),
  v.regex(/^[A-Z]{3}$/, 'Use a 3-letter currency code like EUR'),
  v.check(
    (code) => isoCurrencies.size === 0 || isoCurrencies.has(code),
    'That is not an ISO 4217 currency code',
  ),
);

const decimals = (max: number) => (value: number) =>
  Number.isInteger(Math.round(value * 10 ** max * 1e6) / 1e6);

const percentSchema = (what: string) =>
  v.pipe(
    v.number(`Enter the ${what} as a percent`),
    v.finite(`Enter the ${what} as a percent`),
    v.minValue(0, `The ${what} cannot be negative`),
    v.maxValue(100, `The ${what} is at most 100%`),
    v.check(decimals(3), `The ${what} has at most 3 decimals`),
  );

export const invoiceLineSchema = v.pipe(
  v.strictObject({
    /** Stable across edits, so a list can key on it. */
    id: idSchema,
    description: v.pipe(
      text('A line needs a description'),
      v.trim(),
      v.nonEmpty('Describe the line'),
      v.maxLength(1000, 'A line is at most 1,000 characters'),
    ),
    quantity: v.pipe(
      v.number('Enter a quantity'),
      v.finite('Enter a quantity'),
      v.minValue(0, 'A quantity cannot be negative'),
      v.maxValue(MAX_QUANTITY, 'A quantity is at most 1,000,000'),
      v.check(decimals(Math.log10(QUANTITY_SCALE)), 'A quantity has at most 3 decimals'),
    ),
    unitPrice: v.pipe(
      v.number('Enter a price in minor units (cents)'),
      v.integer('Prices are whole minor units (cents)'),
      v.minValue(0, 'A price cannot be negative'),
      v.maxValue(MAX_UNIT_PRICE, 'That price is too large'),
    ),
    taxRate: percentSchema('tax rate'),
    discountPercent: percentSchema('discount'),
    /** Where the line came from, so a milestone or change is not billed twice unnoticed. */
    milestoneId: v.nullable(idSchema),
    changeRequestId: v.nullable(idSchema),
  }),
  // Each of quantity and price may be large, not both: their product must stay exact (and the
  // price is what a too-large line is fixed by, so the error stands under it in the editor).
  v.forward(
    v.rawCheck(({ dataset, addIssue }) => {
      // A field already refused (a fractional price, 1e20) is said alone, and never multiplied.
      if (!dataset.typed || dataset.issues) return;
      if (lineAmounts(dataset.value).gross > MAX_LINE_GROSS) {
        addIssue({ message: 'Quantity × unit price is too large for one line' });
      }
    }),
    ['unitPrice'],
  ),
);
export type InvoiceLine = v.InferOutput<typeof invoiceLineSchema>;

export const invoiceLinesSchema = v.pipe(
  v.array(invoiceLineSchema, 'Lines are a list'),
  v.maxLength(MAX_INVOICE_LINES, `An invoice has at most ${MAX_INVOICE_LINES} lines`),
  v.check(
    (lines) => new Set(lines.map((line) => line.id)).size === lines.length,
    'Two lines have the same id',
  ),
);

export const paymentTerms = [
  'due_on_receipt',
  'net_7',
  'net_14',
  'net_30',
  'net_45',
  'net_60',
  'custom',
] as const;
export type PaymentTerms = (typeof paymentTerms)[number];

export const paymentTermsWords: Readonly<Record<PaymentTerms, string>> = {
  due_on_receipt: 'Due on receipt',
  net_7: 'Net 7',
  net_14: 'Net 14',
  net_30: 'Net 30',
  net_45: 'Net 45',
  net_60: 'Net 60',
  custom: 'Custom due date',
};

/** Days from issue to due (null: the due date is written by hand). */
export function termsDays(terms: PaymentTerms): number | null {
  if (terms === 'custom') return null;
  if (terms === 'due_on_receipt') return 0;
  return Number(terms.slice(4));
}

/** The date `days` after a YYYY-MM-DD date. */
export function addDays(date: string, days: number): string {
  const at = new Date(`${date}T00:00:00Z`);
  at.setUTCDate(at.getUTCDate() + days);
  return at.toISOString().slice(0, 10);
}

export const invoiceStatuses = ['draft', 'sent', 'void'] as const;

/**
 * The lines' figures, or null when a line is malformed or too large: the line schema refuses
 * that one by its path, and a total made of it would only repeat the refusal less precisely.
 */
function totalsOf(row: Readonly<Record<string, unknown>>) {
  if (!Array.isArray(row.lines)) return null;
  try {
    const lines = row.lines as InvoiceLineInput[];
    if (lines.some((line) => lineAmounts(line).gross > MAX_LINE_GROSS)) return null;
    return invoiceTotals(lines);
  } catch {
    return null;
  }
}

const totalWithinLimit: RowRule = {
  path: 'lines',
  message: 'The invoice total is too large',
  test: (row) => {
    const totals = totalsOf(row);
    return totals === null || Math.abs(totals.total) <= MAX_INVOICE_TOTAL;
  },
};

/** Discounts can bring the total down while the lines' sum before them passes 2^53. */
const subtotalWithinLimit: RowRule = {
  path: 'lines',
  message: 'The lines add up to too much before discounts',
  test: (row) => {
    const totals = totalsOf(row);
    return totals === null || totals.subtotal <= MAX_INVOICE_TOTAL;
  },
};

const dueNotBeforeIssue: RowRule = {
  path: 'dueDate',
  message: 'The due date cannot be before the issue date',
  test: (row) =>
    typeof row.issueDate !== 'string' ||
    typeof row.dueDate !== 'string' ||
    row.issueDate <= row.dueDate,
};

/** Set by the server, never by a create or an update. */
const serverSet = { create: false, editable: false } as const;

export const invoiceEntity = defineSyncedEntity({
  name: 'invoice',
  plural: 'invoices',
  resource: 'payment',
  sqlTable: 'invoice',
  label: 'title',
  parent: { entity: 'client', key: 'clientId', onDelete: 'confirm' },
  fields: {
    title: field(titleSchema, { default: 'Invoice' }),
    /** The project billed, when there is one (same client; the portal shows it there). */
    projectId: field(v.nullable(idSchema), { default: null, word: 'project' }),
    /** draft → sent (send-invoice) → void (update). */
    status: field(v.picklist(invoiceStatuses, 'An invoice is draft, sent or void'), {
      default: 'draft',
      create: false,
      values: { draft: 'Draft', sent: 'Sent', void: 'Void' },
    }),
    number: field(v.nullable(v.number()), { ...serverSet, default: null }),
    currency: field(invoiceCurrencySchema, { default: 'USD' }),
    issueDate: field(dateSchema, { default: null, sql: 'date', word: 'issue date' }),
    dueDate: field(dateSchema, { default: null, sql: 'date', word: 'due date' }),
    paymentTerms: field(v.picklist(paymentTerms, 'Choose payment terms'), {
      default: 'net_30',
      word: 'payment terms',
      values: paymentTermsWords,
    }),
    lines: field(invoiceLinesSchema, { default: [], sql: 'jsonb' }),
    /** Printed on the invoice under the lines (thanks, scope, bank details). */
    notes: field(longTextSchema('Notes', 5000), { default: null }),
    sentAt: field(v.nullable(text()), { ...serverSet, default: null, word: 'sent' }),
    /** The client first opened it in the portal. */
    viewedAt: field(v.nullable(text()), { ...serverSet, default: null, word: 'viewed' }),
  },
  rules: [totalWithinLimit, subtotalWithinLimit, dueNotBeforeIssue],
  indexes: [
    '[workspaceId+status]',
    '[workspaceId+projectId]',
    'clientId',
    '[workspaceId+createdAt]',
  ],
  list: { scope: 'workspace', filters: ['status'], orderBy: 'created_at DESC, id' },
  summaries: {
    create: 'Draft an invoice for a client (id generated by the app); send-invoice numbers it.',
    list: "The workspace's invoices, newest first.",
  },
});

export const paymentKinds = ['payment', 'refund'] as const;
export const paymentMethods = [
  'bank_transfer',
  'cash',
  'card',
  'cheque',
  'stripe',
  'other',
] as const;
export const paymentMethodWords: Readonly<Record<(typeof paymentMethods)[number], string>> = {
  bank_transfer: 'Bank transfer',
  cash: 'Cash',
  card: 'Card',
  cheque: 'Cheque',
  stripe: 'Stripe',
  other: 'Other',
};
/** What a member records by hand; `stripe` payments arrive by webhook only. */
export const manualPaymentMethods = paymentMethods.filter((method) => method !== 'stripe');

export const invoicePaymentEntity = defineSyncedEntity({
  name: 'invoice-payment',
  plural: 'invoice-payments',
  resource: 'payment',
  listKey: 'payments',
  sqlTable: 'invoice_payment',
  label: 'amount',
  parent: { entity: 'invoice', key: 'invoiceId', onDelete: 'cascade' },
  fields: {
    kind: field(v.picklist(paymentKinds, 'A payment or a refund'), {
      default: 'payment',
      editable: false,
      values: { payment: 'Payment', refund: 'Refund' },
    }),
    amount: field(
      v.pipe(
        v.number('Enter the amount in minor units (cents)'),
        v.integer('Amounts are whole minor units (cents)'),
        v.minValue(1, 'Enter an amount above zero'),
        v.maxValue(MAX_INVOICE_TOTAL, 'That amount is too large'),
      ),
      { sql: 'bigint', editable: false },
    ),
    method: field(v.picklist(paymentMethods, 'Choose how it was paid'), {
      default: 'bank_transfer',
      values: paymentMethodWords,
    }),
    paidOn: field(
      v.pipe(text('Use a date like 2026-03-31'), v.isoDate('Use a date like 2026-03-31')),
      {
        sql: 'date',
        word: 'date',
      },
    ),
    reference: field(
      v.nullable(v.pipe(text(), v.trim(), v.maxLength(200, 'At most 200 characters'))),
      { default: null },
    ),
    /** Stripe's id of the charge (checkout session or payment intent): each is recorded once. */
    externalId: field(v.nullable(text()), { ...serverSet, default: null }),
  },
  indexes: ['invoiceId'],
  list: { scope: 'workspace', orderBy: 'paid_on, created_at, id' },
  summaries: {
    create: 'Record a payment or refund against a sent invoice (id generated by the app).',
    list: "The workspace's invoice payments and refunds.",
  },
});

export type Invoice = v.InferOutput<typeof invoiceEntity.rowSchema>;
export type InvoicePayment = v.InferOutput<typeof invoicePaymentEntity.rowSchema>;

/** "INV-0042": how a number is shown (a draft has none). */
export function invoiceNumberText(number: number | null): string {
  return number === null ? 'Draft' : `INV-${String(number).padStart(4, '0')}`;
}
